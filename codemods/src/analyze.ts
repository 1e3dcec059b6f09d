import {
  Node,
  Scope,
  SyntaxKind,
  ts,
  type AsExpression,
  type CallExpression,
  type ClassDeclaration,
  type ParameterDeclaration,
  type SourceFile,
  type SwitchStatement,
  type Type,
} from 'ts-morph';
import { toCamelCase, toSnakeCase, isVerb } from './naming.js';
import type { ContextAdapter } from './context.js';
import type { FindingCode } from './report.js';
import { functionDocblock } from './docblock.js';
import { forwardedActionInput } from './forwarded-action.js';
import { isScriptFile, scriptGlobals } from './script.js';
import { failureSourceOf } from './failure.js';
import { paramMember, type ParamMember, type ParamSources } from './params.js';
import { deriveSchema, objectSchemaSource, quote } from './schema.js';
import { analyzeCommandTables, DEFAULT_UNWRAP } from './shapes/command.js';
import { analyzeLeaf } from './shapes/leaf.js';
import {
  adapterImports,
  construction,
  description,
  extensionOf,
  failureImports,
  finding,
  resolveBody,
  isBotParam,
  isPromiseLike,
  literalDefault,
  resultKind,
  type AnalyzeOptions,
  type Ctx,
  type FileAnalysis,
  type ImportNeed,
  type PlannedCapability,
  type ResultKind,
} from './shape.js';

/** The declaration a CommonJS export names (`module.exports = { craft }` → `function craft`), or the inline value. */
function localTarget(file: SourceFile, value: Node): Node | undefined {
  if (!Node.isIdentifier(value)) return value;
  const name = value.getText();
  return file.getFunction(name) ?? file.getClass(name) ?? file.getVariableDeclaration(name)?.getInitializer();
}

/** What a CommonJS module exports: `module.exports = { a, b: c, async d() {} }`, `exports.x = …`, `module.exports.x = …`. */
function commonJsExports(file: SourceFile): Map<Node, string> {
  const found = new Map<Node, string>();
  const add = (target: Node | undefined, name: string) => {
    if (target && !found.has(target)) found.set(target, name);
  };
  for (const statement of file.getStatements()) {
    const assignment = Node.isExpressionStatement(statement) ? statement.getExpression() : undefined;
    if (!assignment || !Node.isBinaryExpression(assignment) || assignment.getOperatorToken().getKind() !== SyntaxKind.EqualsToken) continue;
    const left = assignment.getLeft().getText();
    const right = assignment.getRight();
    if (left === 'module.exports' && Node.isObjectLiteralExpression(right)) {
      for (const property of right.getProperties()) {
        if (Node.isShorthandPropertyAssignment(property)) add(localTarget(file, property.getNameNode()), property.getName());
        else if (Node.isPropertyAssignment(property)) add(localTarget(file, property.getInitializerOrThrow()), property.getName());
        else if (Node.isMethodDeclaration(property)) add(property, property.getName());
      }
      continue;
    }
    const named = /^(?:module\.)?exports\.([\w$]+)$/.exec(left);
    if (named) add(localTarget(file, right), named[1]!);
  }
  return found;
}

/** Whether the generated file can import a declaration: exported (ESM/TS) or handed out by `module.exports` (CommonJS). */
function isExportedNode(ctx: Ctx, node: Node & { isExported(): boolean }): boolean {
  return ctx.commonJs ? ctx.commonJs.has(node) : node.isExported();
}

