// The common interface of the runner shapes (shapes/*.ts and analyze.ts): what a planned capability is, the
// context a shape is analysed in, and the helpers every shape uses to report and classify.
import { dirname, resolve } from 'node:path';
import { Node, SyntaxKind, type ClassDeclaration, type Expression, type ParameterDeclaration, type SourceFile, type Type, type TypeNode } from 'ts-morph';
import type { ContextAdapter } from './context.js';
import type { FailureLogSpec, FailureSource } from './failure.js';
import type { WrapperFailure } from './wrapper-failures.js';
import type { Language } from './language.js';
import type { Finding, FindingCode, RunnerShape } from './report.js';
import type { ParamHint } from './params.js';
import { quote } from './schema.js';

/** How the wrapped runner's result becomes a RunnerResult. */
export type ResultKind = 'void' | 'boolean' | 'success' | 'leaf' | 'value' | 'wrapped';

/** Where a name is imported from: a module file (absolute path, extension as it will be written) or a package. */
export type ImportFrom = { readonly kind: 'file'; readonly path: string } | { readonly kind: 'package'; readonly specifier: string };

/** A name the generated file imports. */
export interface ImportNeed {
  readonly name: string;
  readonly from: ImportFrom;
  readonly typeOnly: boolean;
}

/** One capability to generate. */
export interface PlannedCapability {
  readonly verb: string;
  readonly aliases: readonly string[];
  readonly exportName: string;
  readonly description: string;
  readonly shape: RunnerShape;
  readonly symbol: string;
  readonly line: number;
  readonly file: string;
  /** zod schema source (indented for a property of the definition object). */
  readonly schema: string;
  readonly usesVec3: boolean;
  /** The body type as written in `RunContext<…>`. */
  readonly bodyType: string;
  /** Expression calling the old runner; uses `ctx.body` and `args`, and the instance factory when there is one. */
  readonly call: string;
  readonly resultKind: ResultKind;
  /** How a failure names the runner in its reason. */
  readonly runnerLabel: string;
  readonly imports: readonly ImportNeed[];
  /** A per-body instance factory, for class shapes. */
  readonly instance?: { readonly factory: string; readonly className: string; readonly construct: string };
  /** Functions of the context file this capability calls (an agent, a leaf context, an instance). */
  readonly adapters?: readonly ContextAdapter[];
  /** Where the runner logs a failure's reason (`bot.output += …`, `logger.warn(…)`): a false result's reason is what it wrote during the attempt. */
  readonly failureLog?: FailureSource;
  /** A perform behind a wrapper (`runAsAction(fn)`): the texts the wrapper returns for a failure (resultKind `wrapped`). */
  readonly wrapperFailures?: readonly WrapperFailure[];
  /** A function of a script-style file: called through the generated `scriptFunction` loader. */
  readonly script?: boolean;
  /** Set when the verb was qualified by the directory because another directory's runner has it. */
  readonly qualifiedFrom?: { readonly verb: string; readonly owner: string };
  /** Calls `commandNamed(table, name).perform(…)`: the generated file needs that helper. */
  readonly commandTable?: boolean;
}

/** What analysing one file found. */
export interface FileAnalysis {
  readonly capabilities: PlannedCapability[];
  readonly findings: Finding[];
  /** Declarations that must become exported so the generated file can import them. */
  readonly mustExport: Node[];
}

/** What every shape's analysis works in: the file, where its output goes, and the options of the run. */
export interface Ctx {
  readonly file: SourceFile;
  readonly sourceModule: string;
  readonly out: FileAnalysis;
  readonly language: Language;
  /** The context file as an import path (extension as written). */
  readonly contextModule: string;
  /** CommonJS only: what `module.exports` / `exports.x` hands out, by declaration (or inline function) → exported name. */
  readonly commonJs: ReadonlyMap<Node, string> | undefined;
  readonly hint: ((param: ParameterDeclaration) => ParamHint | undefined) | undefined;
  readonly failureLog: FailureSource | undefined;
  readonly unwrap: readonly string[];
  /** A script-style file (no imports or exports): its globals, and its path as the generated file names it. */
  readonly script: { readonly globals: readonly string[] } | undefined;
}

