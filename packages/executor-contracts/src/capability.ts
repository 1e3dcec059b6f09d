import type { z } from 'zod';
import type { Blackboard } from './blackboard.js';
import type { ErrorCode } from './codes.js';
import { renderDeclaration, symbolicArgs, toDeclaration, type DeclarationInput, type RenderedDeclarations, type SymbolicArgs } from './declarations.js';
import { formatPredicate, type PredicateTemplate } from './predicates.js';
import { CapabilityRetrySchema, type CapabilityRetry } from './retry.js';
import type { RunnerResult, SafetyLevel } from './schemas.js';

/** What a guard sees: the body, cheaply. Guards are synchronous feasibility gates (V3). */
export interface GuardContext<Body> {
  readonly body: Body;
}

/** What a guard returns: ok, or a coded reason (`precond_missing` with the missing predicates). */
export type GuardResult =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly code: 'guard_failed' | 'precond_missing';
      readonly reason: string;
      /** Missing preconditions as predicates a planner can subgoal, e.g. `has_item:stick`. */
      readonly missing?: readonly string[];
    };

/** What a runner gets for one attempt. */
export interface RunContext<Body> {
  /** The instrumented body: every actuator call on it is seen by the executor's watchdogs. */
  readonly body: Body;
  /** Aborted when a watchdog trips, the step is preempted or the plan is cancelled. */
  readonly signal: AbortSignal;
  /** Per-step scratch space shared by the attempts of one step, read through typed keys (`blackboardKey`). */
  readonly blackboard: Blackboard;
  readonly log: Logger;
  readonly step: StepInfo;
  /** Reports progress that is not an actuator command; resets the stuck watchdog (A4). */
  progress(note?: string): void;
  /** Reports a behavior-tree node transition; counts as progress and is traced. */
  transition(nodePath: string, state: string): void;
  /** Milliseconds from the executor's clock. */
  now(): number;
  /**
   * Waits `ms` on the executor's clock (fake time in tests); resolves early, without throwing, when
   * `signal` aborts. A negative, NaN or over-`MAX_TIMER_MS` delay rejects with a RangeError.
   */
  sleep(ms: number): Promise<void>;
}

/** Which step and attempt a runner is running (plan, step, verb, capability version). */
export interface StepInfo {
  readonly planId: string;
  readonly stepId: string;
  readonly verb: string;
  readonly version: string;
  readonly attempt: number;
}