/** Finds the runner shapes in a file. Never edits it; `mustExport` lists the edits needed. */
export function analyzeFile(file: SourceFile, options: AnalyzeOptions): FileAnalysis {
  const out: FileAnalysis = { capabilities: [], findings: [], mustExport: [] };
  // JavaScript is imported by its real file name; TypeScript by the name it compiles to.
  const sourceModule = options.language === 'ts' ? file.getFilePath().replace(/\.(c|m)?tsx?$/, '') + options.importExtension : file.getFilePath();
  const commonJs = options.language === 'cjs' ? commonJsExports(file) : undefined;
  const contextModule = options.language === 'ts' ? options.contextFile.replace(/\.(c|m)?tsx?$/, '') + options.importExtension : options.contextFile;
  const script = isScriptFile(file);
  const failure = failureSourceOf(file, options.failureLog, { script, sourceModule });
  if (failure.mustExport && !commonJs) out.mustExport.push(failure.mustExport);
  const failureLog = commonJs && failure.mustExport ? undefined : failure.source;
  const ctx: Ctx = { file, sourceModule, out, language: options.language, commonJs, contextModule, hint: options.hint, failureLog, unwrap: options.unwrap ?? DEFAULT_UNWRAP, script: script ? { globals: scriptGlobals(file) } : undefined };
  const seen = new Set<Node>();
  for (const fn of file.getFunctions()) {
    if (!fn.getName() || !fn.getBody()) continue;
    seen.add(fn);
    const name = commonJs?.get(fn) ?? fn.getName()!;
    analyzeFunction(ctx, name, fn, fn.getParameters(), isExportedNode(ctx, fn), fn.isDefaultExport(), fn.getOverloads().length > 0, fn.getStartLineNumber());
  }
  for (const statement of file.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      if (!init || !(Node.isArrowFunction(init) || Node.isFunctionExpression(init)) || !Node.isIdentifier(decl.getNameNode())) continue;
      seen.add(init);
      const exported = commonJs ? commonJs.has(init) : statement.isExported();
      analyzeFunction(ctx, commonJs?.get(init) ?? decl.getName(), init, init.getParameters(), exported, false, false, decl.getStartLineNumber(), statement);
    }
  }
  // CommonJS runners written inline: `exports.craft = async function (bot) {…}`, `module.exports = { async craft(bot) {…} }`.
  for (const [node, name] of commonJs ?? []) {
    if (seen.has(node) || !(Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isMethodDeclaration(node))) continue;
    analyzeFunction(ctx, name, node, node.getParameters(), true, false, false, node.getStartLineNumber(), node.getParentOrThrow());
  }
  analyzeCommandTables(ctx);
  for (const cls of file.getClasses()) {
    if (cls.getInstanceMethod('executeAction')) analyzeDispatcher(ctx, cls);
    else if (cls.getInstanceMethod('run') && (cls.getInstanceProperty('spec') ?? cls.getStaticProperty('spec'))) analyzeLeaf(ctx, cls);
  }
  return out;
}

/** True for a plain object type that should become the whole args object (not Vec3, arrays or primitives). */
function isPlainObject(type: Type): boolean {
  if (!type.isObject() || type.isArray() || type.isTuple() || type.getCallSignatures().length > 0) return false;
  if (type.getSymbol()?.getName() === 'Vec3' || type.getSymbol()?.getName() === 'ReadonlyArray') return false;
  return type.getProperties().every((p) => !p.hasFlags(ts.SymbolFlags.Method));
}

interface Members {
  readonly ok: true;
  readonly schema: string;
  readonly usesVec3: boolean;
  /** How each value is passed to the runner: `args` (flattened) or `args.name` per parameter. */
  readonly callArgs: string[];
}

/** The input schema of the parameters after the bot, and how to pass them on. */
function paramSchema(params: readonly ParameterDeclaration[], at: Node, sources: ParamSources): Members | { ok: false; reason: string } {
  const first = params[0];
  if (params.length === 1 && first && (Node.isObjectBindingPattern(first.getNameNode()) || isPlainObject(first.getType()))) {
    const type = first.getType().getNonNullableType();
    const derived = deriveSchema(type, at, 'args', '  ');
    if (!derived.ok) return derived;
    return { ok: true, schema: derived.code, usesVec3: derived.usesVec3, callArgs: ['args'] };
  }
  const members: ParamMember[] = [];
  for (const [index, param] of params.entries()) {
    const member = paramMember(param, index, at, sources);
    if (!member.ok) return member;
    members.push(member);
  }
  return { ok: true, schema: objectSchemaSource(members, '  '), usesVec3: members.some((m) => m.usesVec3), callArgs: members.map((m) => `args.${m.name}`) };
}

type FunctionLike = Node & { getReturnType(): Type };

