// The function shape: `export async function craftItem(bot, itemName, quantity = 1)` (ESM, TypeScript, CommonJS
// exports); its input schema comes from the parameters after the bot. Script-style files reuse it (script.ts).
import { Node, ts, type ParameterDeclaration, type Type } from 'ts-morph';
import { functionDocblock } from '../docblock.js';
import { toCamelCase, toSnakeCase } from '../naming.js';
import { paramMember, type ParamMember, type ParamSources } from '../params.js';
import { deriveSchema, objectSchemaSource } from '../schema.js';
import { extensionOf, failureImports, finding, isBotParam, isPromiseLike, resolveBody, resultKind, type Ctx, type ImportNeed } from '../shape.js';
import { defineShape, type FunctionCandidate } from './shape-analyzer.js';

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

/** How a function of this shape is reached from the generated file. */
interface Reach {
  readonly shape: 'function' | 'script';
  /** The callee expression (`craftItem`, `scriptFunction(…)`). */
  readonly callee: string;
  readonly imports: readonly ImportNeed[];
  readonly script?: true;
}

/** Wraps a top-level async function taking the bot first, or reports why not. */
export function wrapFunction(ctx: Ctx, candidate: FunctionCandidate, reach: Reach): void {
  const { name, fn, params, line } = candidate;
  if (candidate.isDefault) return finding(ctx, 'skipped', 'default_export', name, line, 'default export; export it by name to wrap it');
  if (!candidate.exported && reach.shape !== 'script') return finding(ctx, 'skipped', 'not_exported', name, line, 'not exported: treated as a helper, not a runner');
  if (candidate.overloaded) {
    return finding(ctx, 'unsafe', 'overloaded', name, line, 'overloaded: which signature a planner means is a guess; wrap one overload by hand');
  }
  if (params.some((p) => p.isRestParameter())) {
    return finding(ctx, 'unsafe', 'spread_args', name, line, 'takes rest/spread arguments: their names and order cannot be derived; wrap by hand');
  }
  const returnType = fn.getReturnType();
  if (!isPromiseLike(returnType)) {
    return finding(ctx, 'skipped', 'not_async', name, line, `synchronous (returns ${returnType.getText(fn)}): a runner returns a promise`);
  }
  const doc = functionDocblock(fn, candidate.statement ?? fn);
  const members = paramSchema(params.slice(1), fn, { doc, ...(ctx.hint ? { hint: ctx.hint } : {}) });
  if (!members.ok) return finding(ctx, 'skipped', 'unsupported_type', name, line, members.reason);
  const body = resolveBody(ctx, params[0]!.getTypeNode(), `Parameters<typeof ${name}>[0]`, extensionOf(ctx));
  ctx.out.capabilities.push({
    verb: toSnakeCase(name),
    aliases: [],
    exportName: `${toCamelCase(name)}Capability`,
    description: doc?.description ?? `Runs ${name}() (wrapped by sinew-codemod).`,
    shape: reach.shape,
    symbol: name,
    line,
    file: ctx.file.getFilePath(),
    schema: members.schema,
    usesVec3: members.usesVec3,
    bodyType: body.text,
    call: `${reach.callee}(${['ctx.body', ...members.callArgs].join(', ')})`,
    resultKind: resultKind(returnType),
    runnerLabel: name,
    imports: [...reach.imports, ...(reach.script ? [] : body.imports), ...failureImports(ctx)],
    ...(reach.script ? { script: true } : {}),
    ...(ctx.failureLog !== undefined ? { failureLog: ctx.failureLog } : {}),
  });
}

/** `export async function craftItem(bot, itemName, quantity = 1)`: one capability, called by name. */
export const functionShape = defineShape({
  name: 'function',
  kind: 'function',
  detect: (_ctx, candidate) => isBotParam(candidate.params[0]),
  analyze: (ctx, candidate) =>
    wrapFunction(ctx, candidate, { shape: 'function', callee: candidate.name, imports: [{ name: candidate.name, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }] }),
});
