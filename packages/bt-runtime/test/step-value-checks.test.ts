import { describe, expect, it } from 'vitest';
import { checkStepValue } from '../src/executor/step-checks.js';
import { defineFake, digBlock, registryWith } from './fake-body.js';

// V1 + V2 of one step value as the executor meets it: shaped or not, through a deprecated alias, or unreadable.

const chop = defineFake({ ...(digBlock as unknown as Parameters<typeof defineFake>[0]), name: 'chop_tree', aliases: ['fell', 'axe'] });
const registry = () => registryWith(digBlock, chop);

describe('checkStepValue', () => {
  it('names the alias a step used, whether its shape was checked before or not', () => {
    for (const shapeChecked of [true, false]) {
      const checked = checkStepValue(registry(), { stepId: 's', type: 'axe', args: { block: 'oak' } }, shapeChecked);
      expect(checked).toMatchObject({ ok: true, alias: 'axe', capability: { name: 'chop_tree' }, args: { block: 'oak' } });
    }
  });

  it('has no alias field for a step that used the canonical verb', () => {
    const checked = checkStepValue(registry(), { stepId: 's', type: 'chop_tree', args: { block: 'oak' } }, true);
    expect(checked.ok).toBe(true);
    expect(Object.keys(checked)).not.toContain('alias');
  });

  it('refuses args with the capability it resolved to, so the refusal is counted under it', () => {
    const checked = checkStepValue(registry(), { stepId: 's', type: 'fell', args: { block: 3 } }, true);
    expect(checked).toMatchObject({ ok: false, failure: { code: 'invalid_args' }, capability: { name: 'chop_tree' } });
  });

  it('a step value that throws when read is invalid_args saying so, never a throw', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('revoked'); }, ownKeys: () => { throw new Error('revoked'); }, getOwnPropertyDescriptor: () => { throw new Error('revoked'); } });
    for (const shapeChecked of [true, false]) {
      expect(checkStepValue(registry(), hostile, shapeChecked)).toStrictEqual({ ok: false, failure: { code: 'invalid_args', reason: 'the step cannot be read: revoked', retryable: false } });
    }
  });

  it('a malformed step gets the full explanation, unknown keys named', () => {
    const checked = checkStepValue(registry(), { stepId: 's', type: 'dig_block', args: { block: 'b' }, colour: 'red' }, false);
    expect(checked.ok).toBe(false);
    expect(checked.ok ? '' : checked.failure.reason).toContain('colour');
  });
});