function analyzeFunction(
  ctx: Ctx,
  name: string,
  fn: FunctionLike,
  params: ParameterDeclaration[],
  exported: boolean,
  isDefault: boolean,
  overloaded: boolean,
  line: number,
  statement?: Node,
): void {
  if (!isBotParam(params[0])) return;
  if (!isDefault && analyzeFunctionDispatcher(ctx, name, fn, params, line, exported)) return;
  const rest = params.slice(1);
  if (isDefault) return finding(ctx, 'skipped', 'default_export', name, line, 'default export; export it by name to wrap it');
  if (!exported && !ctx.script) return finding(ctx, 'skipped', 'not_exported', name, line, 'not exported: treated as a helper, not a runner');
  if (overloaded) {
    return finding(ctx, 'unsafe', 'overloaded', name, line, 'overloaded: which signature a planner means is a guess; wrap one overload by hand');
  }
  if (params.some((p) => p.isRestParameter())) {
    return finding(ctx, 'unsafe', 'spread_args', name, line, 'takes rest/spread arguments: their names and order cannot be derived; wrap by hand');
  }
  const returnType = fn.getReturnType();
  if (!isPromiseLike(returnType)) {
    return finding(ctx, 'skipped', 'not_async', name, line, `synchronous (returns ${returnType.getText(fn)}): a runner returns a promise`);
  }
  const doc = functionDocblock(fn, statement ?? fn);
  const members = paramSchema(rest, fn, { doc, ...(ctx.hint ? { hint: ctx.hint } : {}) });
  if (!members.ok) return finding(ctx, 'skipped', 'unsupported_type', name, line, members.reason);
  const body = resolveBody(ctx, params[0]!.getTypeNode(), `Parameters<typeof ${name}>[0]`, extensionOf(ctx));
  ctx.out.capabilities.push({
    verb: toSnakeCase(name),
    aliases: [],
    exportName: `${toCamelCase(name)}Capability`,
    description: doc?.description ?? `Runs ${name}() (wrapped by sinew-codemod).`,
    shape: ctx.script ? 'script' : 'function',
    symbol: name,
    line,
    file: ctx.file.getFilePath(),
    schema: members.schema,
    usesVec3: members.usesVec3,
    bodyType: body.text,
    call: `${ctx.script ? scriptCall(ctx, name) : name}(${['ctx.body', ...members.callArgs].join(', ')})`,
    resultKind: resultKind(returnType),
    runnerLabel: name,
    imports: [...(ctx.script ? [] : [{ name, from: { kind: 'file' as const, path: ctx.sourceModule }, typeOnly: false }, ...body.imports]), ...failureImports(ctx)],
    ...(ctx.script ? { script: true } : {}),
    ...(ctx.failureLog !== undefined ? { failureLog: ctx.failureLog } : {}),
  });
}

/** `scriptFunction('./skills/mine.js', ['mineBlock'], 'mineWoodLog')`: the script's function, loaded as its runtime does. SCRIPT_FILE is replaced by the path relative to the generated file. */
function scriptCall(ctx: Ctx, name: string): string {
  const globals = `[${(ctx.script?.globals ?? []).map(quote).join(', ')}]`;
  return `scriptFunction(SCRIPT_FILE, ${globals}, ${quote(name)})`;
}

/** A function a `case` calls: a method on `this` (class dispatchers) or a function of the file (free ones). */
interface RunnerRef {
  readonly name: string;
  readonly params: readonly ParameterDeclaration[];
  readonly node: Node;
}

type RunnerLookup = (call: CallExpression) => RunnerRef | undefined;

/** The first call in a case body that reaches a runner. */
function runnerCall(clause: Node, lookup: RunnerLookup): { call: CallExpression; runner: RunnerRef } | undefined {
  for (const call of clause.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const runner = lookup(call);
    if (runner) return { call, runner };
  }
  return undefined;
}

/** What a switch dispatcher looks like to the case analysis, whichever shape holds it. */
interface Dispatch {
  readonly symbol: string;
  readonly actionParam: ParameterDeclaration;
  readonly switchStatement: SwitchStatement;
  readonly lookup: RunnerLookup;
  /** The names under which the bot is passed on to a runner (`this.bot`, `bot`). */
  readonly isBotArg: (arg: Node) => boolean;
  /** TypeScript only: the dispatcher's action type as the generated file can name it, for an action built in another shape. */
  readonly actionType?: string;
}

/** One capability of a dispatcher: a case label (with its aliases) and its input. */
interface CaseCapability {
  readonly type: string;
  readonly aliases: readonly string[];
  readonly line: number;
  readonly schema: string;
  readonly usesVec3: boolean;
  /** The action object to dispatch, built from `args`. */
  readonly action: string;
  readonly runner?: Node;
}

