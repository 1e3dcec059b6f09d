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

/** A generated helper: its parameters typed for both languages, one body (written to type-check as either). */
interface Helper {
  readonly name: string;
  readonly doc: string;
  readonly params: readonly { readonly name: string; readonly ts: string; readonly js: string; readonly optional?: true; readonly initial?: string }[];
  readonly returns: { readonly ts: string; readonly js: string };
  readonly body: string;
}

/** A helper as a TypeScript function, or as JavaScript with its types in JSDoc (`RESULT` is RunnerResult's type there). */
function render(helper: Helper, ts: boolean, result: string): string {
  const args = helper.params.map((p) => (p.initial !== undefined ? `${p.name} = ${p.initial}` : ts ? `${p.name}${p.optional ? '?' : ''}: ${p.ts}` : p.name));
  if (ts) return `/** ${helper.doc} */\nfunction ${helper.name}(${args.join(', ')}): ${helper.returns.ts} {\n${helper.body}\n}`;
  const tags = helper.params.map((p) => ` * @param {${p.js}} ${p.optional || p.initial !== undefined ? `[${p.name}]` : p.name}`);
  const returns = helper.returns.js.replace('RESULT', result);
  return `/**\n * ${helper.doc}\n${tags.join('\n')}\n * @returns {${returns}}\n */\nfunction ${helper.name}(${args.join(', ')}) {\n${helper.body}\n}`;
}

const ATTEMPT = { ts: 'Attempt', js: '{ acted(): boolean, logged(): string | undefined, stop(): void }' };
const READER = { ts: 'LogReader', js: '{ text(): string | undefined, stop(): void }' };
const RESULT = { ts: 'RunnerResult', js: 'RESULT' };
const WHEN = "'returned_false' | 'threw' | 'refused' | 'interrupted'";

const TS_TYPES = {
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
}`,
  wrapped: `/** A failure text a wrapper returns instead of throwing, by its fixed beginning, and why it returns it. */
interface WrapperFailure {
  readonly prefix: string;
  readonly when: ${WHEN};
}`,
};

const ATTEMPT_HELPERS: readonly Helper[] = [
  {
    name: 'watchAttempt',
    doc: "Watches one attempt: the body's actuator commands (its `sinew.onActuate`) and the runner's log (a bot property, or a logger method).",
    params: [
      { name: 'body', ts: 'unknown', js: 'unknown' },
      { name: 'log', ts: '{ readonly property: string } | { readonly target: unknown; readonly method: string }', js: '{ readonly property: string } | { readonly target: unknown, readonly method: string }', optional: true },
    ],
    returns: ATTEMPT,
    body: `  let acted = false;
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
  };`,
  },
  {
    name: 'propertyLog',
    doc: 'What the runner appends to `body[property]` from now on.',
    params: [
      { name: 'body', ts: 'unknown', js: 'unknown' },
      { name: 'property', ts: 'string', js: 'string' },
    ],
    returns: READER,
    body: `  const read = () => {
    const log = typeof body === 'object' && body !== null ? Reflect.get(body, property) : undefined;
    return typeof log === 'string' ? log : '';
  };
  const mark = read().length;
  return { text: () => joinedLines(read().length >= mark ? read().slice(mark) : read()), stop: () => undefined };`,
  },
  {
    name: 'callLog',
    doc: 'What the runner passes to `target[method]` from now on; the method still runs.',
    params: [
      { name: 'target', ts: 'unknown', js: 'unknown' },
      { name: 'method', ts: 'string', js: 'string' },
    ],
    returns: READER,
    body: `  const original = typeof target === 'object' && target !== null ? Reflect.get(target, method) : undefined;
  if (typeof original !== 'function' || typeof target !== 'object' || target === null) return { text: () => undefined, stop: () => undefined };
  let text = '';
  const spy = function () {
    const parts = Array.from(arguments);
    text += parts.map((part) => (typeof part === 'string' ? part : describeError(part))).join(' ') + '\\n';
    return Reflect.apply(original, target, parts);
  };
  Reflect.set(target, method, spy);
  return {
    text: () => joinedLines(text),
    stop: () => {
      if (Reflect.get(target, method) === spy) Reflect.set(target, method, original);
    },
  };`,
  },
  {
    name: 'joinedLines',
    doc: 'Log lines as one reason: trimmed, joined with ` / `; undefined when empty.',
    params: [{ name: 'text', ts: 'string', js: 'string' }],
    returns: { ts: 'string | undefined', js: 'string | undefined' },
    body: `  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed.split(/\\n+/).join(' / ');`,
  },
];

const UNMET: Helper = {
  name: 'unmet',
  doc: 'A runner that ran and reported failure: effects_unmet when it acted, runner_error when it gave up before acting.',
  params: [
    { name: 'attempt', ts: ATTEMPT.ts, js: ATTEMPT.js },
    { name: 'what', ts: 'string', js: 'string' },
    { name: 'logged', ts: 'string | undefined', js: 'string | undefined', initial: 'attempt.logged()' },
  ],
  returns: RESULT,
  body: `  const reason = logged === undefined ? what : \`\${logged} (\${what})\`;
  return attempt.acted() ? fail.effectsUnmet(reason) : fail.runnerError(reason);`,
};

