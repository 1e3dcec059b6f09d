// The command-table shape: `[{ name: '!collectBlocks', params: { … }, perform: async (agent, …) => … }]`, one
// capability per entry; `perform: runAsAction(fn)` (and `--unwrap` names) is read through the wrapper.
import { Node, type Expression, type ObjectLiteralExpression, type ParameterDeclaration, type Type } from 'ts-morph';
import type { ContextAdapter } from '../context.js';
import { isVerb, toCamelCase, toSnakeCase } from '../naming.js';
import { objectSchemaSource, quote } from '../schema.js';
import { failureImports, finding, isBotParam, literalDefault, resultKind, type Ctx } from '../shape.js';
import { wrapperFailures } from '../wrapper-failures.js';
import { defineShape, type TableCandidate } from './shape-analyzer.js';

/** A string-literal property of an object literal. */
function stringProperty(object: ObjectLiteralExpression, key: string): string | undefined {
  const property = object.getProperty(key);
  const value = property && Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
  return value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) ? value.getLiteralValue() : undefined;
}

export function propertyValue(object: ObjectLiteralExpression, key: string): Node | undefined {
  const property = object.getProperty(key);
  if (property && Node.isMethodDeclaration(property)) return property;
  return property && Node.isPropertyAssignment(property) ? property.getInitializer() : undefined;
}

/** Higher-order wrappers whose result takes the same arguments as the function they wrap (`perform: runAsAction(async (agent, n) => …)`). */
export const DEFAULT_UNWRAP: readonly string[] = ['runAsAction'];

type RunnerFunction = Node & { getParameters(): ParameterDeclaration[]; getReturnType(): Type };

/** The function a `perform` is: written in place, or the function argument of a known wrapper (`runAsAction(fn)`, `wrap(opts, fn)`). */
export function unwrapRunner(node: Node, wrappers: readonly string[]): RunnerFunction | undefined {
  if (Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isMethodDeclaration(node)) return node;
  if (!Node.isCallExpression(node)) return undefined;
  const callee = node.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  if (!wrappers.includes(name) && !wrappers.includes(callee.getText())) return undefined;
  const inner = node.getArguments().find((arg) => Node.isArrowFunction(arg) || Node.isFunctionExpression(arg) || Node.isCallExpression(arg));
  return inner ? unwrapRunner(inner, wrappers) : undefined;
}

export function isCommandEntry(node: Node): node is ObjectLiteralExpression {
  return Node.isObjectLiteralExpression(node) && stringProperty(node, 'name') !== undefined && node.getProperty('perform') !== undefined;
}

/** Command tables: `[{ name: '!collectBlocks', params: { … }, perform: async (agent, …) => … }, …]`, one capability per entry. */
function analyzeCommandTable(ctx: Ctx, { statement, decl, init }: TableCandidate): void {
  const table = decl.getName();
  const line = decl.getStartLineNumber();
  if (ctx.commonJs && ctx.commonJs.get(init) !== table) {
    return finding(ctx, 'skipped', 'not_exported', table, line, `a command table not in module.exports under its own name; add \`${table}\` to module.exports to wrap it`);
  }
  if (!ctx.commonJs && !statement.isExported()) ctx.out.mustExport.push(statement);
  for (const entry of init.getElements() as ObjectLiteralExpression[]) analyzeCommand(ctx, table, entry);
}

/** An array of `{ name, perform }` entries, every one. */
export const commandShape = defineShape({
  name: 'command',
  kind: 'table',
  detect: (_ctx, { init }) => init.getElements().length > 0 && init.getElements().every(isCommandEntry),
  analyze: analyzeCommandTable,
});

const COMMAND_TYPES: Record<string, string> = { int: 'z.number().int()', integer: 'z.number().int()', float: 'z.number()', number: 'z.number()', boolean: 'z.boolean()', string: 'z.string()' };

