import { z } from 'zod';
import { summarizeIssues } from './failure.js';
import type { ZodIssueSummary } from './schemas.js';

/**
 * A bad option or config given to any Sinew factory (`createExecutor`, `serveSinew`, `createRouter`,
 * `createBeliefBus`, …): one class across the packages, thrown when the thing is built — never later,
 * when it fires. `where` names the factory, `issues` each bad field (path, zod code, message) and `path`
 * the first one's field path, so a caller can point at the field without parsing the message.
 *
 * @example
 * try {
 *   defineExecutorPolicy({ ttfaMs: -1 });
 * } catch (error) {
 *   if (error instanceof ConfigError) console.error(error.where, error.path.join('.'), error.issues);
 * }
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  /** Always `invalid_config`: the code every package's bad-option error carries. */
  readonly code = 'invalid_config' as const;
  /** The first issue's field path (empty when the option as a whole is wrong). */
  readonly path: readonly (string | number)[];

  constructor(
    /** The factory or option group that refused, e.g. `createRouter` or `serveSinew.limits`. */
    readonly where: string,
    /** Every bad field, in the order zod reported them. */
    readonly issues: readonly ZodIssueSummary[],
    message?: string,
  ) {
    super(message ?? `${where}: invalid config: ${issues.map(formatIssue).join('; ') || 'no detail'}`);
    this.path = issues[0]?.path ?? [];
  }

  /** A ConfigError from a zod error, its message zod's own prettified report. */
  static fromZod<E extends ConfigError>(this: ConfigErrorClass<E>, where: string, error: z.ZodError): E {
    return new this(where, summarizeIssues(error.issues), `${where}: invalid config:\n${z.prettifyError(error)}`);
  }

  /** A ConfigError about one field, for checks zod does not express (unique names, a file that will not open). */
  static field<E extends ConfigError>(this: ConfigErrorClass<E>, where: string, path: readonly (string | number)[], message: string, code = 'custom'): E {
    return new this(where, [{ path: [...path], code, message }], `${where}: ${path.length ? `${path.join('.')}: ` : ''}${message}`);
  }
}

/** A ConfigError subclass with ConfigError's constructor (what `fromZod` and `field` build). */
type ConfigErrorClass<E> = new (where: string, issues: readonly ZodIssueSummary[], message?: string) => E;

function formatIssue(issue: ZodIssueSummary): string {
  return `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`;
}

/**
 * Validates an option object with its zod schema and returns the parsed value, or throws a
 * {@link ConfigError} naming `where` and every bad field. The one way a Sinew factory reads options.
 *
 * @example
 * const limits = parseConfig('serveSinew.limits', ServerLimitsSchema, options.limits ?? {});
 */
export function parseConfig<S extends z.ZodType>(where: string, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw ConfigError.fromZod(where, parsed.error);
  return parsed.data;
}