/** Options of the analysis: how relative imports end (`.js` or ''), and the file's language. */
export interface AnalyzeOptions {
  readonly importExtension: string;
  readonly language: Language;
  /** Absolute path of the context file adapters go to (`sinew.context.ts` beside the registry). */
  readonly contextFile: string;
  /** A schema for a parameter nothing in its own file types (a command table's declared params for the skill it calls). */
  readonly hint?: (param: ParameterDeclaration) => ParamHint | undefined;
  /** Where runners log a failure's reason; default: what the file's code uses (`bot.output += …`, a logger call before `return false`); false: none. */
  readonly failureLog?: FailureLogSpec | false;
  /** Higher-order wrappers to see through (`perform: runAsAction(fn)`); default DEFAULT_UNWRAP. */
  readonly unwrap?: readonly string[];
}

export function finding(ctx: Ctx, kind: Finding['kind'], code: FindingCode, symbol: string, line: number, reason: string, extra: Partial<Finding> = {}): void {
  ctx.out.findings.push({ kind, code, file: ctx.file.getFilePath(), line, symbol, reason, ...extra });
}

/** A parameter that receives the bot: named `bot`, or typed `Bot` / `…Bot`. */
export function isBotParam(param: ParameterDeclaration | undefined): boolean {
  if (!param) return false;
  if (param.getName() === 'bot') return true;
  return /(^|\.)\w*Bot$/.test(param.getTypeNode()?.getText() ?? '');
}

export function isBotType(type: Type, typeNode: TypeNode | undefined, name: string): boolean {
  if (name === 'bot') return true;
  if (/(^|\.)\w*Bot$/.test(typeNode?.getText() ?? '')) return true;
  return type.getSymbol()?.getName() === 'Bot' || type.getAliasSymbol()?.getName() === 'Bot';
}

export function description(node: Node, fallback: string): string {
  const holder = Node.isJSDocable(node) ? node : node.getFirstAncestor((a) => Node.isJSDocable(a));
  const docs = holder && Node.isJSDocable(holder) ? holder.getJsDocs() : [];
  const text = docs[0]?.getDescription().trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim();
  return text ? text : fallback;
}

export function isPromiseLike(type: Type): boolean {
  return type.getSymbol()?.getName() === 'Promise' || type.getProperty('then') !== undefined;
}

function awaited(type: Type): Type {
  if (type.getSymbol()?.getName() === 'Promise' && type.getTypeArguments().length === 1) return type.getTypeArguments()[0]!;
  return type;
}

/** Classifies what a runner resolves to, so the generated code can adapt it. */
export function resultKind(returnType: Type): ResultKind {
  const type = awaited(returnType);
  if (type.isAny() || type.isUnknown()) return 'value';
  const members = type.isUnion() ? type.getUnionTypes() : [type];
  const defined = members.filter((m) => !m.isUndefined() && (m.getFlags() & 16384) === 0 /* void */);
  if (defined.length === 0) return 'void';
  if (defined.every((m) => m.isBoolean() || m.isBooleanLiteral())) return 'boolean';
  if (defined.every((m) => m.isObject() && m.getProperty('success') !== undefined)) return 'success';
  if (defined.every((m) => m.isObject() && m.getProperty('status') !== undefined)) return 'leaf';
  return 'value';
}

export function literalDefault(init: Expression | undefined): string | undefined {
  if (!init) return undefined;
  if (
    Node.isNumericLiteral(init) ||
    Node.isStringLiteral(init) ||
    Node.isNoSubstitutionTemplateLiteral(init) ||
    init.getKind() === SyntaxKind.TrueKeyword ||
    init.getKind() === SyntaxKind.FalseKeyword ||
    init.getKind() === SyntaxKind.NullKeyword
  ) {
    return Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init) ? quote(init.getLiteralValue()) : init.getText();
  }
  if (Node.isPrefixUnaryExpression(init) && Node.isNumericLiteral(init.getOperand())) return init.getText();
  return undefined;
}