/** A structured logger (a pino or console logger fits): a message plus fields. */
export interface Logger {
  /** Logs at debug level. */
  debug(message: string, fields?: Record<string, unknown>): void;
  /** Logs at info level. */
  info(message: string, fields?: Record<string, unknown>): void;
  /** Logs at warn level. */
  warn(message: string, fields?: Record<string, unknown>): void;
  /** Logs at error level. */
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A plain async runner: one attempt of a step, given its context and parsed args. */
export type Runner<Body, Args> = (ctx: RunContext<Body>, args: Args) => Promise<RunnerResult>;

/** Anything that can run a capability: a behavior tree (`defineBehavior()` in @sinew/bt-runtime) or an adapter. */
export interface BehaviorRunner<Body, Args> {
  readonly kind: string;
  /** Runs the behavior for one attempt of a step. */
  run(ctx: RunContext<Body>, args: Args): Promise<RunnerResult>;
}

/** The verdict of an acceptance check: ok, or the unmet effects (and why). */
export type AcceptanceResult = { readonly ok: true } | { readonly ok: false; readonly unmet: readonly string[]; readonly reason?: string };

/** Compares the world before and after a step: ok, or the effects left unmet. */
export type AcceptanceFn<World, Args> = (pre: World, post: World, args: Args) => AcceptanceResult;

const UNVERIFIED = Symbol.for('sinew.acceptance.unverified');

/** Marks a capability whose acceptance does not yet read the world; the verb gate fails on it. */
export interface UnverifiedAcceptance {
  readonly [UNVERIFIED]: true;
  readonly reason: string;
}

/** Declares that a capability has no real acceptance check yet (reported by `sinew-verbs check`). */
export function unverified(reason = 'acceptance not written yet'): UnverifiedAcceptance {
  return { [UNVERIFIED]: true, reason };
}

/** Whether an acceptance value is the `unverified` marker. */
export function isUnverified(value: unknown): value is UnverifiedAcceptance {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[UNVERIFIED] === true;
}

/** What `defineCapability` takes. */
export interface CapabilityDefinition<Schema extends z.ZodType, Body, World> {
  /** Canonical snake_case verb. */
  readonly name: string;
  /** Semver `major.minor.patch`. */
  readonly version: string;
  readonly description: string;
  readonly inputSchema: Schema;
  /** V3: whether the step may start now, or the missing preconditions (default: always ok). */
  readonly guard?: (ctx: GuardContext<Body>, args: z.output<Schema>) => GuardResult;
  readonly run?: Runner<Body, z.output<Schema>>;
  readonly behavior?: BehaviorRunner<Body, z.output<Schema>>;
  /** Reads the world that `acceptance` compares before and after each attempt. */
  readonly observe?: (ctx: GuardContext<Body>, args: z.output<Schema>) => World | Promise<World>;
  readonly acceptance: AcceptanceFn<World, z.output<Schema>> | UnverifiedAcceptance;
  readonly safetyLevel?: SafetyLevel;
  /** An atomic step is never aborted by preemption; the preemptor waits for it. */
  readonly atomic?: boolean;
  readonly expectedDurationMs?: number;
  readonly retry?: CapabilityRetry;
  /** Deprecated verbs that resolve to this one (counted and reported). */
  readonly aliases?: readonly string[];
  /**
   * What must hold before a step, built from its args: `(args) => [pred.hasItem(args.item, args.count)]`.
   * For planners and the manifest, which renders it with placeholder args (`has_item:<item>:<count>`).
   * Wire strings are still accepted (deprecated): one that does not parse becomes `custom:<text>`.
   */
  readonly preconds?: DeclarationInput<z.output<Schema>>;
  /** What a step makes hold, built from its args (see `preconds`): `(args) => [pred.gained(args.item, args.count)]`. */
  readonly effects?: DeclarationInput<z.output<Schema>>;
  /**
   * Unknown argument keys are `invalid_args` ("unknown key `cout` — did you mean `count`?"): an object
   * `inputSchema` in zod's default mode is made strict. `false` keeps it as given (zod strips unknown
   * keys); a schema that is `.loose()`/`.passthrough()`/`.catchall()` is always kept as given.
   */
  readonly strictArgs?: boolean;
}

/**
 * A registered capability, normalized: `run` always present. Methods (not function properties) so a
 * capability with specific args is assignable where `unknown` args are expected.
 */
export interface Capability<Body = unknown, World = unknown, Args = unknown> {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Args>;
  readonly safetyLevel: SafetyLevel;
  readonly atomic: boolean;
  readonly expectedDurationMs?: number;
  readonly retry?: CapabilityRetry;
  readonly aliases: readonly string[];
  /** `unverified` marker when acceptance is still a stub, else undefined. */
  readonly unverified?: UnverifiedAcceptance;
  /** `behavior` kind when run by a behavior runner, else `function`. */
  readonly runnerKind: string;
  /** Declared preconditions for these args (placeholders where the manifest renders them symbolically). */
  preconds(args: SymbolicArgs<Args>): readonly PredicateTemplate[];
  /** Declared effects for these args (see `preconds`). */
  effects(args: SymbolicArgs<Args>): readonly PredicateTemplate[];
  /** V3: whether the step may start now, or the missing preconditions. */
  guard(ctx: GuardContext<Body>, args: Args): GuardResult;
  /** Runs one attempt of the step (the runner or the behavior). */
  run(ctx: RunContext<Body>, args: Args): Promise<RunnerResult>;
  /** Reads the world the acceptance check compares (before and after the attempt). */
  observe(ctx: GuardContext<Body>, args: Args): World | Promise<World> | undefined;
  /** Compares the observed world before and after: ok, or the unmet effects. */
  acceptance(pre: World, post: World, args: Args): AcceptanceResult;
}

/** A capability declaration that `defineCapability` or `register` refused: which capability and why (code `invalid_capability`). */
export class CapabilityDefinitionError extends Error {
  override readonly name = 'CapabilityDefinitionError';
  readonly code = 'invalid_capability' as const;
  constructor(
    readonly capability: string,
    message: string,
  ) {
    super(`capability ${capability}: ${message}`);
  }
}

const VERB = /^[a-z][a-z0-9_]*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * Defines a capability: a canonical verb with its schema, guard, runner and acceptance. The type of
 * `args` everywhere is inferred from `inputSchema`. Bad definitions throw at once.
 *
 * @example
 * const chat = defineCapability({
 *   name: 'chat', version: '1.0.0', description: 'say something',
 *   inputSchema: z.object({ message: z.string().min(1) }),
 *   run: async (ctx, { message }) => { (ctx.body as { chat(m: string): void }).chat(message); },
 *   acceptance: unverified('chat has no observable effect'),
 * });
 */
export function defineCapability<Schema extends z.ZodType, Body = unknown, World = unknown>(
  definition: CapabilityDefinition<Schema, Body, World>,
): Capability<Body, World, z.output<Schema>> {
  type Args = z.output<Schema>;
  checkDefinition(definition);
  const { name } = definition;
  const acceptance = definition.acceptance;
  const marker = isUnverified(acceptance) ? acceptance : undefined;
  const behavior = definition.behavior;
  const run: Runner<Body, Args> = definition.run ?? ((ctx, args) => behavior!.run(ctx, args));
  const capability: Capability<Body, World, Args> = {
    name,
    version: definition.version,
    description: definition.description,
    inputSchema: strictSchema(definition.inputSchema, definition.strictArgs ?? true) as z.ZodType<Args>,
    safetyLevel: definition.safetyLevel ?? 'safe',
    atomic: definition.atomic ?? false,
    ...(definition.expectedDurationMs !== undefined ? { expectedDurationMs: definition.expectedDurationMs } : {}),
    ...(definition.retry ? { retry: definition.retry } : {}),
    aliases: [...(definition.aliases ?? [])],
    preconds: toDeclaration(definition.preconds),
    effects: toDeclaration(definition.effects),
    ...(marker ? { unverified: marker } : {}),
    runnerKind: behavior ? behavior.kind : 'function',
    guard: definition.guard ?? (() => ({ ok: true })),
    run,
    observe: definition.observe ?? (() => undefined),
    acceptance: marker ? () => ({ ok: true }) : (acceptance as AcceptanceFn<World, Args>),
  };
  // A declaration that cannot render over placeholder args fails here, not when a planner reads the manifest.
  renderDeclarations(capability);
  return capability;
}

/**
 * A capability's preconds and effects in the wire form, rendered over symbolic args (each input field a
 * placeholder named after it, camelCase as snake_case): what the manifest and tool definitions show.
 * A declaration that throws or returns a non-predicate is a CapabilityDefinitionError.
 */
export function renderDeclarations<Args>(capability: Capability<unknown, unknown, Args>): RenderedDeclarations {
  const args = symbolicArgs(capability.inputSchema) as SymbolicArgs<Args>;
  const render = (field: 'preconds' | 'effects'): string[] => {
    try {
      return renderDeclaration((symbolic) => capability[field](symbolic), args);
    } catch (error) {
      throw new CapabilityDefinitionError(capability.name, `${field} over placeholder args: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return { preconds: render('preconds'), effects: render('effects') };
}

/** Whether a value is a zod (v4) schema: JavaScript callers can pass anything. */
export function isZodSchema(value: unknown): value is z.ZodType {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** An object schema in zod's default (strip) mode made strict; anything else as given. */
function strictSchema(schema: z.ZodType, strict: boolean): z.ZodType {
  const def = schema._zod.def as { type: string; catchall?: unknown };
  if (!strict || def.type !== 'object' || def.catchall !== undefined) return schema;
  return (schema as unknown as z.ZodObject).strict();
}

/**
 * Every field a JavaScript caller can get wrong, checked at definition time so a broken capability
 * never reaches a registry: each problem is a CapabilityDefinitionError naming the field.
 */
function checkDefinition(definition: unknown): void {
  if (typeof definition !== 'object' || definition === null) throw new CapabilityDefinitionError('?', `expected a definition object, received ${received(definition)}`);
  const d = definition as Record<string, unknown>;
  const name = typeof d.name === 'string' ? d.name : '?';
  const fail = (message: string): never => {
    throw new CapabilityDefinitionError(name, message);
  };
  if (typeof d.name !== 'string' || !VERB.test(d.name)) fail(`name: expected a snake_case verb like \`dig_block\`, received ${received(d.name)}`);
  if (typeof d.version !== 'string' || !SEMVER.test(d.version)) fail(`version: ${received(d.version)} is not semver (major.minor.patch)`);
  if (typeof d.description !== 'string' || !d.description.trim()) fail(`description: expected a non-empty string, received ${received(d.description)}`);
  if (!isZodSchema(d.inputSchema)) fail(`inputSchema: expected a zod schema (zod 4), received ${received(d.inputSchema)}`);
  if ((d.run === undefined) === (d.behavior === undefined)) fail('give exactly one of `run` or `behavior`');
  if (d.run !== undefined && typeof d.run !== 'function') fail(`run: expected a function, received ${received(d.run)}`);
  const behavior = d.behavior as { run?: unknown; kind?: unknown } | undefined;
  if (behavior !== undefined && (typeof behavior !== 'object' || behavior === null || typeof behavior.run !== 'function' || typeof behavior.kind !== 'string')) {
    fail(`behavior: expected a behavior runner ({ kind, run }), received ${received(behavior)}`);
  }
  if (!isUnverified(d.acceptance) && typeof d.acceptance !== 'function') {
    fail(`acceptance: expected a function (pre, post, args) => AcceptanceResult or unverified(reason), received ${received(d.acceptance)}`);
  }
  for (const field of ['guard', 'observe'] as const) {
    if (d[field] !== undefined && typeof d[field] !== 'function') fail(`${field}: expected a function, received ${received(d[field])}`);
  }
  checkOptions(name, d);
}

/** The optional, non-function fields of a definition. */
function checkOptions(name: string, d: Record<string, unknown>): void {
  const fail = (message: string): never => {
    throw new CapabilityDefinitionError(name, message);
  };
  if (d.expectedDurationMs !== undefined && !(typeof d.expectedDurationMs === 'number' && d.expectedDurationMs > 0)) fail('expectedDurationMs must be > 0');
  if (d.strictArgs !== undefined && typeof d.strictArgs !== 'boolean') fail(`strictArgs: expected a boolean, received ${received(d.strictArgs)}`);
  checkRetry(name, d.retry);
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === 'string');
  if (d.aliases !== undefined && !strings(d.aliases)) fail('aliases: expected an array of strings');
  for (const field of ['preconds', 'effects'] as const) {
    const value = d[field];
    if (value !== undefined && typeof value !== 'function' && !strings(value)) fail(`${field}: expected a function (args) => predicates (pred.*), or an array of predicate strings`);
  }
  for (const alias of (d.aliases as string[] | undefined) ?? []) {
    if (!VERB.test(alias) || alias === name) fail(`bad alias "${alias}"`);
  }
}

/** A retry policy is checked when the capability is defined (a NaN backoff would be a timer that never fires). */
function checkRetry(name: string, retry: unknown): void {
  if (retry === undefined) return;
  if (typeof retry !== 'object' || retry === null || Array.isArray(retry)) throw new CapabilityDefinitionError(name, `retry: expected an object, received ${received(retry)}`);
  const parsed = CapabilityRetrySchema.safeParse(retry);
  if (parsed.success) return;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String);
  const value = path.reduce<unknown>((at, key) => (typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[key] : undefined), retry);
  const field = ['retry', ...path].join('.');
  const detail =
    issue.code === 'unrecognized_keys'
      ? `unknown key ${issue.keys.map((key) => `\`${key}\``).join(', ')}`
      : `${issue.message}, received ${received(value)}`;
  throw new CapabilityDefinitionError(name, `${field}: ${detail}`);
}

function received(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (Array.isArray(value)) return 'an array';
  return value === null ? 'null' : typeof value;
}

/**
 * Binds `defineCapability` to one body and world type, so runners and acceptance are typed without
 * annotations.
 *
 * @example
 * const defineBotCapability = capabilityFactory<MyBot, MyWorld>();
 */
export function capabilityFactory<Body, World>() {
  return <Schema extends z.ZodType>(definition: CapabilityDefinition<Schema, Body, World>) =>
    defineCapability<Schema, Body, World>(definition);
}

/** A passing guard. */
export const guardOk: GuardResult = { ok: true };

/** Wire strings of predicates given typed (`pred.hasItem('stick', 2)`) or already as strings. */
function wire(predicates: readonly (string | PredicateTemplate)[]): string[] {
  return predicates.map((predicate) => (typeof predicate === 'string' ? predicate : formatPredicate(predicate)));
}

/** A guard refusal that names the missing preconditions so a planner can subgoal them. */
export function precondMissing(predicates: readonly (string | PredicateTemplate)[], reason?: string): GuardResult {
  const missing = wire(predicates);
  return { ok: false, code: 'precond_missing', reason: reason ?? `missing: ${missing.join(', ')}`, missing };
}

/** A plain guard refusal. */
export function guardFailed(reason: string): GuardResult {
  return { ok: false, code: 'guard_failed', reason };
}

/** A passing acceptance check. */
export const accepted: AcceptanceResult = { ok: true };

/** A failing acceptance check naming the effects that did not happen. */
export function effectsUnmet(predicates: readonly (string | PredicateTemplate)[], reason?: string): AcceptanceResult {
  const unmet = wire(predicates);
  return reason === undefined ? { ok: false, unmet } : { ok: false, unmet, reason };
}
