import { describeError, type Logger } from '@sinew/executor-contracts';
import type { ExecutorEventName, ExecutorEvents } from './types.js';

type Listener = (payload: never) => void;

/**
 * The executor's typed event listeners; a listener that throws is logged, never propagated. Each event's
 * listeners are an array replaced on (un)subscribe, so `emit` iterates without copying and a listener
 * added or removed during an emit takes effect from the next one.
 */
export class EventHub {
  readonly #listeners = new Map<ExecutorEventName, readonly Listener[]>();
  constructor(private readonly log: Logger) {}

  on<E extends ExecutorEventName>(event: E, listener: (payload: ExecutorEvents[E]) => void): () => void {
    const added = listener as Listener;
    const current = this.#listeners.get(event) ?? [];
    // A listener subscribed twice is called once, and one unsubscribe removes it (as a Set would).
    if (!current.includes(added)) this.#listeners.set(event, [...current, added]);
    return () => {
      const rest = (this.#listeners.get(event) ?? []).filter((l) => l !== added);
      if (rest.length > 0) this.#listeners.set(event, rest);
      else this.#listeners.delete(event);
    };
  }

  /** Whether someone listens: payloads of hot events are only built when this is true. */
  has(event: ExecutorEventName): boolean {
    return this.#listeners.has(event);
  }

  emit<E extends ExecutorEventName>(event: E, payload: ExecutorEvents[E]): void {
    const listeners = this.#listeners.get(event);
    if (listeners === undefined) return;
    for (const listener of listeners) {
      try {
        (listener as (p: ExecutorEvents[E]) => void)(payload);
      } catch (error) {
        this.log.error('executor event listener threw', { event, error: describeError(error) });
      }
    }
  }
}