/** One declared command parameter (`{ type: 'int', domain: [1, 100], optional: true }`) as a schema member. */
export function commandParam(name: string, declared: Node | undefined): { name: string; code: string; optional: boolean; defaultCode?: string } {
  const object = declared && Node.isObjectLiteralExpression(declared) ? declared : undefined;
  const type = object ? stringProperty(object, 'type') : undefined;
  // Named kinds (`BlockName`, `ItemName`, `BlockOrItemName`) are strings a planner sends by name.
  let code = type === undefined ? undefined : (COMMAND_TYPES[type] ?? (/Name$/.test(type) ? 'z.string()' : undefined));
  if (code === undefined) {
    return { name, code: `z.unknown() /* sinew-codemod: args.${name} is declared ${type === undefined ? 'without a type' : `of type ${quote(type)}`}; replace z.unknown() with its real schema */`, optional: false };
  }
  const domain = object ? propertyValue(object, 'domain') : undefined;
  if (domain && Node.isArrayLiteralExpression(domain) && code.startsWith('z.number()')) {
    const [low, high, bounds] = domain.getElements().map((e) => e.getText());
    const inclusive = bounds === undefined ? '[]' : bounds.replace(/['"`]/g, '');
    if (low !== undefined && /^-?[\d.]+$/.test(low)) code += inclusive.startsWith('(') ? `.gt(${low})` : `.min(${low})`;
    if (high !== undefined && /^-?[\d.]+$/.test(high)) code += inclusive.endsWith(')') ? `.lt(${high})` : `.max(${high})`;
  }
  const optional = object?.getProperty('optional') !== undefined && propertyValue(object, 'optional')?.getText() === 'true';
  const defaultCode = object ? literalDefault(propertyValue(object, 'default') as Expression | undefined) : undefined;
  return { name, code, optional, ...(defaultCode !== undefined ? { defaultCode } : {}) };
}

/** The `agent` adapter of a command table whose perform() takes something richer than the bot: one per bot, so what a command keeps on it lasts between steps. */
function agentAdapter(table: string, param: string): ContextAdapter {
  const name = `to${param.charAt(0).toUpperCase()}${param.slice(1)}`;
  const doc = `The \`${param}\` that ${table}'s perform() receives, one per bot: \`${param}.bot\` is the instrumented bot. Add what else its commands read.`;
  const body = (map: string) =>
    `const ${param}s = ${map};\n\nexport function ${name}CTX {\n  let ${param} = ${param}s.get(ctx.body);\n  if (${param} === undefined) {\n    ${param} = { bot: ctx.body };\n    ${param}s.set(ctx.body, ${param});\n  }\n  return ${param};\n}`;
  return {
    name,
    ts: body('new WeakMap<object, { bot: object }>()').replace(`export function ${name}CTX`, `/** ${doc} */\nexport function ${name}<Body extends object>(ctx: RunContext<Body>): { bot: Body }`).replace(`let ${param} = ${param}s.get(ctx.body);`, `let ${param} = ${param}s.get(ctx.body) as { bot: Body } | undefined;`),
    js: body('new WeakMap()').replace(`export function ${name}CTX`, `/**\n * ${doc}\n * @template {object} Body\n * @param {import('@sinew/executor-contracts').RunContext<Body>} ctx\n * @returns {{ bot: Body }}\n */\nexport function ${name}(ctx)`),
    imports: [],
  };
}

function analyzeCommand(ctx: Ctx, table: string, entry: ObjectLiteralExpression): void {
  const commandName = stringProperty(entry, 'name')!;
  const line = entry.getStartLineNumber();
  const symbol = `${table}[${commandName}]`;
  const written = propertyValue(entry, 'perform');
  const perform = written && unwrapRunner(written, ctx.unwrap);
  if (!perform) {
    const wrapper = written && Node.isCallExpression(written) ? written.getExpression().getText() : undefined;
    const reason = wrapper
      ? `perform is ${wrapper}(…), a wrapper the codemod does not know; if it returns a function taking the same arguments, run with --unwrap ${wrapper}`
      : 'perform is not a function written in the table';
    return finding(ctx, 'skipped', 'no_runner_call', symbol, line, reason);
  }
  const [first, ...rest] = perform.getParameters();
  if (!first) return finding(ctx, 'skipped', 'no_bot', symbol, line, 'perform() takes no agent or bot');
  if (rest.some((p) => p.isRestParameter())) return finding(ctx, 'unsafe', 'spread_args', symbol, line, 'perform() takes rest arguments: their names cannot be derived; wrap by hand');
  const declared = propertyValue(entry, 'params');
  const keys = declared && Node.isObjectLiteralExpression(declared) ? declared.getProperties().filter(Node.isPropertyAssignment) : [];
  if (keys.length !== rest.length) {
    return finding(ctx, 'unsafe', 'unmappable_args', symbol, line, `perform() takes ${rest.length} argument(s) after ${first.getName()} but params declares ${keys.length}; wrap by hand`);
  }
  const members = keys.map((key) => commandParam(key.getName().replace(/^['"]|['"]$/g, ''), key.getInitializer()));
  const verb = toSnakeCase(commandName.replace(/^[!/]+/, ''));
  if (!isVerb(verb)) return finding(ctx, 'skipped', 'unsupported_type', symbol, line, `the command name ${commandName} gives no verb`);
  const adapter = isBotParam(first) ? undefined : agentAdapter(table, first.getName());
  const agent = adapter ? `${adapter.name}(ctx)` : 'ctx.body';
  const callArgs = [agent, ...members.map((m) => (/^[A-Za-z_$][\w$]*$/.test(m.name) ? `args.${m.name}` : `args[${quote(m.name)}]`))];
  ctx.out.capabilities.push({
    verb,
    aliases: [],
    exportName: `${toCamelCase(verb)}Capability`,
    description: stringProperty(entry, 'description') ?? `Runs the ${commandName} command (wrapped by sinew-codemod).`,
    shape: 'command',
    symbol,
    line,
    file: ctx.file.getFilePath(),
    schema: objectSchemaSource(members, '  '),
    usesVec3: false,
    // An agent adapter hands the perform `{ bot: ctx.body }`: the body is the type of the agent's bot.
    bodyType: `Parameters<(typeof ${table})[number]['perform']>[0]${adapter ? "['bot']" : ''}`,
    call: `commandNamed(${table}, ${quote(commandName)}).perform(${callArgs.join(', ')})`,
    // The generated code calls the table's perform: behind a wrapper, its result is what the wrapper returns (text, often).
    resultKind: perform === written ? resultKind(perform.getReturnType()) : 'wrapped',
    ...(perform === written ? {} : { wrapperFailures: wrapperFailures(written, ctx.unwrap) }),
    runnerLabel: commandName,
    imports: [
      { name: table, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false },
      ...(adapter ? [{ name: adapter.name, from: { kind: 'file' as const, path: ctx.contextModule }, typeOnly: false }] : []),
      ...failureImports(ctx),
    ],
    ...(adapter ? { adapters: [adapter] } : {}),
    ...(ctx.failureLog !== undefined ? { failureLog: ctx.failureLog } : {}),
    commandTable: true,
  });
}
