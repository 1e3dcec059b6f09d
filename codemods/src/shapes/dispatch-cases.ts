// The case analysis both dispatcher shapes share (dispatcher-class.ts, dispatcher-function.ts): one capability per
// `case` label of a `switch (action.type)`, its input from the action's union member, the runner's parameters the
// case maps `action.x` onto, or the fields a method the whole action is handed to reads.
import { Node, SyntaxKind, type AsExpression, type CallExpression, type ParameterDeclaration, type SwitchStatement } from 'ts-morph';
import type { ContextAdapter } from '../context.js';
import { forwardedActionInput } from '../forwarded-action.js';
import { isVerb, toCamelCase, toSnakeCase } from '../naming.js';
import type { FindingCode } from '../report.js';
import { deriveSchema, objectSchemaSource, quote } from '../schema.js';
import { description, finding, isBotParam, literalDefault, type Ctx, type ImportNeed, type PlannedCapability, type ResultKind } from '../shape.js';

/** A function a `case` calls: a method on `this` (class dispatchers) or a function of the file (free ones). */
export interface RunnerRef {
  readonly name: string;
  readonly params: readonly ParameterDeclaration[];
  readonly node: Node;
}

export type RunnerLookup = (call: CallExpression) => RunnerRef | undefined;

/** The first call in a case body that reaches a runner. */
function runnerCall(clause: Node, lookup: RunnerLookup): { call: CallExpression; runner: RunnerRef } | undefined {
  for (const call of clause.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const runner = lookup(call);
    if (runner) return { call, runner };
  }
  return undefined;
}

/** What a switch dispatcher looks like to the case analysis, whichever shape holds it. */
export interface Dispatch {
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
export interface CaseCapability {
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
export function switchCases(ctx: Ctx, dispatch: Dispatch): CaseCapability[] {
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
export function typeSwitch(body: Node, actionName: string): SwitchStatement | undefined {
  return body.getDescendantsOfKind(SyntaxKind.SwitchStatement).find((s) => {
    const e = s.getExpression();
    return Node.isPropertyAccessExpression(e) && e.getName() === 'type' && e.getExpression().getText() === actionName;
  });
}

/** How the capabilities of one dispatcher differ: who dispatches, and how it is reached. */
export interface CaseTarget {
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

export function pushCase(ctx: Ctx, c: CaseCapability, target: CaseTarget): void {
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