/** The capabilities of a `switch (action.type)`: one per case; fall-through labels with the same input become aliases, others their own capability. */
function switchCases(ctx: Ctx, dispatch: Dispatch): CaseCapability[] {
  const found: CaseCapability[] = [];
  let group: string[] = [];
  for (const clause of dispatch.switchStatement.getClauses()) {
    if (Node.isDefaultClause(clause)) {
      group = [];
      continue;
    }
    const label = clause.getExpression();
    const clauseLine = clause.getStartLineNumber();
    if (!Node.isStringLiteral(label) && !Node.isNoSubstitutionTemplateLiteral(label)) {
      finding(ctx, 'unsafe', 'non_literal_case', `${dispatch.symbol}#${label.getText()}`, clauseLine, `case ${label.getText()} is not a string literal: the verb is a guess; wrap by hand`);
      group = [];
      continue;
    }
    group.push(label.getLiteralValue());
    if (clause.getStatements().length === 0) continue; // fall-through: the labels share the next body
    const labels = group;
    group = [];
    const target = runnerCall(clause, dispatch.lookup);
    const reads = fieldReads(clause, dispatch.actionParam.getName());
    const bySchema = new Map<string, { labels: string[]; input: DispatcherInput & { ok: true } }>();
    for (const type of labels) {
      const input = dispatcherInput(dispatch, type, target, reads);
      if (!input.ok) {
        finding(ctx, input.kind, input.code, `${dispatch.symbol}#${type}`, clauseLine, input.reason);
        continue;
      }
      const same = bySchema.get(input.schema);
      if (same) same.labels.push(type);
      else bySchema.set(input.schema, { labels: [type], input });
    }
    for (const { labels: shared, input } of bySchema.values()) {
      const type = shared[0]!;
      const verb = toSnakeCase(type);
      const aliases = shared.slice(1).map(toSnakeCase).filter((a) => isVerb(a) && a !== verb);
      found.push({ type, aliases, line: clauseLine, schema: input.schema, usesVec3: input.usesVec3, action: input.action.replace('__TYPE__', quote(type)), ...(target ? { runner: target.runner.node } : {}) });
    }
  }
  return found;
}

/** The `switch (<action>.type)` of a dispatcher body, if it has one. */
function typeSwitch(body: Node, actionName: string): SwitchStatement | undefined {
  return body.getDescendantsOfKind(SyntaxKind.SwitchStatement).find((s) => {
    const e = s.getExpression();
    return Node.isPropertyAccessExpression(e) && e.getName() === 'type' && e.getExpression().getText() === actionName;
  });
}

function analyzeDispatcher(ctx: Ctx, cls: ClassDeclaration): void {
  const className = cls.getName();
  const method = cls.getInstanceMethodOrThrow('executeAction');
  const line = method.getStartLineNumber();
  const symbol = `${className ?? '<anonymous class>'}.executeAction`;
  if (!className) return finding(ctx, 'skipped', 'not_exported', symbol, line, 'anonymous class; name it to wrap it');
  if (ctx.commonJs && ctx.commonJs.get(cls) !== className) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `not in module.exports under its own name; add \`${className}\` to module.exports to wrap it`);
  }
  if (method.getScope() === Scope.Private || method.getScope() === Scope.Protected) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `executeAction is ${method.getScope()!}; the generated code cannot call it`);
  }
  const actionParam = method.getParameters()[0];
  if (!actionParam || !Node.isIdentifier(actionParam.getNameNode())) {
    return finding(ctx, 'skipped', 'dynamic_dispatch', symbol, line, 'executeAction has no named action parameter');
  }
  const switchStatement = typeSwitch(method, actionParam.getName());
  if (!switchStatement) {
    return finding(ctx, 'unsafe', 'dynamic_dispatch', symbol, line, `does not switch on ${actionParam.getName()}.type (dynamic dispatch): which verbs it handles is a guess; wrap by hand`);
  }
  const built = construction(ctx, cls, symbol, line, true);
  if (!built) return;
  const body = resolveBody(ctx, built.botParam?.getTypeNode(), `ConstructorParameters<typeof ${className}>[0]`, extensionOf(ctx));
  const factory = `${toCamelCase(className)}For`;
  const lookup: RunnerLookup = (call) => {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getExpression().getKind() !== SyntaxKind.ThisKeyword) return undefined;
    const runner = cls.getInstanceMethod(callee.getName());
    return runner ? { name: `this.${callee.getName()}`, params: runner.getParameters(), node: runner } : undefined;
  };
  const actionType = ctx.language === 'ts' ? { actionType: `Parameters<${className}['executeAction']>[0]` } : {};
  const cases = switchCases(ctx, { symbol, actionParam, switchStatement, lookup, isBotArg: (arg) => arg.getText().startsWith('this.'), ...actionType });
  for (const c of cases) {
    pushCase(ctx, c, {
      symbol,
      via: `${className}.executeAction`,
      call: `${factory}(ctx.body).executeAction(${c.action})`,
      resultKind: resultKind(method.getReturnType()),
      body,
      imports: [{ name: className, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }, ...adapterImports(ctx, built.adapter)],
      instance: { factory, className, construct: built.construct },
      ...(built.adapter ? { adapters: [built.adapter] } : {}),
    });
  }
  if (cases.length > 0 && !cls.isExported() && !ctx.commonJs) ctx.out.mustExport.push(cls);
}

