// How a wrapped runner's result becomes a RunnerResult, and the helpers the generated files carry for it (in
// TypeScript, and in JavaScript typed with JSDoc). The rules, also in the README:
// - a throw, or a wrapper's text for a throw / a refusal / an interruption: `runner_error`;
// - `false`, `{ success: false }` without an `error`, or a wrapper's text for the action returning false: the
//   runner ran and says the effect did not happen — `effects_unmet` when the attempt acted (sent an actuator
//   command), `runner_error` when it gave up before acting; the reason is what it logged during the attempt.
import type { FailureSource } from './failure.js';
import type { PlannedCapability } from './shape.js';
import { quote } from './schema.js';

/** The generated call of one capability's runner, adapted to a RunnerResult. */
export function adapted(cap: PlannedCapability, call: string): string {
  const label = quote(cap.runnerLabel);
  switch (cap.resultKind) {
    case 'void':
      return `async () => {\n      await ${call};\n    }`;
    case 'leaf':
      return `async () => fromLeaf(await ${call}, ${label})`;
    case 'value':
      return `async () => ({ ok: true, observables: { result: await ${call} } })`;
    case 'boolean':
      return watched(cap.failureLog, `fromBoolean(await ${call}, ${label}, attempt)`);
    case 'success':
      return watched(cap.failureLog, `fromSuccess(await ${call}, ${label}, attempt)`);
    case 'wrapped': {
      const failures = (cap.wrapperFailures ?? []).map((f) => `{ prefix: ${quote(f.prefix)}, when: ${quote(f.when)} }`);
      return watched(cap.failureLog, `fromWrapped(await ${call}, ${label}, [${failures.join(', ')}], attempt)`);
    }
  }
}

/** The source as the generated code names it: `{ property: 'output' }`, `{ target: logger, method: 'warn' }`. */
function sourceCode(source: FailureSource | undefined): string {
  if (source === undefined) return '';
  return source.kind === 'property' ? `, { property: ${quote(source.property)} }` : `, { target: ${source.target}, method: ${quote(source.method)} }`;
}

function watched(source: FailureSource | undefined, result: string): string {
  return `async () => {\n      const attempt = watchAttempt(ctx.body${sourceCode(source)});\n      try {\n        return ${result};\n      } finally {\n        attempt.stop();\n      }\n    }`;
}

/** Which helpers the generated file needs for these capabilities. */
export function resultHelpers(caps: readonly PlannedCapability[], ts: boolean, contracts: string): string[] {
  const kinds = new Set(caps.map((c) => c.resultKind));
  const helpers = ts ? TS_HELPERS : javaScriptHelpers(`import(${quote(contracts)}).RunnerResult`);
  const out: string[] = [];
  const attempt = kinds.has('boolean') || kinds.has('success') || kinds.has('wrapped');
  if (attempt) out.push(helpers.attempt, helpers.unmet, helpers.boolean, helpers.success);
  if (kinds.has('wrapped')) out.push(helpers.wrapped);
  if (kinds.has('leaf')) out.push(helpers.leaf);
  return out;
}

type Helpers = Record<'attempt' | 'unmet' | 'boolean' | 'success' | 'wrapped' | 'leaf', string>;

