import { describeError } from '@sinew/executor-contracts';

const MAX_DESCRIPTION = 2000;

/**
 * A description of anything user code threw or returned that never throws itself: an Error whose
 * `message` getter throws, a revoked Proxy or an object without a prototype all end as text.
 */
export function safeDescribe(value: unknown): string {
  let text: string;
  try {
    text = describeError(value);
    if (typeof text !== 'string') text = String(text);
  } catch {
    try {
      text = Object.prototype.toString.call(value);
    } catch {
      text = 'an unreadable value';
    }
  }
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

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