/** The body type text and the imports it needs; `fallback` when the annotation cannot be imported. */
export function resolveBody(ctx: Ctx, typeNode: TypeNode | undefined, fallback: string, importExtension: string): { text: string; imports: ImportNeed[] } {
  if (typeNode && Node.isTypeReference(typeNode) && typeNode.getTypeArguments().length === 0 && Node.isIdentifier(typeNode.getTypeName())) {
    const name = typeNode.getTypeName().getText();
    const sf = typeNode.getSourceFile();
    for (const decl of sf.getImportDeclarations()) {
      const spec = decl.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name);
      if (!spec) continue;
      const target = decl.getModuleSpecifierValue();
      const from: ImportFrom = target.startsWith('.') ? { kind: 'file', path: resolve(dirname(sf.getFilePath()), target) } : { kind: 'package', specifier: target };
      return { text: spec.getName(), imports: [{ name: spec.getName(), from, typeOnly: true }] };
    }
    const local = sf.getInterface(name) ?? sf.getTypeAlias(name) ?? sf.getClass(name);
    if (local && !local.isDefaultExport()) {
      if (!local.isExported()) ctx.out.mustExport.push(local);
      const path = sf === ctx.file ? ctx.sourceModule : sf.getFilePath().replace(/\.(c|m)?tsx?$/, '') + importExtension;
      return { text: name, imports: [{ name, from: { kind: 'file', path }, typeOnly: true }] };
    }
  }
  return { text: fallback, imports: [] };
}

export function extensionOf(ctx: Ctx): string {
  return ctx.sourceModule.endsWith('.js') ? '.js' : '';
}

/** How a class gets its bot: `new C()`, `new C(body)`, or through a context-file factory when its constructor needs more. */
export interface Construction {
  readonly construct: string;
  readonly botParam?: ParameterDeclaration;
  readonly adapter?: ContextAdapter;
}

export function construction(ctx: Ctx, cls: ClassDeclaration, symbol: string, line: number, needBotParam: boolean): Construction | undefined {
  const className = cls.getName()!;
  const params = cls.getConstructors()[0]?.getParameters() ?? [];
  const botParam = params.find((p) => isBotParam(p));
  const required = params.filter((p) => !p.isOptional() && !p.hasInitializer() && p !== botParam);
  if (required.length > 0) return constructorAdapter(ctx, cls, params, botParam);
  if (botParam && botParam === params[0]) return { construct: `new ${className}(body)`, botParam };
  if (needBotParam && !botParam) {
    finding(ctx, 'skipped', 'no_bot', symbol, line, `cannot tell how ${className} gets its bot: its constructor does not take one`);
    return undefined;
  }
  return botParam ? constructorAdapter(ctx, cls, params, botParam) : { construct: `new ${className}()` };
}

/** A factory in the context file for a class whose constructor needs more than the bot: what is not the bot is `unmapped(...)` until filled in. */
export function constructorAdapter(ctx: Ctx, cls: ClassDeclaration, params: readonly ParameterDeclaration[], botParam: ParameterDeclaration | undefined): Construction {
  const className = cls.getName()!;
  const name = `new${className}`;
  const last = params.reduce((at, p, i) => (p === botParam || (!p.isOptional() && !p.hasInitializer()) ? i : at), -1);
  const args = params.slice(0, last + 1).map((p) => (p === botParam ? 'bot' : `unmapped(${quote(p.getName())}, ${quote(name)})`));
  const body = resolveBody(ctx, botParam?.getTypeNode(), 'unknown', extensionOf(ctx));
  const doc = `Builds the ${className} the wrapped runners use, one per bot: supply what its constructor needs besides the bot.`;
  const call = `  return new ${className}(${args.join(', ')});`;
  const adapter: ContextAdapter = {
    name,
    ts: `/** ${doc} */\nexport function ${name}(bot: ${body.text}): ${className} {\n${call}\n}`,
    js: `/**\n * ${doc}\n * @param {unknown} bot\n */\nexport function ${name}(bot) {\n${call}\n}`,
    imports: [{ name: className, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }, ...body.imports],
  };
  return { construct: `${name}(body)`, ...(botParam ? { botParam } : {}), adapter };
}

/** The import of a context-file function, if the capability calls one. */
export function adapterImports(ctx: Ctx, adapter: ContextAdapter | undefined): ImportNeed[] {
  return adapter ? [{ name: adapter.name, from: { kind: 'file', path: ctx.contextModule }, typeOnly: false }] : [];
}

/** What the generated file imports to read the failure source (a logger object), if anything. */
export function failureImports(ctx: Ctx): readonly ImportNeed[] {
  return ctx.failureLog?.kind === 'call' ? ctx.failureLog.imports : [];
}