const TS_HELPERS: Helpers = {
  attempt: `/** One attempt of a wrapped runner: whether the body acted (an actuator command) and what the runner logged. */
interface Attempt {
  acted(): boolean;
  logged(): string | undefined;
  stop(): void;
}

/** What a runner logs from now on. */
interface LogReader {
  text(): string | undefined;
  stop(): void;
}

/** Watches one attempt: the body's actuator commands (its \`sinew.onActuate\`) and the runner's log (a bot property, or a logger method). */
function watchAttempt(body: unknown, log?: { readonly property: string } | { readonly target: unknown; readonly method: string }): Attempt {
  let acted = false;
  const signals: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, 'sinew') : undefined;
  const onActuate: unknown = typeof signals === 'object' && signals !== null ? Reflect.get(signals, 'onActuate') : undefined;
  const unsubscribe: unknown = typeof onActuate === 'function' ? Reflect.apply(onActuate, signals, [() => (acted = true)]) : undefined;
  const reader = log === undefined ? undefined : 'property' in log ? propertyLog(body, log.property) : callLog(log.target, log.method);
  return {
    acted: () => acted,
    logged: () => reader?.text(),
    stop: () => {
      if (typeof unsubscribe === 'function') unsubscribe();
      reader?.stop();
    },
  };
}

/** What the runner appends to \`body[property]\` from now on. */
function propertyLog(body: unknown, property: string): LogReader {
  const read = (): string => {
    const log: unknown = typeof body === 'object' && body !== null ? Reflect.get(body, property) : undefined;
    return typeof log === 'string' ? log : '';
  };
  const mark = read().length;
  return { text: () => joinedLines(read().length >= mark ? read().slice(mark) : read()), stop: () => undefined };
}

/** What the runner passes to \`target[method]\` from now on; the method still runs. */
function callLog(target: unknown, method: string): LogReader {
  const original: unknown = typeof target === 'object' && target !== null ? Reflect.get(target, method) : undefined;
  if (typeof original !== 'function' || typeof target !== 'object' || target === null) return { text: () => undefined, stop: () => undefined };
  const lines: string[] = [];
  const spy = function (this: unknown, ...parts: unknown[]): unknown {
    lines.push(parts.map((part) => (typeof part === 'string' ? part : describeError(part))).join(' '));
    return Reflect.apply(original, this, parts);
  };
  Reflect.set(target, method, spy);
  return {
    text: () => joinedLines(lines.join('\\n')),
    stop: () => {
      if (Reflect.get(target, method) === spy) Reflect.set(target, method, original);
    },
  };
}

/** Log lines as one reason: trimmed, joined with \` / \`; undefined when empty. */
function joinedLines(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed.split(/\\n+/).join(' / ');
}`,
  unmet: `/** A runner that ran and reported failure: effects_unmet when it acted, runner_error when it gave up before acting. */
function unmet(attempt: Attempt, what: string, logged = attempt.logged()): RunnerResult {
  return { ok: false, code: attempt.acted() ? 'effects_unmet' : 'runner_error', reason: logged === undefined ? what : \`\${logged} (\${what})\` };
}`,
  boolean: `/** Adapts a boolean result: false is a failure, with what the runner logged during the attempt. */
function fromBoolean(done: boolean, runner: string, attempt: Attempt): RunnerResult {
  return done ? { ok: true } : unmet(attempt, \`\${runner} returned false\`);
}`,
  success: `/** Adapts a \`{ success, error }\` result. */
function fromSuccess(result: { readonly success: boolean; readonly error?: unknown }, runner: string, attempt: Attempt): RunnerResult {
  if (result.success) return { ok: true };
  if (result.error !== undefined) return { ok: false, code: 'runner_error', reason: describeError(result.error) };
  return unmet(attempt, \`\${runner} reported failure\`);
}`,
  wrapped: `/** A failure text a wrapper returns instead of throwing, by its fixed beginning, and why it returns it. */
interface WrapperFailure {
  readonly prefix: string;
  readonly when: 'returned_false' | 'threw' | 'refused' | 'interrupted';
}

/** Adapts what a wrapped perform returns: the wrapper's failure texts fail the step with that text; other values are its \`observables.result\`. */
function fromWrapped(result: unknown, runner: string, failures: readonly WrapperFailure[], attempt: Attempt): RunnerResult {
  if (typeof result === 'boolean') return fromBoolean(result, runner, attempt);
  if (typeof result === 'object' && result !== null && typeof Reflect.get(result, 'success') === 'boolean') {
    return fromSuccess({ success: Reflect.get(result, 'success') === true, error: Reflect.get(result, 'error') }, runner, attempt);
  }
  const text = typeof result === 'string' ? result.trim() : '';
  const failure = failures.find((f) => text.startsWith(f.prefix));
  if (failure === undefined) return result === undefined ? { ok: true } : { ok: true, observables: { result } };
  const reason = joinedLines(text) ?? text;
  return failure.when === 'returned_false' ? unmet(attempt, runner, reason) : { ok: false, code: 'runner_error', reason };
}`,
  leaf: `/** Adapts a leaf result (\`status: 'success' | …\`, optional \`error\`). */
function fromLeaf(result: { readonly status: string; readonly error?: unknown }, runner: string): RunnerResult {
  if (result.status === 'success') return { ok: true };
  const detail = result.error === undefined ? \`\${runner} ended with status \${result.status}\` : describeError(result.error);
  return { ok: false, code: 'runner_error', reason: detail };
}`,
};

