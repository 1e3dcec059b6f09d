declare const valueType: unique symbol;

/**
 * A typed name for a blackboard entry: the value type travels with the key, so `get` needs no cast.
 * Two keys with the same name address the same entry; name keys `<capability>.<what>`.
 */
export interface BlackboardKey<T> {
  readonly name: string;
  // Phantom and invariant in T: a `BlackboardKey<number>` is not a `BlackboardKey<unknown>`.
  /** Type-only marker carrying `T` (never set at run time). */
  readonly [valueType]?: (value: T) => T;
}

/** Per-step scratch space shared by the attempts of one step, read and written through typed keys. */
export interface Blackboard {
  /** The value stored under `key`, or undefined. */
  get<T>(key: BlackboardKey<T>): T | undefined;
  /** Stores `value` under `key` (typed by the key). */
  set<T>(key: BlackboardKey<T>, value: T): void;
  /** Whether a value is stored under `key`. */
  has<T>(key: BlackboardKey<T>): boolean;
  /** Removes the value under `key`; true when there was one. */
  delete<T>(key: BlackboardKey<T>): boolean;
}

const KEY_NAME = /^[A-Za-z][\w-]*(?:\.[\w-]+)*$/;

/**
 * Declares a typed blackboard key; a bad name throws at once (a TypeError naming it).
 *
 * @example
 * const TARGET = blackboardKey<Vec3>('gather.target');
 * ctx.blackboard.set(TARGET, block.position);
 * const target = ctx.blackboard.get(TARGET); // Vec3 | undefined
 */
export function blackboardKey<T>(name: string): BlackboardKey<T> {
  if (typeof name !== 'string' || !KEY_NAME.test(name)) {
    throw new TypeError(`blackboardKey(name): expected a dotted name like "gather.target", received ${JSON.stringify(name) ?? String(name)}`);
  }
  return Object.freeze({ name });
}

/** A blackboard backed by a Map keyed by key name (what the executor gives each step). */
export function createBlackboard(): Blackboard {
  const entries = new Map<string, unknown>();
  return {
    get: <T>(key: BlackboardKey<T>) => entries.get(key.name) as T | undefined,
    set: (key, value) => void entries.set(key.name, value),
    has: (key) => entries.has(key.name),
    delete: (key) => entries.delete(key.name),
  };
}
