import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

type LoginWaiter = SquidPlayer & { waitPlayerLogin(): Promise<void> };
const settled = new WeakMap<SquidPlayer, Promise<void>>();

/**
 * A login that ends when the client first moves: flying-squid waits for a `flying`/`look`
 * packet (which mineflayer 4.25 may send only much later) and then sends the login position
 * again, pulling back a bot teleported meanwhile. Any movement packet ends the wait here, and
 * {@link loginSettled} tells when that last login position has been sent.
 */
export function installLogin(ctx: ExtensionContext): void {
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    const waiter = player as LoginWaiter;
    const events = ['flying', 'look', 'position', 'position_look'];
    let moved = false;
    const wakers: (() => void)[] = [];
    const onMove = (): void => {
      moved = true;
      for (const event of events) player._client.off(event, onMove);
      for (const wake of wakers.splice(0)) wake();
    };
    for (const event of events) player._client.on(event, onMove);
    let done!: () => void;
    settled.set(player, new Promise<void>((resolve) => (done = resolve)));
    waiter.waitPlayerLogin = () =>
      new Promise<void>((resolve) => {
        // login() sends the position right after this promise resumes it; a macrotask later it has.
        const finish = (): void => {
          resolve();
          setImmediate(done);
        };
        if (moved) finish();
        else wakers.push(finish);
      });
    player._client.once('end', () => done());
  });
}

/** Resolves once the server has sent the player's final login position (or at once for unknown players). */
export function loginSettled(player: SquidPlayer): Promise<void> {
  return settled.get(player) ?? Promise.resolve();
}