/** The same helpers in JavaScript: the TypeScript ones with their types moved into JSDoc. */
function javaScriptHelpers(result: string): Helpers {
  return {
    attempt: `/**
 * Watches one attempt: the body's actuator commands (its \`sinew.onActuate\`) and the runner's log (a bot property, or a logger method).
 * @param {unknown} body
 * @param {{ readonly property: string } | { readonly target: unknown, readonly method: string }} [log]
 * @returns {{ acted(): boolean, logged(): string | undefined, stop(): void }}
 */
function watchAttempt(body, log) {
  let acted = false;
  const signals = typeof body === 'object' && body !== null ? Reflect.get(body, 'sinew') : undefined;
  const onActuate = typeof signals === 'object' && signals !== null ? Reflect.get(signals, 'onActuate') : undefined;
  const unsubscribe = typeof onActuate === 'function' ? Reflect.apply(onActuate, signals, [() => (acted = true)]) : undefined;
  const reader = log === undefined ? undefined : 'property' in log ? propertyLog(body, log.property) : callLog(log.target, log.method);
  return {
    acted: () => acted,
    logged: () => reader?.text(),
    stop: () => {
      if (typeof unsubscribe === 'function') unsubscribe();
      reader?.stop();
    },
  };
}

/**
 * What the runner appends to \`body[property]\` from now on.
 * @param {unknown} body
 * @param {string} property
 * @returns {{ text(): string | undefined, stop(): void }}
 */
function propertyLog(body, property) {
  const read = () => {
    const log = typeof body === 'object' && body !== null ? Reflect.get(body, property) : undefined;
    return typeof log === 'string' ? log : '';
  };
  const mark = read().length;
  return { text: () => joinedLines(read().length >= mark ? read().slice(mark) : read()), stop: () => undefined };
}

/**
 * What the runner passes to \`target[method]\` from now on; the method still runs.
 * @param {unknown} target
 * @param {string} method
 * @returns {{ text(): string | undefined, stop(): void }}
 */
function callLog(target, method) {
  const original = typeof target === 'object' && target !== null ? Reflect.get(target, method) : undefined;
  if (typeof original !== 'function' || typeof target !== 'object' || target === null) return { text: () => undefined, stop: () => undefined };
  /** @type {string[]} */
  const lines = [];
  /** @type {(this: unknown, ...parts: unknown[]) => unknown} */
  const spy = function (...parts) {
    lines.push(parts.map((part) => (typeof part === 'string' ? part : describeError(part))).join(' '));
    return Reflect.apply(original, this, parts);
  };
  Reflect.set(target, method, spy);
  return {
    text: () => joinedLines(lines.join('\\n')),
    stop: () => {
      if (Reflect.get(target, method) === spy) Reflect.set(target, method, original);
    },
  };
}

/**
 * Log lines as one reason: trimmed, joined with \` / \`; undefined when empty.
 * @param {string} text
 * @returns {string | undefined}
 */
function joinedLines(text) {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed.split(/\\n+/).join(' / ');
}`,
    unmet: `/**
 * A runner that ran and reported failure: effects_unmet when it acted, runner_error when it gave up before acting.
 * @param {{ acted(): boolean, logged(): string | undefined }} attempt
 * @param {string} what
 * @param {string | undefined} [logged]
 * @returns {${result}}
 */
function unmet(attempt, what, logged = attempt.logged()) {
  return { ok: false, code: attempt.acted() ? 'effects_unmet' : 'runner_error', reason: logged === undefined ? what : \`\${logged} (\${what})\` };
}`,
    boolean: `/**
 * Adapts a boolean result: false is a failure, with what the runner logged during the attempt.
 * @param {boolean} done
 * @param {string} runner
 * @param {{ acted(): boolean, logged(): string | undefined }} attempt
 * @returns {${result}}
 */
function fromBoolean(done, runner, attempt) {
  return done ? { ok: true } : unmet(attempt, \`\${runner} returned false\`);
}`,
    success: `/**
 * Adapts a \`{ success, error }\` result.
 * @param {{ readonly success: boolean, readonly error?: unknown }} result
 * @param {string} runner
 * @param {{ acted(): boolean, logged(): string | undefined }} attempt
 * @returns {${result}}
 */
function fromSuccess(result, runner, attempt) {
  if (result.success) return { ok: true };
  if (result.error !== undefined) return { ok: false, code: 'runner_error', reason: describeError(result.error) };
  return unmet(attempt, \`\${runner} reported failure\`);
}`,
    wrapped: `/**
 * Adapts what a wrapped perform returns: the wrapper's failure texts fail the step with that text; other values are its \`observables.result\`.
 * @param {unknown} result
 * @param {string} runner
 * @param {readonly { readonly prefix: string, readonly when: 'returned_false' | 'threw' | 'refused' | 'interrupted' }[]} failures
 * @param {{ acted(): boolean, logged(): string | undefined }} attempt
 * @returns {${result}}
 */
function fromWrapped(result, runner, failures, attempt) {
  if (typeof result === 'boolean') return fromBoolean(result, runner, attempt);
  if (typeof result === 'object' && result !== null && typeof Reflect.get(result, 'success') === 'boolean') {
    return fromSuccess({ success: Reflect.get(result, 'success') === true, error: Reflect.get(result, 'error') }, runner, attempt);
  }
  const text = typeof result === 'string' ? result.trim() : '';
  const failure = failures.find((f) => text.startsWith(f.prefix));
  if (failure === undefined) return result === undefined ? { ok: true } : { ok: true, observables: { result } };
  const reason = joinedLines(text) ?? text;
  return failure.when === 'returned_false' ? unmet(attempt, runner, reason) : { ok: false, code: 'runner_error', reason };
}`,
    leaf: `/**
 * Adapts a leaf result (\`status: 'success' | …\`, optional \`error\`).
 * @param {{ readonly status: string, readonly error?: unknown }} result
 * @param {string} runner
 * @returns {${result}}
 */
function fromLeaf(result, runner) {
  if (result.status === 'success') return { ok: true };
  const detail = result.error === undefined ? \`\${runner} ended with status \${result.status}\` : describeError(result.error);
  return { ok: false, code: 'runner_error', reason: detail };
}`,
  };
}
