import type { PredicateEvaluator } from '../executor/types.js';

/** One call that moves the body: the executor's pulse for TTFA and stuck detection. */
export interface ActuatorCommand {
  /** A bounded name, e.g. the method name `dig` or `setControlState` (used as a metric label). */
  readonly command: string;
  /** A short human-readable summary of the arguments, for the provenance trace (never a label). */
  readonly detail?: string;
  /** The lease of the per-attempt view the command was issued through (absent for calls on the body itself). */
  readonly issuer?: ActuatorLease;
}

/** What a per-attempt body view answers to (see `leasedView`): the attempt that owns it. */
export interface ActuatorLease {
  /** True once the attempt is over: its view then refuses commands. */
  readonly expired: boolean;
  /** Told of each command refused because the lease expired. */
  stale(command: string): void;
}

/** A command issued through the view of an attempt that is already over: refused, never sent to the body. */
export class StaleActuationError extends Error {
  override readonly name = 'StaleActuationError';
  readonly code = 'stale_actuation' as const;
  constructor(readonly command: string) {
    super(`"${command}" refused: issued through the body view of an attempt that is already over`);
  }
}

/** Sinew's signals on a body, kept in one namespace (`body.sinew`) so the body's own API stays the user's. */
export interface BodySignals {
  /** Subscribes to actuator commands; returns the unsubscribe function. */
  onActuate(listener: (command: ActuatorCommand) => void): () => void;
  /** Subscribes to the body going away for good (server closed, kicked, connection error); returns the unsubscribe function. */
  onDisconnect?(listener: (info: { readonly reason: string }) => void): () => void;
  /** Checks plan steps' preconds/effects on this body when the executor is given no `predicates` of its own. */
  readonly predicates?: PredicateEvaluator<never>;
}

/** A body the executor can watch: its `sinew` namespace reports every actuator command it performs. */
export interface ActuatorSource {
  readonly sinew: BodySignals;
}

/** Options of `instrumentBody`: which methods count as actuator commands. */
export interface InstrumentOptions {
  /** Builds the `detail` of a call; default: the primitive args, comma-separated, at most 120 chars. */
  readonly describe?: (method: string, args: readonly unknown[]) => string | undefined;
  /** The command name reported for a method; default: the method path itself (`pathfinder.setGoal`). */
  readonly commandName?: (method: string) => string;
  /** Skip method paths that do not exist (yet) instead of throwing. Default false. */
  readonly ignoreMissing?: boolean;
}

/** The body could not be instrumented (a method to wrap is missing), with its code. */
export class InstrumentError extends Error {
  override readonly name = 'InstrumentError';
  readonly code = 'missing_method' as const;
  constructor(readonly method: string) {
    super(`cannot instrument "${method}": it is not a function on the target`);
  }
}

const HUB = Symbol.for('sinew.actuator-hub');

interface Hub {
  readonly listeners: Set<(command: ActuatorCommand) => void>;
  /** The last listener seen alone in `listeners` (a body watched by one executor: its commands need no copy of the set). */
  alone?: ((command: ActuatorCommand) => void) | undefined;
  /** Patched method paths → their command names. */
  readonly patched: Map<string, string>;
  /** Dotted prefixes of patched paths (`pathfinder` for `pathfinder.setGoal`): views wrap these objects too. */
  readonly prefixes: Set<string>;
  /** The lease whose view is calling right now (set synchronously around the call). */
  issuer: ActuatorLease | undefined;
  /** Wrappers views hand out, by method path (shared by every view of this body). */
  readonly members: Map<string, { readonly source: unknown; readonly owner: object; readonly wrapped: unknown }>;
}