/** A free function `executeAction(bot, action)` that switches on `action.type`: one capability per case. */
function analyzeFunctionDispatcher(ctx: Ctx, name: string, fn: FunctionLike, params: readonly ParameterDeclaration[], line: number, exported: boolean): boolean {
  const actionParam = params[1];
  if (params.length !== 2 || !actionParam || !Node.isIdentifier(actionParam.getNameNode())) return false;
  const switchStatement = typeSwitch(fn, actionParam.getName());
  if (!switchStatement) return false;
  if (!exported) {
    finding(ctx, 'skipped', 'not_exported', name, line, 'a dispatcher that is not exported; export it to wrap its cases');
    return true;
  }
  const botName = params[0]!.getName();
  const lookup: RunnerLookup = (call) => {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee)) return undefined;
    const declared = ctx.file.getFunction(callee.getText()) ?? ctx.file.getVariableDeclaration(callee.getText())?.getInitializer();
    if (!declared || !(Node.isFunctionDeclaration(declared) || Node.isArrowFunction(declared) || Node.isFunctionExpression(declared))) return undefined;
    return { name: callee.getText(), params: declared.getParameters(), node: declared };
  };
  const actionType = ctx.language === 'ts' ? { actionType: `Parameters<typeof ${name}>[1]` } : {};
  const cases = switchCases(ctx, { symbol: name, actionParam, switchStatement, lookup, isBotArg: (arg) => arg.getText() === botName, ...actionType });
  const body = resolveBody(ctx, params[0]!.getTypeNode(), `Parameters<typeof ${name}>[0]`, extensionOf(ctx));
  for (const c of cases) {
    const imports: ImportNeed[] = [{ name, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }];
    pushCase(ctx, c, { symbol: name, via: name, call: `${name}(ctx.body, ${c.action})`, resultKind: resultKind(fn.getReturnType()), body, imports });
  }
  return true;
}

/** How the capabilities of one dispatcher differ: who dispatches, and how it is reached. */
interface CaseTarget {
  readonly symbol: string;
  /** `ActionExecutor.executeAction` or `executeAction`, for descriptions and failure reasons. */
  readonly via: string;
  readonly call: string;
  readonly resultKind: ResultKind;
  readonly body: { readonly text: string; readonly imports: readonly ImportNeed[] };
  readonly imports: readonly ImportNeed[];
  readonly instance?: PlannedCapability['instance'];
  readonly adapters?: readonly ContextAdapter[];
}

function pushCase(ctx: Ctx, c: CaseCapability, target: CaseTarget): void {
  const fallback = `Runs the ${c.type} action through ${target.via} (wrapped by sinew-codemod).`;
  ctx.out.capabilities.push({
    verb: toSnakeCase(c.type),
    aliases: c.aliases,
    exportName: `${toCamelCase(c.type)}Capability`,
    description: c.runner ? description(c.runner, fallback) : fallback,
    shape: 'dispatcher',
    symbol: `${target.symbol}#${c.type}`,
    line: c.line,
    file: ctx.file.getFilePath(),
    schema: c.schema,
    usesVec3: c.usesVec3,
    bodyType: target.body.text,
    call: target.call,
    resultKind: target.resultKind,
    runnerLabel: `${target.via}(${c.type})`,
    imports: [...target.imports, ...target.body.imports],
    ...(target.instance ? { instance: target.instance } : {}),
    ...(target.adapters ? { adapters: target.adapters } : {}),
  });
}

