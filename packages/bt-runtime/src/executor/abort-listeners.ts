import { describeError } from '@sinew/executor-contracts';
import type { ActuatorSource } from '../body/instrument.js';
import type { AttemptOptions } from './attempt-result.js';
import { isThenable } from './safe.js';

type Listener = EventListenerOrEventListenerObject;

/**
 * An attempt's AbortController whose signal keeps a runner's abort listeners from taking the process down. Node
 * reports a listener that throws, or returns a promise that rejects, as an uncaught exception: one capability's
 * `signal.addEventListener('abort', async () => { … })` that fails would crash the whole bot. Here every listener
 * added through `addEventListener` or `onabort` runs inside a guard; what it throws or rejects with is counted as a
 * late runner result (`sinew_late_results_dropped_total`) and logged with the step — the step has already ended,
 * or is ending, by the abort that ran the listener. The signal stays a real AbortSignal (`fetch`, `AbortSignal.any`,
 * `events.once` accept it).
 */
export function guardedController<Body extends ActuatorSource>(o: Pick<AttemptOptions<Body>, 'rt' | 'capability' | 'ref'>): AbortController {
  const controller = new AbortController();
  const signal = controller.signal;
  const failed = (error: unknown): void => {
    o.rt.metrics.lateResults.inc({ capability: o.capability.name });
    o.rt.log.warn('abort listener failed', { capability: o.capability.name, stepId: o.ref.stepId, error: describeError(error) });
  };
  const guarded = new WeakMap<object, EventListener>();
  const guard = (listener: Listener): EventListener => {
    let wrapper = guarded.get(listener);
    if (!wrapper) {
      wrapper = function (this: unknown, event: Event) {
        try {
          const result: unknown = typeof listener === 'function' ? listener.call(this, event) : listener.handleEvent(event);
          if (isThenable(result)) result.then(undefined, failed);
        } catch (error) {
          failed(error);
        }
      };
      guarded.set(listener, wrapper);
    }
    return wrapper;
  };
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  let onabort: ((this: AbortSignal, event: Event) => unknown) | null = null;
  Object.defineProperties(signal, {
    addEventListener: { value: (type: string, listener: Listener | null, options?: AddEventListenerOptions | boolean) => listener && add(type, guard(listener), options) },
    removeEventListener: { value: (type: string, listener: Listener | null, options?: EventListenerOptions | boolean) => listener && remove(type, guarded.get(listener) ?? listener, options) },
    onabort: {
      get: () => onabort,
      set: (handler: unknown) => {
        if (onabort) remove('abort', guard(onabort));
        onabort = typeof handler === 'function' ? (handler as typeof onabort) : null;
        if (onabort) add('abort', guard(onabort));
      },
    },
  });
  return controller;
}
