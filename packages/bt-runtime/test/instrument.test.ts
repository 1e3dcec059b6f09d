import { ManualClock } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { emitActuatorCommand, InstrumentError, instrumentMethods, leasedView, StaleActuationError, type ActuatorCommand, type ActuatorLease } from '../src/index.js';

class Bot {
  pos = 0;
  pathfinder = { goal: undefined as unknown, setGoal(goal: unknown) { this.goal = goal; } };
  move(dx: number) {
    this.pos += dx;
    return this.pos;
  }
  fail() {
    throw new Error('cannot');
  }
}

describe('instrumentMethods', () => {
  it('patches methods in place: same object, same behaviour, one command per call (nested paths too)', () => {
    const bot = new Bot();
    const body = instrumentMethods(bot, ['move', 'fail', 'pathfinder.setGoal']);
    expect(body).toBe(bot);
    const seen: ActuatorCommand[] = [];
    const off = body.sinew.onActuate((c) => seen.push(c));
    expect(body.move(2)).toBe(2);
    body.pathfinder.setGoal({ x: 1 });
    expect(bot.pathfinder.goal).toEqual({ x: 1 });
    expect(() => body.fail()).toThrow('cannot');
    expect(seen).toEqual([{ command: 'move', detail: '2' }, { command: 'pathfinder.setGoal', detail: 'object' }, { command: 'fail' }]);
    off();
    body.move(1);
    expect(seen).toHaveLength(3);
    // Sinew's signals live in one hidden namespace, not as loose props on the user's object.
    expect(Object.keys(bot)).not.toContain('sinew');
    expect(Object.keys(bot)).not.toContain('onActuate');
  });

  it("adds onActuate to a namespace the body already has (its own onDisconnect stays) and refuses a non-object `sinew`", () => {
    const gone = () => () => undefined;
    const body = instrumentMethods(Object.assign(new Bot(), { sinew: { onDisconnect: gone } }), ['move']);
    const seen: string[] = [];
    body.sinew.onActuate((c) => seen.push(c.command));
    body.move(1);
    expect(seen).toEqual(['move']);
    expect(body.sinew.onDisconnect).toBe(gone);
    expect(() => instrumentMethods(Object.assign(new Bot(), { sinew: 'mine' }), ['move'])).toThrow(/"sinew" property is a string/);
  });

  it('instrumenting twice never double-reports; a listener that throws never breaks the body', () => {
    const bot = instrumentMethods(instrumentMethods(new Bot(), ['move']), ['move']);
    const seen: string[] = [];
    bot.sinew.onActuate(() => {
      throw new Error('bad listener');
    });
    bot.sinew.onActuate((c) => seen.push(c.command));
    bot.move(1);
    expect(seen).toEqual(['move']);
    expect(bot.pos).toBe(1);
  });

  it('rejects missing methods unless told to skip them; emits non-method commands', () => {
    expect(() => instrumentMethods(new Bot(), ['fly'])).toThrow(InstrumentError);
    const bot = instrumentMethods(new Bot(), ['fly', 'move'], { ignoreMissing: true, commandName: (m) => `bot.${m}` });
    const seen: string[] = [];
    bot.sinew.onActuate((c) => seen.push(c.command));
    bot.move(1);
    emitActuatorCommand(bot, { command: 'control.forward' });
    expect(seen).toEqual(['bot.move', 'control.forward']);
  });
});

describe('ManualClock', () => {
  it('runs due timers in order only when advanced', async () => {
    const clock = new ManualClock(100);
    const fired: string[] = [];
    clock.setTimeout(() => fired.push('b@300'), 200);
    clock.setTimeout(() => fired.push('a@150'), 50);
    const cancelled = clock.setTimeout(() => fired.push('never'), 10);
    clock.clearTimeout(cancelled);
    await clock.advance(49);
    expect(fired).toEqual([]);
    await clock.advance(151);
    expect(fired).toEqual(['a@150', 'b@300']);
    expect(clock.now()).toBe(300);
    expect(clock.pending()).toBe(0);
    await expect(clock.advance(-1)).rejects.toThrow(RangeError);
  });
});

describe('leasedView (per-attempt body views)', () => {
  it('attributes calls (nested paths too) to its lease, reads through to the body, and refuses them once the lease expired', async () => {
    const bot = new Bot();
    const body = instrumentMethods(bot, ['move', 'pathfinder.setGoal']);
    const seen: ActuatorCommand[] = [];
    body.sinew.onActuate((command) => seen.push(command));
    const stale: string[] = [];
    const lease = { expired: false, stale: (command: string) => stale.push(command) };
    const view = leasedView(body, lease as ActuatorLease);
    expect(view.move(2)).toBe(2);
    view.pathfinder.setGoal('home');
    expect(view.pos).toBe(2);
    expect(bot.pathfinder.goal).toBe('home');
    expect(seen.map((c) => [c.command, c.issuer === lease])).toEqual([['move', true], ['pathfinder.setGoal', true]]);
    body.move(1);
    expect(seen.at(-1)?.issuer).toBeUndefined();
    lease.expired = true;
    // Refused without a synchronous throw (safe in an abort listener); an awaiting caller gets the error.
    const refused = view.move(1) as unknown as Promise<unknown>;
    await expect(refused).rejects.toThrow(StaleActuationError);
    expect(() => view.pathfinder.setGoal('away')).not.toThrow();
    expect(stale).toEqual(['move', 'pathfinder.setGoal']);
    expect(bot.pos).toBe(3);
    expect(bot.pathfinder.goal).toBe('home');
  });
});