type DispatcherInput =
  | { ok: true; schema: string; usesVec3: boolean; action: string; mapped: readonly string[] }
  | { ok: false; kind: 'skipped' | 'unsafe'; code: FindingCode; reason: string };

/** The input of one `case` label: the union member's fields when the action is a discriminated union, else the runner's parameters. */
function dispatcherInput(dispatch: Dispatch, type: string, target: { call: CallExpression; runner: RunnerRef } | undefined, reads: readonly string[]): DispatcherInput {
  const at = dispatch.actionParam;
  const actionName = at.getName();
  const actionType = at.getType();
  const members = (actionType.isUnion() ? actionType.getUnionTypes() : [actionType]).filter((m) => {
    const discriminant = m.getProperty('type')?.getTypeAtLocation(at);
    return discriminant?.isStringLiteral() && discriminant.getLiteralValue() === type;
  });
  if (members.length === 1) {
    const fields: { name: string; code: string; optional: boolean }[] = [];
    let usesVec3 = false;
    for (const property of members[0]!.getProperties()) {
      if (property.getName() === 'type') continue;
      const derived = deriveSchema(property.getTypeAtLocation(at), at, `args.${property.getName()}`, '    ');
      if (!derived.ok) return { ok: false, kind: 'skipped', code: 'unsupported_type', reason: derived.reason };
      usesVec3 ||= derived.usesVec3;
      fields.push({ name: property.getName(), code: derived.code, optional: derived.optional || property.isOptional() });
    }
    return { ok: true, schema: objectSchemaSource(fields, '  '), usesVec3, action: '{ type: __TYPE__, ...args }', mapped: [] };
  }
  // A loose action type: map `action.x` / `action.args.x` arguments onto the runner's parameter types.
  if (!target) return { ok: false, kind: 'skipped', code: 'no_runner_call', reason: `case '${type}' calls no runner, and ${actionName} is not a discriminated union to read its fields from` };
  const input = runnerArguments(dispatch, type, target.call, target.runner);
  // A field the case reads outside the runner call would never reach it: the input would be a guess.
  const stray = input.ok ? reads.filter((read) => !input.mapped.includes(read)) : [];
  if (stray.length > 0) {
    return { ok: false, kind: 'unsafe', code: 'unmappable_args', reason: `case '${type}' reads ${stray.join(', ')} outside its call to ${target.runner.name}(); wrap by hand` };
  }
  return input;
}

/** The outermost `action.x` / `action.args.x` reads of a case body (not `action.type`). */
function fieldReads(clause: Node, actionName: string): string[] {
  return clause
    .getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)
    .filter((access) => !Node.isPropertyAccessExpression(access.getParent()) && access.getText().startsWith(`${actionName}.`))
    .map((access) => access.getText())
    .filter((text) => text !== `${actionName}.type`);
}

