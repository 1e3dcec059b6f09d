// Where a runner writes the reason for a failure it reports by returning `false` (or `{ success: false }`): a bot
// property it appends to (`bot.output += …`) or a logger method it calls (`logger.warn(…)`, `console.log(…)`).
// The generated code reads that source during the attempt, so the step fails with the runner's own words.
import { dirname, resolve } from 'node:path';
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import type { ImportNeed } from './shape.js';

/** A failure-reason source as the generated code reads it. */
export type FailureSource =
  | { readonly kind: 'property'; readonly property: string }
  /** `target` is an expression of the generated file (`console`, `logger`, `globalThis.logger`). */
  | { readonly kind: 'call'; readonly target: string; readonly method: string; readonly imports: readonly ImportNeed[] };

/** `--failure-log` as written: a bot property (`output`, `bot.output`) or a logger method (`console.log`, `logger.error`). */
export type FailureLogSpec = { readonly kind: 'property'; readonly property: string } | { readonly kind: 'call'; readonly object: string; readonly method: string };

const IDENTIFIER = '[A-Za-z_$][\\w$]*';
const FAILURE_LOG = new RegExp(`^(?:(bot)\\.(${IDENTIFIER})|(${IDENTIFIER})\\.(${IDENTIFIER})|(${IDENTIFIER}))$`);

/** Reads a `--failure-log` value; undefined when it is not one of the accepted forms. */
export function parseFailureLog(text: string): FailureLogSpec | undefined {
  const match = FAILURE_LOG.exec(text);
  if (!match) return undefined;
  if (match[1]) return { kind: 'property', property: match[2]! };
  if (match[3]) return { kind: 'call', object: match[3], method: match[4]! };
  return { kind: 'property', property: match[5]! };
}

/** `bot.output += …`, `bot.log = (bot.log || '') + …`, `agent.bot.output = …`: the property appended to. */
const APPEND = /\bbot\.([A-Za-z_$][\w$]*)\s*(?:\+=|=\s*\(?\s*(?:agent\.)?bot\.\1\b)/;

/** Where the analysed file is: a script (globals at run time), and its module path as the generated file imports it. */
export interface FailureSourceAt {
  readonly script: boolean;
  readonly sourceModule: string;
}

/** The failure source a file's runners use, from the option or, without one, from the code itself. */
export function failureSourceOf(file: SourceFile, spec: FailureLogSpec | false | undefined, at: FailureSourceAt): { source?: FailureSource; mustExport?: Node } {
  if (spec === false) return {};
  if (spec?.kind === 'property') return { source: spec };
  if (spec?.kind === 'call') return callSource(file, spec.object, spec.method, at);
  const property = APPEND.exec(file.getFullText())?.[1] ?? helperProperty(file);
  if (property !== undefined) return { source: { kind: 'property', property } };
  const call = callBeforeFailure(file);
  return call ? callSource(file, call.object, call.method, at) : {};
}

/** A property a logging helper the file calls appends to (`log(bot, msg)` whose body does `bot.output += msg`). */
function helperProperty(file: SourceFile): string | undefined {
  for (const helper of calledHelpers(file)) {
    const property = APPEND.exec(helper.getText())?.[1];
    if (property !== undefined) return property;
  }
  return undefined;
}

/** The functions (declared anywhere the checker sees) that the file's calls name as plain identifiers. */
function calledHelpers(file: SourceFile): Node[] {
  const found = new Set<Node>();
  for (const call of file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee)) continue;
    const symbol = callee.getSymbol();
    const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
    const fn = declared && Node.isVariableDeclaration(declared) ? declared.getInitializer() : declared;
    if (fn && (Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) found.add(fn);
  }
  return [...found];
}

/** The logger call written most often right before a `return false` / `return { success: false }` (directly, or inside a helper called there). */
function callBeforeFailure(file: SourceFile): { object: string; method: string } | undefined {
  const counts = new Map<string, number>();
  for (const ret of file.getDescendantsOfKind(SyntaxKind.ReturnStatement)) {
    const value = ret.getExpression()?.getText().replace(/\s+/g, '') ?? '';
    if (value !== 'false' && !value.startsWith('{success:false')) continue;
    const previous = ret.getPreviousSibling();
    const call = previous && Node.isExpressionStatement(previous) ? previous.getExpression() : undefined;
    const name = call && Node.isCallExpression(call) ? loggerCallee(call.getExpression()) : undefined;
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const best = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (best === undefined) return undefined;
  const [object, method] = best.split('.') as [string, string];
  return { object, method };
}

/** `logger.warn` or `console.log` as `object.method`; a helper `log(bot, msg)` resolves to the logger call inside it. */
function loggerCallee(callee: Node): string | undefined {
  if (Node.isPropertyAccessExpression(callee) && Node.isIdentifier(callee.getExpression())) return isModuleLevel(callee.getExpression()) ? callee.getText() : undefined;
  if (!Node.isIdentifier(callee)) return undefined;
  const symbol = callee.getSymbol();
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  const fn = declared && Node.isVariableDeclaration(declared) ? declared.getInitializer() : declared;
  if (!fn || !(Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn))) return undefined;
  const inner = fn.getDescendantsOfKind(SyntaxKind.CallExpression).map((c) => c.getExpression()).find((e) => Node.isPropertyAccessExpression(e) && Node.isIdentifier(e.getExpression()));
  // Only a global logger can be watched from outside the helper's module: console, or one the file imports too.
  return inner && (inner.getText().startsWith('console.') || importedName(callee.getSourceFile(), inner.getText().split('.')[0]!)) ? inner.getText() : undefined;
}

/** A name the generated file can reach: a global, an import, a top-level constant — not a parameter or a local (`bot`, `agent`). */
function isModuleLevel(name: Node): boolean {
  const declared = name.getSymbol()?.getDeclarations()[0];
  if (!declared) return true;
  if (Node.isParameterDeclaration(declared)) return false;
  return declared.getFirstAncestor((a) => Node.isFunctionLikeDeclaration(a) || Node.isArrowFunction(a)) === undefined;
}

/** Where the generated file gets the logger object: a global, the module the source imports it from, or the source itself. */
function callSource(file: SourceFile, object: string, method: string, at: FailureSourceAt): { source?: FailureSource; mustExport?: Node } {
  const call = (target: string, imports: ImportNeed[] = []): FailureSource => ({ kind: 'call', target, method, imports });
  if (object === 'console') return { source: call('console') };
  if (at.script) return { source: call(`globalThis.${object}`) };
  const imported = importedName(file, object);
  if (imported) return { source: call(imported.name === object ? object : imported.name, [imported]) };
  const local = file.getVariableDeclaration(object);
  if (!local) return {};
  const statement = local.getVariableStatementOrThrow();
  const need: ImportNeed = { name: object, from: { kind: 'file', path: at.sourceModule }, typeOnly: false };
  return { source: call(object, [need]), ...(statement.isExported() ? {} : { mustExport: statement }) };
}

/** A named import of `local` in the file, as the generated file imports it. */
function importedName(file: SourceFile, local: string): ImportNeed | undefined {
  for (const decl of file.getImportDeclarations()) {
    const spec = decl.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === local);
    if (!spec) continue;
    const target = decl.getModuleSpecifierValue();
    const from = target.startsWith('.') ? { kind: 'file' as const, path: resolve(dirname(file.getFilePath()), target) } : { kind: 'package' as const, specifier: target };
    return { name: spec.getName(), from, typeOnly: false };
  }
  return undefined;
}
