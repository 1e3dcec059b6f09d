import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/config-error.js';
import { fnv1a64 } from '../src/random.js';
import { BackoffSchema, CapabilityRetrySchema } from '../src/retry.js';

describe('ConfigError without a message of its own', () => {
  it('lists every issue as `path: message`, the root as (root), joined by semicolons', () => {
    const error = new ConfigError('createRouter', [
      { path: ['planners', 0, 'name'], code: 'custom', message: 'names must be unique' },
      { path: [], code: 'invalid_type', message: 'expected an object' },
    ]);
    expect(error.message).toBe('createRouter: invalid config: planners.0.name: names must be unique; (root): expected an object');
    expect(error.path).toEqual(['planners', 0, 'name']);
  });

  it('says `no detail` when it was given no issue at all', () => {
    expect(new ConfigError('serveSinew', []).message).toBe('serveSinew: invalid config: no detail');
  });

  it('field() with an empty path names only where and the message', () => {
    const error = ConfigError.field('sinew-verbs', [], 'no registry given', 'missing');
    expect(error.message).toBe('sinew-verbs: no registry given');
    expect(error.issues).toEqual([{ path: [], code: 'missing', message: 'no registry given' }]);
  });
});

describe('backoff order', () => {
  it('accepts a cap equal to the first wait, refuses one below it with a custom issue at maxMs', () => {
    expect(BackoffSchema.safeParse({ initialMs: 400, factor: 1, maxMs: 400 }).success).toBe(true);
    expect(CapabilityRetrySchema.safeParse({ backoff: { initialMs: 400, maxMs: 400 } }).success).toBe(true);
    const refused = BackoffSchema.safeParse({ initialMs: 400, factor: 2, maxMs: 399 });
    expect(refused.error?.issues).toEqual([expect.objectContaining({ code: 'custom', path: ['maxMs'], message: 'backoff.maxMs must be >= backoff.initialMs' })]);
  });

  it('checks the order only when both fields are given (a partial override takes the other from the policy)', () => {
    expect(CapabilityRetrySchema.safeParse({ backoff: { initialMs: 9000 } }).success).toBe(true);
    expect(CapabilityRetrySchema.safeParse({ backoff: { maxMs: 1 } }).success).toBe(true);
  });
});

/** FNV-1a 64 with BigInt, the way the spec writes it: the reference the 16-bit-limb version must equal. */
function fnv1a64Reference(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('fnv1a64', () => {
  it('equals the BigInt FNV-1a 64 on every input, 16 hex digits even when a 16-bit limb starts with zeros', () => {
    const inputs = ['', 'a', 'foobar', 'dig_block', '\u00e9\u4e2d\ud83d\ude00', ...Array.from({ length: 300 }, (_, i) => `seed:${i}`)];
    const hashes = inputs.map(fnv1a64);
    expect(hashes).toEqual(inputs.map(fnv1a64Reference));
    expect(hashes.every((hash) => /^[0-9a-f]{16}$/.test(hash))).toBe(true);
    // The inputs reach limbs below 0x1000 (so the padding of each limb is what keeps the width).
    expect(hashes.some((hash) => [0, 4, 8, 12].some((at) => hash[at] === '0'))).toBe(true);
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
  });
});
