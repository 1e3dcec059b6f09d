import { z } from 'zod';
import { CapabilityDefinitionError, isZodSchema, renderDeclarations, type Capability } from './capability.js';
import { SafetyLevelSchema } from './schemas.js';
import { compareVersions, parseRange, parseVersion } from './semver.js';

const REGISTRY_BRAND = Symbol.for('sinew.capability-registry');

/** A registry refusal (a duplicate `name@version`, a bad alias or range), with its code. */
export class RegistryError extends Error {
  override readonly name = 'RegistryError';
  constructor(
    readonly code: 'duplicate_capability' | 'alias_conflict' | 'bad_version' | 'bad_canary',
    message: string,
  ) {
    super(message);
  }
}

/** What resolving a verb gives: the capability (and the alias used), or a coded failure. */
export type Resolution<Body> =
  | { readonly ok: true; readonly capability: Capability<Body>; readonly alias?: string }
  | { readonly ok: false; readonly reason: 'unknown_verb' | 'no_matching_version' | 'bad_range'; readonly message: string; readonly available: readonly string[] };

/** One entry of `manifest()`: a version of a verb, with its input as JSON Schema. */
export const ManifestVersionSchema = z.object({
  version: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  safetyLevel: SafetyLevelSchema,
  atomic: z.boolean(),
  expectedDurationMs: z.number().optional(),
  /** Declared preconditions in the wire form, args as placeholders (`has_item:<item>:<count>`). */
  preconds: z.array(z.string()),
  /** Declared effects in the wire form, args as placeholders (`has_item:<item>:+<count>`). */
  effects: z.array(z.string()),
  acceptance: z.enum(['verified', 'unverified']),
  unverifiedReason: z.string().optional(),
  runner: z.string(),
});

