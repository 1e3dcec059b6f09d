import { ConfigError } from '@sinew/executor-contracts';
import { TestkitError } from './errors.js';
import { embedded, type TestServer } from './server.js';

/**
 * Resolves `true` once `check()` holds — read at once and after every server tick — or `false` after `withinTicks`
 * server ticks. The budget is the world's time, not the wall's: what a test waits for (fire, air, mobs, drops, the
 * packets of the next tick) comes with the server's ticks, and a loaded machine's slower ticks stretch the wait with
 * them, where a wall-clock budget runs out first. A `check` that throws rejects with its error; a server stopped
 * while waiting rejects with `server_stopped` (no more ticks come). Embedded servers only (`unsupported_external`).
 *
 * @example
 * await teleport(bot, { x: 0.5, y: GROUND_Y + 1, z: 0.5 });
 * expect(await waitUntil(server, () => bot.oxygenLevel === 20, 100)).toBe(true); // within 5 s of server time
 */
export function waitUntil(server: TestServer, check: () => boolean, withinTicks: number): Promise<boolean> {
  if (typeof check !== 'function') throw ConfigError.field('waitUntil', ['check'], `expected a function, received ${typeof check}`);
  if (!(Number.isInteger(withinTicks) && withinTicks > 0)) throw ConfigError.field('waitUntil', ['withinTicks'], `expected an integer > 0, received ${JSON.stringify(withinTicks)}`);
  const { state, serv } = embedded(server, 'waitUntil');
  return new Promise((resolve, reject) => {
    let left = withinTicks;
    const end = (settle: () => void): void => {
      serv.removeListener('tick', onTick);
      clearInterval(stopWatch);
      settle();
    };
    /** The check's answer, or undefined once its throw has ended the wait. */
    const read = (): boolean | undefined => {
      try {
        return Boolean(check());
      } catch (error) {
        end(() => reject(error));
        return undefined;
      }
    };
    const onTick = (): void => {
      const held = read();
      if (held === undefined || (!held && --left > 0)) return;
      end(() => resolve(held));
    };
    const stopWatch = setInterval(() => {
      if (state.stopped) end(() => reject(new TestkitError('server_stopped', `the server was stopped while waiting (${left} of ${withinTicks} ticks left)`)));
    }, 100);
    serv.on('tick', onTick);
    const now = read();
    if (now === true) end(() => resolve(true));
  });
}
