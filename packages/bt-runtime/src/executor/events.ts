import { describeError, type Logger } from '@sinew/executor-contracts';
import type { ExecutorEventName, ExecutorEvents } from './types.js';

type Listener = (payload: never) => void;

/** The executor's typed event listeners; a listener that throws is logged, never propagated. */
export class EventHub {
  readonly #listeners = new Map<ExecutorEventName, Set<Listener>>();
  constructor(private readonly log: Logger) {}

  on<E extends ExecutorEventName>(event: E, listener: (payload: ExecutorEvents[E]) => void): () => void {
    let set = this.#listeners.get(event);
    if (!set) {
      set = new Set();
      this.#listeners.set(event, set);
    }
    set.add(listener as Listener);
    return () => set.delete(listener as Listener);
  }

  /** Whether someone listens: payloads of hot events are only built when this is true. */
  has(event: ExecutorEventName): boolean {
    return (this.#listeners.get(event)?.size ?? 0) > 0;
  }

  emit<E extends ExecutorEventName>(event: E, payload: ExecutorEvents[E]): void {
    const set = this.#listeners.get(event);
    if (!set) return;
    for (const listener of [...set]) {
      try {
        (listener as (p: ExecutorEvents[E]) => void)(payload);
      } catch (error) {
        this.log.error('executor event listener threw', { event, error: describeError(error) });
      }
    }
  }
}
