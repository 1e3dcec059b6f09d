import { describe, expect, it } from 'vitest';
import { createExecutorMetrics } from '../src/index.js';
import { ActuatorPulse, type PulseReceiver } from '../src/executor/pulse.js';
import { isThenable, safeRead } from '../src/executor/safe.js';
import { metric } from './metric.js';

/** A receiver that keeps what it was told. */
function receiver(): PulseReceiver & { readonly got: unknown[][] } {
  const got: unknown[][] = [];
  return { got, pulse: (command, issuer, detail) => void got.push([command, issuer, detail]) };
}

describe('ActuatorPulse', () => {
  it('delivers each command to the running attempt with its issuer, and its detail only when it is a string', () => {
    const pulse = new ActuatorPulse(createExecutorMetrics());
    const target = receiver();
    const lease = { lease: 1 };
    pulse.onCommand({ command: 'dig', issuer: lease, detail: 'log_1' } as never);
    pulse.target = target;
    pulse.onCommand({ command: 'dig', issuer: lease, detail: 'log_2' } as never);
    pulse.onCommand({ command: 'move', detail: 42 } as never);
    pulse.onCommand({ command: 7 } as never);
    pulse.target = undefined;
    pulse.onCommand({ command: 'chat' } as never);
    expect(target.got).toEqual([
      ['dig', lease, 'log_2'],
      ['move', undefined, undefined],
      ['unknown', undefined, undefined],
    ]);
  });

  it('counts a missing command as `unknown` when no attempt runs', async () => {
    const metrics = createExecutorMetrics();
    new ActuatorPulse(metrics).onCommand(undefined as never);
    expect(await metric(metrics.registry, 'sinew_actuator_commands_total', { command: 'unknown' })).toBe(1);
  });

  it('counts every command by name, with or without a running attempt', async () => {
    const metrics = createExecutorMetrics();
    const pulse = new ActuatorPulse(metrics);
    pulse.onCommand({ command: 'dig' } as never);
    pulse.target = receiver();
    pulse.onCommand({ command: 'dig' } as never);
    pulse.onCommand({ command: 'place' } as never);
    pulse.onCommand({ command: null } as never);
    const count = (command: string) => metric(metrics.registry, 'sinew_actuator_commands_total', { command });
    expect([await count('dig'), await count('place'), await count('unknown')]).toEqual([2, 1, 1]);
  });

  it('bounds the command label: names past 64 distinct ones fold into `other`, and each name keeps its label', async () => {
    const metrics = createExecutorMetrics();
    const pulse = new ActuatorPulse(metrics);
    const names = Array.from({ length: 70 }, (_, i) => `cmd_${i}`);
    for (const name of names) pulse.onCommand({ command: name } as never);
    pulse.onCommand({ command: 'cmd_0' } as never);
    pulse.onCommand({ command: 'cmd_69' } as never);
    const count = (command: string) => metric(metrics.registry, 'sinew_actuator_commands_total', { command });
    expect(await count('cmd_0')).toBe(2);
    expect(await count('cmd_63')).toBe(1);
    expect(await count('other')).toBe(7);
    expect(pulse.label('cmd_1')).toBe('cmd_1');
    expect(pulse.label('cmd_99')).toBe('other');
  });
});

describe('safeRead and isThenable', () => {
  it('reads a key of an object or a function, and nothing of a primitive or null', () => {
    const fn = Object.assign(() => undefined, { then: 'not callable' });
    expect(safeRead({ a: 1 }, 'a')).toBe(1);
    expect(safeRead(fn, 'then')).toBe('not callable');
    expect(safeRead('text', 'length')).toBeUndefined();
    expect(safeRead(null, 'a')).toBeUndefined();
    expect(safeRead(undefined, 'a')).toBeUndefined();
    expect(safeRead(5, 'toFixed')).toBeUndefined();
  });

  it('reads a throwing getter or a revoked proxy as undefined', () => {
    const hostile = Object.defineProperty({}, 'then', { get: () => { throw new Error('boom'); } });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(safeRead(hostile, 'then')).toBeUndefined();
    expect(safeRead(proxy, 'then')).toBeUndefined();
    expect(isThenable(hostile)).toBe(false);
  });

  it('calls a value thenable only when its `then` is a function', () => {
    expect(isThenable(Promise.resolve())).toBe(true);
    expect(isThenable({ then: () => undefined })).toBe(true);
    expect(isThenable(Object.assign(() => undefined, { then: () => undefined }))).toBe(true);
    expect(isThenable({ then: true })).toBe(false);
    expect(isThenable(undefined)).toBe(false);
  });
});