/** Default call summary: primitive args only (objects are summarised by their kind), capped at 120 chars. */
function describeArgs(args: readonly unknown[]): string | undefined {
  if (args.length === 0) return undefined;
  const parts = args.map((arg) => {
    if (arg === null || arg === undefined) return String(arg);
    switch (typeof arg) {
      case 'string':
        return JSON.stringify(arg.length > 40 ? `${arg.slice(0, 40)}…` : arg);
      case 'number':
      case 'boolean':
      case 'bigint':
        return String(arg);
      case 'function':
        return 'fn';
      default: {
        const name = (arg as { constructor?: { name?: string } }).constructor?.name;
        return name && name !== 'Object' ? name : 'object';
      }
    }
  });
  const text = parts.join(', ');
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

function hubOf(target: object): Hub {
  const existing = (target as Record<symbol, Hub | undefined>)[HUB];
  if (existing) return existing;
  const hub: Hub = { listeners: new Set(), patched: new Map(), prefixes: new Set(), issuer: undefined, members: new Map() };
  const signals = signalsOf(target);
  Object.defineProperty(target, HUB, { value: hub, enumerable: false });
  signals.onActuate = (listener: (command: ActuatorCommand) => void): (() => void) => {
    hub.listeners.add(listener);
    return () => {
      if (hub.alone === listener) hub.alone = undefined;
      return hub.listeners.delete(listener);
    };
  };
  return hub;
}

/** The target's `sinew` namespace: the one it already has (a body may bring `onDisconnect`), else a new hidden one. */
function signalsOf(target: object): { onActuate?: BodySignals['onActuate'] } {
  const existing: unknown = (target as { sinew?: unknown }).sinew;
  if (typeof existing === 'object' && existing !== null) return existing;
  if (existing !== undefined) throw new TypeError(`cannot instrument: the target's "sinew" property is a ${typeof existing}, not Sinew's namespace`);
  const signals = {};
  Object.defineProperty(target, 'sinew', { value: signals, enumerable: false, configurable: true });
  return signals;
}

/** Reports an actuator command on a target prepared by `instrumentMethods` (for moves that are not method calls). */
export function emitActuatorCommand(target: ActuatorSource, command: ActuatorCommand): void {
  const hub = (target as unknown as Record<symbol, Hub | undefined>)[HUB];
  if (!hub) throw new TypeError('emitActuatorCommand: target was not prepared by instrumentMethods');
  for (const listener of [...hub.listeners]) listener(command);
}

/** The command names `instrumentMethods` reports for `target` (empty for a body it did not prepare). */
export function actuatorCommandNames(target: object): string[] {
  const hub = (target as Record<symbol, Hub | undefined>)[HUB];
  return hub ? [...new Set(hub.patched.values())] : [];
}

/**
 * Patches the named methods of `target` in place (dotted paths reach nested objects, e.g.
 * `pathfinder.setGoal`) so each call first emits an `ActuatorCommand`, and adds `sinew.onActuate`. Returns
 * the same object: the user keeps calling the plain API. Instrumenting twice never double-reports.
 *
 * @example
 * const body = instrumentMethods(bot, ['dig', 'placeBlock', 'setControlState', 'pathfinder.setGoal']);
 * body.sinew.onActuate((c) => console.log(c.command));
 */
export function instrumentMethods<T extends object>(
  target: T,
  methods: readonly string[],
  options: InstrumentOptions = {},
): T & ActuatorSource {
  const hub = hubOf(target);
  const describe = options.describe ?? ((_method: string, args: readonly unknown[]) => describeArgs(args));
  for (const method of methods) {
    if (hub.patched.has(method)) continue;
    const segments = method.split('.');
    const key = segments.pop()!;
    let owner: unknown = target;
    for (const segment of segments) owner = owner === null || owner === undefined ? undefined : (owner as Record<string, unknown>)[segment];
    const original = owner === null || typeof owner !== 'object' && typeof owner !== 'function' ? undefined : (owner as Record<string, unknown>)[key];
    if (typeof original !== 'function') {
      if (options.ignoreMissing) continue;
      throw new InstrumentError(method);
    }
    const command = options.commandName?.(method) ?? method;
    const listeners = hub.listeners;
    const patched = function (this: unknown, ...args: unknown[]): unknown {
      if (listeners.size > 0) {
        // Emitted before the call so a command that throws is still seen (it did try to move the body).
        let detail: string | undefined;
        try {
          detail = describe(method, args);
        } catch {
          detail = undefined;
        }
        const issuer = hub.issuer;
        const event: ActuatorCommand = issuer === undefined ? (detail === undefined ? { command } : { command, detail }) : detail === undefined ? { command, issuer } : { command, detail, issuer };
        // One listener (one executor): called as the copy's only member would be, without the copy.
        if (listeners.size === 1) notify(aloneIn(hub), event);
        else for (const listener of [...listeners]) notify(listener, event);
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
    Object.defineProperty(patched, 'name', { value: (original as { name: string }).name || key });
    (owner as Record<string, unknown>)[key] = patched;
    hub.patched.set(method, command);
    for (let i = 1; i <= segments.length; i += 1) hub.prefixes.add(segments.slice(0, i).join('.'));
  }
  return target as T & ActuatorSource;
}

/** The one member of `hub.listeners` (its size is 1), remembered so a command finds it with one `has`. */
function aloneIn(hub: Hub): (command: ActuatorCommand) => void {
  const known = hub.alone;
  if (known !== undefined && hub.listeners.has(known)) return known;
  const [only] = hub.listeners;
  return (hub.alone = only!);
}

function notify(listener: (command: ActuatorCommand) => void, event: ActuatorCommand): void {
  try {
    listener(event);
  } catch {
    // A listener must never break the body's own call.
  }
}

/** Read through a view proxy, gives the view's lease (how a shared wrapper knows which attempt called it). */
const LEASE = Symbol('sinew.lease');

/**
 * A per-attempt view of an instrumented body: calls through it are attributed to `lease` (so an
 * abandoned runner's commands never count for a later attempt) and refused once the lease expired:
 * not sent to the body, counted, and answered with a promise rejected with StaleActuationError. Other properties read through to the body; its
 * functions are bound to the body. A body not prepared by `instrumentMethods` is returned as is.
 * A method taken off the view and called detached (`const dig = body.dig; dig()`) counts as a
 * call on the body itself.
 */
export function leasedView<T extends object>(target: T, lease: ActuatorLease): T {
  const hub = (target as Record<symbol, Hub | undefined>)[HUB];
  return hub ? new Proxy(target, new ViewHandler(hub, lease, '')) : target;
}

/** One per view (a class, so a view costs one object and one Proxy); method wrappers are shared by all views of a body. */
class ViewHandler<T extends object> implements ProxyHandler<T> {
  #nested: Map<string, { readonly source: object; readonly view: object }> | undefined;
  constructor(
    private readonly hub: Hub,
    private readonly lease: ActuatorLease,
    private readonly prefix: string,
  ) {}

  get(object: T, key: string | symbol): unknown {
    if (key === LEASE) return this.lease;
    const value: unknown = Reflect.get(object, key);
    if (typeof key !== 'string' || value === null || (typeof value !== 'function' && typeof value !== 'object')) return value;
    const path = this.prefix === '' ? key : `${this.prefix}${key}`;
    if (typeof value === 'function') return sharedMember(this.hub, object, key, path, value as (...a: unknown[]) => unknown);
    if (!this.hub.prefixes.has(path) || isFrozenProperty(object, key)) return value;
    const cached = (this.#nested ??= new Map()).get(key);
    if (cached?.source === value) return cached.view;
    const view = new Proxy(value as object, new ViewHandler(this.hub, this.lease, `${path}.`));
    this.#nested.set(key, { source: value as object, view });
    return view;
  }
}

/** A proxy must return a frozen property as it is. */
function isFrozenProperty(owner: object, key: string): boolean {
  const descriptor = Reflect.getOwnPropertyDescriptor(owner, key);
  return descriptor !== undefined && !descriptor.configurable && !descriptor.writable;
}

/** The wrapper views return for a function (made once per body and method, kept while the method is the same). */
function sharedMember(hub: Hub, owner: object, key: string, path: string, value: (...a: unknown[]) => unknown): unknown {
  const cached = hub.members.get(path);
  if (cached?.source === value && cached.owner === owner) return cached.wrapped;
  if (isFrozenProperty(owner, key)) return value;
  const command = hub.patched.get(path);
  const wrapped = command === undefined ? value.bind(owner) : leasedMethod(hub, owner, command, value);
  hub.members.set(path, { source: value, owner, wrapped });
  return wrapped;
}

function leasedMethod(hub: Hub, owner: object, command: string, method: (...a: unknown[]) => unknown): (...args: unknown[]) => unknown {
  return function leased(this: unknown, ...args: unknown[]): unknown {
    const lease = typeof this === 'object' && this !== null ? ((this as Record<symbol, unknown>)[LEASE] as ActuatorLease | undefined) : undefined;
    if (lease === undefined) return method.apply(owner, args);
    if (lease.expired) {
      lease.stale(command);
      // Refused without a throw (a stop call in an abort listener must not crash the process); a runner that
      // awaits the command still gets the error and ends.
      const refused = Promise.reject(new StaleActuationError(command));
      refused.catch(() => undefined);
      return refused;
    }
    const previous = hub.issuer;
    hub.issuer = lease;
    try {
      return method.apply(owner, args);
    } finally {
      hub.issuer = previous;
    }
  };
}