/** The input of a case that calls `runner(action.x, action.args.y ?? 1, action.mode as Mode)`. */
function runnerArguments(dispatch: Dispatch, type: string, call: CallExpression, runner: RunnerRef): DispatcherInput {
  const actionName = dispatch.actionParam.getName();
  const at = dispatch.actionParam;
  if (call.getArguments().some((a) => Node.isSpreadElement(a))) {
    return { ok: false, kind: 'unsafe', code: 'spread_args', reason: `case '${type}' spreads arguments into ${runner.name}(): their names cannot be derived; wrap by hand` };
  }
  const fields: { name: string; code: string; optional: boolean; defaultCode?: string }[] = [];
  const containers = new Set<string>();
  const mapped: string[] = [];
  let usesVec3 = false;
  for (const [index, arg] of call.getArguments().entries()) {
    const param = runner.params[index];
    if (!param) return { ok: false, kind: 'unsafe', code: 'unmappable_args', reason: `${runner.name}() gets more arguments than it declares` };
    if (isBotParam(param) && dispatch.isBotArg(arg)) continue;
    // `action.mode as Mode`, `(action.args.n as number) ?? 20`: the cast names the type the runner expects (a union becomes z.enum).
    let cast: Node | undefined;
    let access: Node = unwrap(arg);
    if (Node.isAsExpression(access)) [cast, access] = [access, unwrap(access.getExpression())];
    // `action as unknown as LookAction`: the outermost cast names the type, the innermost expression the value.
    while (Node.isAsExpression(access)) access = unwrap(access.getExpression());
    let defaultCode: string | undefined;
    if (Node.isBinaryExpression(access) && ['??', '||'].includes(access.getOperatorToken().getText())) {
      defaultCode = literalDefault(access.getRight());
      if (defaultCode !== undefined) access = unwrap(access.getLeft());
      if (defaultCode !== undefined && !cast && Node.isAsExpression(access)) [cast, access] = [access, unwrap(access.getExpression())];
    }
    if (access.getText() === actionName) return forwarded(dispatch, type, call, runner, param, cast);
    const path = Node.isPropertyAccessExpression(access) ? access.getText().split('.') : [];
    mapped.push(access.getText());
    if (path[0] !== actionName || path.length < 2 || path.length > 3) {
      return {
        ok: false,
        kind: 'unsafe',
        code: 'unmappable_args',
        reason: `case '${type}' passes ${arg.getText()} to ${runner.name}(): not a plain ${actionName} field, so the input is a guess; wrap by hand`,
      };
    }
    containers.add(path.length === 3 ? path[1]! : '');
    const name = path[path.length - 1]!;
    const derived = deriveSchema(cast ? cast.getType() : param.getType(), at, `args.${name}`, '    ');
    if (!derived.ok) return { ok: false, kind: 'skipped', code: 'unsupported_type', reason: derived.reason };
    usesVec3 ||= derived.usesVec3;
    const optional = derived.optional || param.isOptional() || param.hasInitializer() || defaultCode !== undefined;
    fields.push({ name, code: derived.code, optional, ...(defaultCode !== undefined ? { defaultCode } : {}) });
  }
  if (containers.size > 1) {
    return { ok: false, kind: 'unsafe', code: 'unmappable_args', reason: `case '${type}' mixes fields of ${actionName} and of nested objects; wrap by hand` };
  }
  const container = [...containers][0] ?? '';
  const action = container ? `{ type: __TYPE__, ${container === 'args' ? 'args' : `${container}: args`} }` : '{ type: __TYPE__, ...args }';
  return { ok: true, schema: objectSchemaSource(fields, '  '), usesVec3, action, mapped };
}

/** A case handing the whole action to its runner (`this.executeNavigate(action as NavigateAction)`): the input is what that runner reads. */
function forwarded(dispatch: Dispatch, type: string, call: CallExpression, runner: RunnerRef, param: ParameterDeclaration, cast: Node | undefined): DispatcherInput {
  const isAction = (arg: Node): boolean => (Node.isAsExpression(unwrap(arg)) ? isAction((unwrap(arg) as AsExpression).getExpression()) : unwrap(arg).getText() === dispatch.actionParam.getName());
  const others = call.getArguments().filter((arg, index) => !isAction(arg) && !(isBotParam(runner.params[index]) && dispatch.isBotArg(arg)));
  if (others.length > 0) {
    return { ok: false, kind: 'unsafe', code: 'unmappable_args', reason: `case '${type}' passes ${others.map((a) => a.getText()).join(', ')} to ${runner.name}() beside the action; wrap by hand` };
  }
  const input = forwardedActionInput(runner.node, param, cast?.getType());
  if (!input.ok) return { ok: false, kind: 'unsafe', code: 'unmappable_args', reason: `case '${type}' hands the action to ${runner.name}(), which ${input.reason}; wrap by hand` };
  const built = input.container ? `{ type: __TYPE__, ${input.container}: args }` : '{ type: __TYPE__, ...args }';
  // The method's own action type may not be the dispatcher's (`action as unknown as LookAction`): the cast says so.
  const action = cast && dispatch.actionType ? `(${built} as unknown as ${dispatch.actionType})` : built;
  return { ok: true, schema: input.schema, usesVec3: input.usesVec3, action, mapped: [dispatch.actionParam.getName()] };
}

function unwrap(node: Node): Node {
  return Node.isParenthesizedExpression(node) ? unwrap(node.getExpression()) : node;
}