/** The registry as data: what the verb gate and other tools read. */
export const ManifestSchema = z.object({
  manifestVersion: z.literal(1),
  capabilities: z.array(
    z.object({ name: z.string(), aliases: z.array(z.string()), versions: z.array(ManifestVersionSchema) }),
  ),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** How a canary version is trialled beside the stable one (seed 004: shadow-run, promote on SLA). */
export const CanaryOptionsSchema = z.strictObject({
  /** `split`: the canary runs its share of steps; `shadow`: it never acts — its guard is judged beside every stable step. */
  mode: z.enum(['split', 'shadow']).default('split'),
  /** Share of the verb's steps (without a version range) that run the canary, 0 < share < 1. */
  share: z.number().gt(0).lt(1).default(0.1),
  /** Canary steps before the SLA verdict (promote or demote). */
  minSteps: z.number().int().positive().default(20),
  /** Slack on the p95 latencies: 0.1 means up to 10 % slower than the stable version is still "no worse". */
  latencyTolerance: z.number().min(0).max(10).default(0.1),
});
export type CanaryOptions = z.output<typeof CanaryOptionsSchema>;
export type CanaryOptionsInput = z.input<typeof CanaryOptionsSchema>;

/** A verb's canary under trial: the new version and its options. */
export interface Canary<Body> {
  readonly capability: Capability<Body>;
  readonly options: CanaryOptions;
}

/** A tool an LLM can call: one per verb, the version it resolves to by default. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
  /** What must hold before, in the wire form with args as placeholders (`has_item:<item>:1`); the registry always fills it. */
  readonly preconds?: readonly string[];
  /** What holds after, in the same form (`equipped:<destination>=<item>`). */
  readonly effects?: readonly string[];
}

/**
 * The table of contents between plan and body: canonical verbs → versioned capabilities.
 *
 * @example
 * const registry = new CapabilityRegistry().register(chat);
 * registry.resolve('chat', '^1');
 */
export class CapabilityRegistry<Body = unknown> {
  readonly [REGISTRY_BRAND] = true;
  readonly #versions = new Map<string, Capability<Body>[]>();
  readonly #aliases = new Map<string, string>();
  readonly #aliasUses = new Map<string, number>();
  readonly #listeners = new Set<(capability: Capability<Body>) => void>();
  readonly #canaries = new Map<string, Canary<Body>>();
  /** Demoted canaries: still resolvable by an explicit range, never by default. */
  readonly #retired = new Set<Capability<Body>>();
  /** What each canonical verb resolves to without a range (one frozen answer per verb, not one per step); emptied by every change. */
  readonly #defaults = new Map<string, Resolution<Body>>();

  /** True for any CapabilityRegistry, across package copies and module formats. */
  static isRegistry(value: unknown): value is CapabilityRegistry {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[REGISTRY_BRAND] === true;
  }

  /** Registers a capability; a duplicate `name@version` or an alias clash throws a RegistryError. */
  register<World, Args>(capability: Capability<Body, World, Args>): this {
    const cap = capability as unknown as Capability<Body>;
    checkCapabilityShape(cap);
    if (!parseVersion(cap.version)) throw new RegistryError('bad_version', `${cap.name}: "${cap.version}" is not semver`);
    const list = this.#versions.get(cap.name) ?? [];
    if (list.some((c) => c.version === cap.version)) {
      throw new RegistryError('duplicate_capability', `${cap.name}@${cap.version} is already registered`);
    }
    if (this.#aliases.has(cap.name)) {
      throw new RegistryError('alias_conflict', `${cap.name} is already an alias of ${this.#aliases.get(cap.name)}`);
    }
    for (const alias of cap.aliases) {
      const owner = this.#aliases.get(alias);
      if (this.#versions.has(alias) || (owner !== undefined && owner !== cap.name)) {
        throw new RegistryError('alias_conflict', `alias ${alias} of ${cap.name} is already taken by ${owner ?? alias}`);
      }
    }
    for (const alias of cap.aliases) this.#aliases.set(alias, cap.name);
    list.push(cap);
    list.sort((a, b) => compareVersions(parseVersion(b.version)!, parseVersion(a.version)!));
    this.#versions.set(cap.name, list);
    this.#defaults.clear();
    for (const listener of this.#listeners) listener(cap);
    return this;
  }

  /**
   * Registers a new version of a registered verb as its canary: by default the verb still resolves to
   * the stable version; an executor runs `share` of its steps on the canary and promotes or demotes it
   * on SLA. The canary must be higher than the stable version; one canary per verb.
   */
  registerCanary<World, Args>(capability: Capability<Body, World, Args>, options: CanaryOptionsInput = {}): this {
    const cap = capability as unknown as Capability<Body>;
    const parsed = CanaryOptionsSchema.safeParse(options);
    if (!parsed.success) throw new RegistryError('bad_canary', `${cap?.name}: canary options: ${z.prettifyError(parsed.error)}`);
    const stable = typeof cap?.name === 'string' ? this.get(cap.name) : undefined;
    if (!stable) throw new RegistryError('bad_canary', `${cap?.name}: a canary needs a stable version registered first`);
    if (this.#canaries.has(cap.name)) throw new RegistryError('bad_canary', `${cap.name} already has a canary (${this.#canaries.get(cap.name)!.capability.version})`);
    const version = parseVersion(cap.version);
    if (!version || compareVersions(version, parseVersion(stable.version)!) <= 0) throw new RegistryError('bad_canary', `${cap.name}: canary ${cap.version} must be higher than the stable ${stable.version}`);
    // Recorded first so registration listeners already see it as the canary.
    this.#canaries.set(cap.name, { capability: cap, options: parsed.data });
    try {
      return this.register(cap);
    } catch (error) {
      this.#canaries.delete(cap.name);
      this.#defaults.clear();
      throw error;
    }
  }

  /** The verb's canary under trial, if any. */
  canary(verb: string): Canary<Body> | undefined {
    return this.#canaries.get(verb);
  }

  /** Ends the trial: the canary becomes the version the verb resolves to. */
  promote(verb: string): Capability<Body> | undefined {
    const canary = this.#canaries.get(verb);
    this.#canaries.delete(verb);
    this.#defaults.clear();
    return canary?.capability;
  }

  /** Ends the trial the other way: the canary is retired (reachable only by an explicit version range). */
  demote(verb: string): Capability<Body> | undefined {
    const canary = this.#canaries.get(verb);
    if (canary) this.#retired.add(canary.capability);
    this.#canaries.delete(verb);
    this.#defaults.clear();
    return canary?.capability;
  }

  /** Calls `listener` with every capability registered from now on; returns the unsubscribe function. */
  onRegister(listener: (capability: Capability<Body>) => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Registers several capabilities in order (any args and world types; methods are checked bivariantly). */
  registerAll(capabilities: Iterable<Capability<Body, unknown, unknown>>): this {
    for (const capability of capabilities) this.register(capability as Capability<Body>);
    return this;
  }

  /** Canonical verbs, sorted. */
  verbs(): string[] {
    return [...this.#versions.keys()].sort();
  }

  /** Deprecated alias → canonical verb. */
  aliases(): ReadonlyMap<string, string> {
    return new Map([...this.#aliases].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** How often each deprecated alias was resolved. */
  aliasUses(): ReadonlyMap<string, number> {
    return new Map(this.#aliasUses);
  }

  /** Whether a verb (or a deprecated alias) is known. */
  has(verb: string): boolean {
    return this.#versions.has(verb) || this.#aliases.has(verb);
  }

  /** All registered capabilities, verbs sorted, highest version first. */
  capabilities(): Capability<Body>[] {
    return this.verbs().flatMap((verb) => this.#versions.get(verb) ?? []);
  }

  /** Resolves a verb or alias to a capability; the highest version satisfying `range` (default: highest). */
  resolve(verb: string, range?: string): Resolution<Body> {
    if (range === undefined) {
      const known = this.#defaults.get(verb);
      if (known !== undefined) return known;
    }
    const canonical = this.#versions.has(verb) ? verb : this.#aliases.get(verb);
    const list = canonical === undefined ? undefined : this.#versions.get(canonical);
    if (canonical === undefined || !list) {
      return { ok: false, reason: 'unknown_verb', message: `no capability provides "${verb}"`, available: this.verbs() };
    }
    const canary = this.#canaries.get(canonical)?.capability;
    let capability = this.#defaultVersion(canonical);
    if (range !== undefined) {
      const matches = parseRange(range);
      if (!matches) return { ok: false, reason: 'bad_range', message: `"${range}" is not a semver range`, available: list.map((c) => c.version) };
      const found = list.find((c) => matches(c.version) && c !== canary && !this.#retired.has(c)) ?? list.find((c) => matches(c.version));
      if (!found) {
        return {
          ok: false,
          reason: 'no_matching_version',
          message: `no version of ${canonical} satisfies ${range} (have ${list.map((c) => c.version).join(', ')})`,
          available: list.map((c) => c.version),
        };
      }
      capability = found;
    }
    if (canonical !== verb) {
      this.#aliasUses.set(verb, (this.#aliasUses.get(verb) ?? 0) + 1);
      return { ok: true, capability, alias: verb };
    }
    if (range !== undefined) return { ok: true, capability };
    const resolved: Resolution<Body> = Object.freeze({ ok: true, capability });
    this.#defaults.set(verb, resolved);
    return resolved;
  }

  /** What a verb resolves to without a range: the highest version that is neither on trial nor retired. */
  #defaultVersion(canonical: string): Capability<Body> {
    const list = this.#versions.get(canonical)!;
    const canary = this.#canaries.get(canonical)?.capability;
    // A loop, not find(): no closure per resolve.
    for (const c of list) if (c !== canary && !this.#retired.has(c)) return c;
    return list[0]!;
  }

  /** The capability for a verb, or undefined (convenience over `resolve`). */
  get(verb: string, range?: string): Capability<Body> | undefined {
    const resolution = this.resolve(verb, range);
    return resolution.ok ? resolution.capability : undefined;
  }

  /** The registry as data, with each input schema as JSON Schema. */
  manifest(): Manifest {
    return {
      manifestVersion: 1,
      capabilities: this.verbs().map((name) => ({
        name,
        aliases: [...this.#aliases].filter(([, to]) => to === name).map(([alias]) => alias).sort(),
        versions: (this.#versions.get(name) ?? []).map((cap) => ({
          version: cap.version,
          description: cap.description,
          inputSchema: toJsonSchema(cap.inputSchema),
          safetyLevel: cap.safetyLevel,
          atomic: cap.atomic,
          ...(cap.expectedDurationMs !== undefined ? { expectedDurationMs: cap.expectedDurationMs } : {}),
          ...renderDeclarations(cap),
          ...acceptanceStatus(cap),
          runner: cap.runnerKind,
        })),
      })),
    };
  }

  /**
   * Tool definitions an LLM can call: name, description and JSON Schema of the version each verb resolves
   * to by default (never a canary on trial nor a retired one: a plan built from their schema could fail).
   */
  toolDefinitions(): ToolDefinition[] {
    return this.verbs().map((name) => {
      const cap = this.#defaultVersion(name);
      return { name, description: cap.description, inputSchema: toJsonSchema(cap.inputSchema), ...renderDeclarations(cap) };
    });
  }
}

function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  // `io: 'input'` describes what a planner may send (defaults optional); unrepresentable parts become {}.
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
}

/** Verified only with a real acceptance function; a stub or a missing one is unverified, with the reason. */
function acceptanceStatus(cap: Capability<unknown>): { acceptance: 'verified' | 'unverified'; unverifiedReason?: string } {
  if (cap.unverified) return { acceptance: 'unverified', unverifiedReason: cap.unverified.reason };
  return typeof cap.acceptance === 'function' ? { acceptance: 'verified' } : { acceptance: 'unverified', unverifiedReason: 'no acceptance function' };
}

/** A capability built by hand (not by `defineCapability`) must still have every method the executor calls. */
function checkCapabilityShape(cap: Capability<unknown>): void {
  if (typeof cap !== 'object' || cap === null) throw new CapabilityDefinitionError('?', 'register: expected a capability from defineCapability');
  const name = typeof cap.name === 'string' ? cap.name : '?';
  for (const method of ['guard', 'run', 'observe', 'acceptance', 'preconds', 'effects'] as const) {
    if (typeof cap[method] !== 'function') throw new CapabilityDefinitionError(name, `${method}: expected a function, received ${typeof cap[method]} (build capabilities with defineCapability)`);
  }
  if (!isZodSchema(cap.inputSchema)) throw new CapabilityDefinitionError(name, 'inputSchema: expected a zod schema (zod 4)');
  if (!Array.isArray(cap.aliases)) throw new CapabilityDefinitionError(name, 'aliases: expected an array (build capabilities with defineCapability)');
  renderDeclarations(cap);
}