const FROM_BOOLEAN: Helper = {
  name: 'fromBoolean',
  doc: 'Adapts a boolean result: false is a failure, with what the runner logged during the attempt.',
  params: [
    { name: 'done', ts: 'boolean', js: 'boolean' },
    { name: 'runner', ts: 'string', js: 'string' },
    { name: 'attempt', ts: ATTEMPT.ts, js: ATTEMPT.js },
  ],
  returns: RESULT,
  body: '  return done ? { ok: true } : unmet(attempt, `${runner} returned false`);',
};

const FROM_SUCCESS: Helper = {
  name: 'fromSuccess',
  doc: 'Adapts a `{ success, error }` result.',
  params: [
    { name: 'result', ts: '{ readonly success: boolean; readonly error?: unknown }', js: '{ readonly success: boolean, readonly error?: unknown }' },
    { name: 'runner', ts: 'string', js: 'string' },
    { name: 'attempt', ts: ATTEMPT.ts, js: ATTEMPT.js },
  ],
  returns: RESULT,
  body: `  if (result.success) return { ok: true };
  if (result.error !== undefined) return fail.runnerError(describeError(result.error));
  return unmet(attempt, \`\${runner} reported failure\`);`,
};

const FROM_WRAPPED: Helper = {
  name: 'fromWrapped',
  doc: "Adapts what a wrapped perform returns: the wrapper's failure texts fail the step with that text; other values are its `observables.result`.",
  params: [
    { name: 'result', ts: 'unknown', js: 'unknown' },
    { name: 'runner', ts: 'string', js: 'string' },
    { name: 'failures', ts: 'readonly WrapperFailure[]', js: `readonly { readonly prefix: string, readonly when: ${WHEN} }[]` },
    { name: 'attempt', ts: ATTEMPT.ts, js: ATTEMPT.js },
  ],
  returns: RESULT,
  body: `  if (typeof result === 'boolean') return fromBoolean(result, runner, attempt);
  if (typeof result === 'object' && result !== null && typeof Reflect.get(result, 'success') === 'boolean') {
    return fromSuccess({ success: Reflect.get(result, 'success') === true, error: Reflect.get(result, 'error') }, runner, attempt);
  }
  const text = typeof result === 'string' ? result.trim() : '';
  const failure = failures.find((f) => text.startsWith(f.prefix));
  if (failure === undefined) return result === undefined ? { ok: true } : { ok: true, observables: { result } };
  const reason = joinedLines(text) ?? text;
  return failure.when === 'returned_false' ? unmet(attempt, runner, reason) : fail.runnerError(reason);`,
};

const FROM_LEAF: Helper = {
  name: 'fromLeaf',
  doc: "Adapts a leaf result (`status: 'success' | …`, optional `error`).",
  params: [
    { name: 'result', ts: '{ readonly status: string; readonly error?: unknown }', js: '{ readonly status: string, readonly error?: unknown }' },
    { name: 'runner', ts: 'string', js: 'string' },
  ],
  returns: RESULT,
  body: `  if (result.status === 'success') return { ok: true };
  const detail = result.error === undefined ? \`\${runner} ended with status \${result.status}\` : describeError(result.error);
  return fail.runnerError(detail);`,
};

/** Which helpers the generated file needs for these capabilities, in its language. */
export function resultHelpers(caps: readonly PlannedCapability[], ts: boolean, contracts: string): string[] {
  const kinds = new Set(caps.map((c) => c.resultKind));
  const result = `import(${quote(contracts)}).RunnerResult`;
  const out: string[] = [];
  const add = (helpers: readonly Helper[], types?: string) => {
    if (ts && types !== undefined) out.push(types);
    out.push(...helpers.map((helper) => render(helper, ts, result)));
  };
  if (kinds.has('boolean') || kinds.has('success') || kinds.has('wrapped')) add([...ATTEMPT_HELPERS, UNMET, FROM_BOOLEAN, FROM_SUCCESS], TS_TYPES.attempt);
  if (kinds.has('wrapped')) add([FROM_WRAPPED], TS_TYPES.wrapped);
  if (kinds.has('leaf')) add([FROM_LEAF]);
  return out;
}
