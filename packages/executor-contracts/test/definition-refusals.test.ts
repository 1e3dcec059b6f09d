import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { accepted, CapabilityDefinitionError, defineCapability, effectsUnmet, type CapabilityDefinition } from '../src/index.js';

// What a JavaScript caller (or an LLM-written plugin) gets back for each malformed definition: the exact
// message, so a wrong field name, a dropped fallback or a lost separator shows.

const chop = {
  name: 'chop_tree',
  version: '0.3.1',
  description: 'fell one trunk',
  inputSchema: z.object({ species: z.enum(['oak', 'birch']), logs: z.number().int().optional() }),
  run: async () => {},
  acceptance: () => accepted,
} satisfies CapabilityDefinition<z.ZodObject<{ species: z.ZodEnum<{ oak: 'oak'; birch: 'birch' }>; logs: z.ZodOptional<z.ZodNumber> }>, unknown, unknown>;

/** What defineCapability throws for `definition`: class name, code and message. */
function refusalOf(definition: unknown): { name: string; code: unknown; capability: unknown; message: string } {
  try {
    defineCapability(definition as typeof chop);
  } catch (error) {
    const { name, code, capability, message } = error as CapabilityDefinitionError;
    return { name, code, capability, message };
  }
  throw new Error('defineCapability accepted a bad definition');
}

const patched = (patch: Record<string, unknown>) => refusalOf({ ...chop, ...patch }).message;

describe('defineCapability refuses a definition that is not an object, naming no capability', () => {
  it.each([
    [null, 'null'],
    [7, '7'],
    ['chop_tree', '"chop_tree"'],
  ])('%j', (definition, shown) => {
    expect(refusalOf(definition)).toEqual({
      name: 'CapabilityDefinitionError',
      code: 'invalid_capability',
      capability: '?',
      message: `capability ?: expected a definition object, received ${shown}`,
    });
  });
});

describe('defineCapability names the field and shows what arrived', () => {
  it('a name that is not a string is shown as ? (the error has no name to give)', () => {
    expect(refusalOf({ ...chop, name: 42 })).toMatchObject({ capability: '?', message: 'capability ?: name: expected a snake_case verb like `dig_block`, received 42' });
  });

  it('a name that is not snake_case keeps its own spelling in the prefix', () => {
    expect(patched({ name: 'ChopTree' })).toBe('capability ChopTree: name: expected a snake_case verb like `dig_block`, received "ChopTree"');
  });

  it('clips a received string after 40 characters, and not at 40', () => {
    const forty = 'Q'.repeat(40);
    expect(patched({ name: forty })).toBe(`capability ${forty}: name: expected a snake_case verb like \`dig_block\`, received "${forty}"`);
    expect(patched({ name: `${forty}Z` })).toBe(`capability ${forty}Z: name: expected a snake_case verb like \`dig_block\`, received "${forty}…"`);
  });

  it('a version that is not semver, given as text, as an array or as a number', () => {
    expect(patched({ version: 'v2' })).toBe('capability chop_tree: version: "v2" is not semver (major.minor.patch)');
    expect(patched({ version: ['1', '0', '0'] })).toBe('capability chop_tree: version: an array is not semver (major.minor.patch)');
    expect(patched({ version: 1 })).toBe('capability chop_tree: version: 1 is not semver (major.minor.patch)');
    // An array whose text reads as semver is still not a version string.
    expect(patched({ version: ['1.0.0'] })).toBe('capability chop_tree: version: an array is not semver (major.minor.patch)');
  });

  it('a name that is an array reading as a verb is still not a name', () => {
    expect(refusalOf({ ...chop, name: ['chop_tree'] })).toMatchObject({ capability: '?', message: 'capability ?: name: expected a snake_case verb like `dig_block`, received an array' });
  });

  it('an inputSchema that is null, or has safeParse but is not a zod schema', () => {
    const expected = (shown: string) => `capability chop_tree: inputSchema: expected a zod schema (zod 4), received ${shown}`;
    expect(patched({ inputSchema: null })).toBe(expected('null'));
    expect(patched({ inputSchema: { safeParse: () => ({ success: true }) } })).toBe(expected('object'));
    expect(patched({ inputSchema: { _zod: { def: { type: 'object' } } } })).toBe(expected('object'));
  });

  it('a behavior that is a function, or lacks its kind', () => {
    const run = async () => {};
    const expected = (shown: string) => `capability chop_tree: behavior: expected a behavior runner ({ kind, run }), received ${shown}`;
    expect(patched({ run: undefined, behavior: Object.assign(() => {}, { kind: 'bt', run }) })).toBe(expected('function'));
    expect(patched({ run: undefined, behavior: { run } })).toBe(expected('object'));
  });

  it('an expectedDurationMs given as a numeric string', () => {
    expect(patched({ expectedDurationMs: '5000' })).toBe('capability chop_tree: expectedDurationMs must be > 0');
  });

  it('a retry that is not an object: text, an array, null', () => {
    expect(patched({ retry: 'twice' })).toBe('capability chop_tree: retry: expected an object, received "twice"');
    expect(patched({ retry: [2] })).toBe('capability chop_tree: retry: expected an object, received an array');
    expect(patched({ retry: null })).toBe('capability chop_tree: retry: expected an object, received null');
  });

  it('a retry with several unknown keys lists them all, comma-separated', () => {
    expect(patched({ retry: { tries: 2, jitter: true } })).toBe('capability chop_tree: retry: unknown key `tries`, `jitter`');
  });
});

describe('defineCapability keeps the options it was given and only those', () => {
  it('no expectedDurationMs key when none was given', () => {
    expect(Object.keys(defineCapability(chop))).not.toContain('expectedDurationMs');
    expect(defineCapability({ ...chop, expectedDurationMs: 900 }).expectedDurationMs).toBe(900);
  });

  it('an input schema that is not an object is kept as given (only objects are made strict)', () => {
    const list = defineCapability({ ...chop, inputSchema: z.array(z.string()) });
    expect(list.inputSchema.safeParse(['oak', 'birch'])).toEqual({ success: true, data: ['oak', 'birch'] });
  });

  it('strictArgs: false keeps an object schema in strip mode (unknown keys dropped, not refused)', () => {
    const loose = defineCapability({ ...chop, strictArgs: false });
    expect(loose.inputSchema.safeParse({ species: 'oak', axe: 'iron' })).toEqual({ success: true, data: { species: 'oak' } });
    expect(defineCapability(chop).inputSchema.safeParse({ species: 'oak', axe: 'iron' }).success).toBe(false);
  });
});

describe('effectsUnmet', () => {
  it('has no reason key without a reason, and is never ok', () => {
    expect(effectsUnmet(['block:1,64,1:air'])).toStrictEqual({ ok: false, unmet: ['block:1,64,1:air'] });
    expect(effectsUnmet([], 'the log grew back')).toStrictEqual({ ok: false, unmet: [], reason: 'the log grew back' });
  });
});
