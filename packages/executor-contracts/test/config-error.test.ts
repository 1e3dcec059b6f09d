import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError, parseConfig } from '../src/index.js';

const Limits = z.strictObject({ maxNodes: z.number().int().positive(), name: z.string().optional() });

describe('ConfigError and parseConfig: one bad-option error across the packages', () => {
  it('returns the parsed value (defaults applied) when the options are good', () => {
    expect(parseConfig('demo', z.object({ n: z.number().default(3) }), {})).toEqual({ n: 3 });
  });

  it('names where, the first field path and every zod issue; unknown keys are issues, not dropped', () => {
    let thrown: unknown;
    try {
      parseConfig('createThing.limits', Limits, { maxNodes: 0, nmae: 'x' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const error = thrown as ConfigError;
    expect(error).toMatchObject({ name: 'ConfigError', code: 'invalid_config', where: 'createThing.limits', path: ['maxNodes'] });
    expect(error.issues.map((i) => i.code)).toEqual(['too_small', 'unrecognized_keys']);
    expect(error.message).toMatch(/^createThing\.limits: invalid config:\n/);
    expect(error.message).toContain('nmae');
  });

  it('builds a subclass from fromZod and field, so each package keeps its own class name', () => {
    class ThingError extends ConfigError {
      override name = 'ThingError';
    }
    const parsed = Limits.safeParse({ maxNodes: -1 });
    const fromZod = ThingError.fromZod('thing', parsed.error!);
    expect(fromZod).toBeInstanceOf(ThingError);
    expect(fromZod).toBeInstanceOf(ConfigError);
    expect(fromZod.name).toBe('ThingError');
    const field = ThingError.field('thing', ['planners', 2], 'names must be unique');
    expect(field).toMatchObject({ code: 'invalid_config', path: ['planners', 2], issues: [{ path: ['planners', 2], code: 'custom', message: 'names must be unique' }] });
    expect(field.message).toBe('thing: planners.2: names must be unique');
    expect(new ConfigError('whole', []).path).toEqual([]);
  });
});
