/** Reads `value[key]` from user code; a throwing getter or revoked Proxy reads as undefined. */
export function safeRead(value: unknown, key: string): unknown {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

/** Whether a user value is a thenable; a throwing `then` getter counts as not (the value is then read as is). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof safeRead(value, 'then') === 'function';
}
