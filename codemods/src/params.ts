import { Node, SyntaxKind, type CallExpression, type Expression, type ParameterDeclaration, type Type } from 'ts-morph';
import { docLiteral, functionDocblock, type DocParam, type Docblock } from './docblock.js';
import { fromDefault, fromUsage } from './infer.js';
import { appendCall, docTypeToZod } from './jsdoc-type.js';
import { deriveSchema, quote } from './schema.js';

/** One member of an input schema built from a parameter. */
export interface ParamMember {
  readonly name: string;
  readonly code: string;
  readonly optional: boolean;
  readonly defaultCode?: string;
  readonly usesVec3: boolean;
}

/** Where types come from besides the parameter itself: its function's docblock and hints (a command table's declared params). */
export interface ParamSources {
  readonly doc: Docblock | undefined;
  readonly hint?: (param: ParameterDeclaration) => ParamHint | undefined;
}

/** A schema for a parameter from somewhere else (a command table's declared param for the skill it calls). */
export interface ParamHint {
  readonly code: string;
  readonly optional: boolean;
}

function primitiveOf(type: Type | undefined): string | undefined {
  if (!type) return undefined;
  if (type.isString() || type.isStringLiteral()) return 'z.string()';
  if (type.isNumber() || type.isNumberLiteral()) return 'z.number()';
  if (type.isBoolean() || type.isBooleanLiteral()) return 'z.boolean()';
  return undefined;
}

/** The function a call reaches (through imports and namespace objects), if it is written in the project. */
export function calleeDeclaration(call: CallExpression): (Node & { getParameters(): ParameterDeclaration[] }) | undefined {
  let symbol = call.getExpression().getSymbol();
  if (symbol?.isAlias()) symbol = symbol.getAliasedSymbol();
  for (const decl of symbol?.getDeclarations() ?? []) {
    const fn = Node.isVariableDeclaration(decl) ? decl.getInitializer() : decl;
    if (fn && (Node.isFunctionDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) || Node.isMethodDeclaration(fn))) return fn;
  }
  return undefined;
}

/** The primitive schema of a call's parameter at `index`: its contextual type, else the callee's docblock or default. */
export function knownParamAt(call: Node, index: number): string | undefined {
  if (!Node.isCallExpression(call)) return undefined;
  const arg = call.getArguments()[index];
  const contextual = arg && Node.isExpression(arg) ? primitiveOf((arg as Expression).getContextualType()) : undefined;
  if (contextual) return contextual;
  const callee = calleeDeclaration(call);
  const target = callee?.getParameters()[index];
  if (!callee || !target) return literalElsewhere(call, index);
  const declared = primitiveOf(target.getType());
  if (declared) return declared;
  const docType = functionDocblock(callee, callee.getFirstAncestor((a) => Node.isVariableStatement(a)) ?? callee)?.params.get(target.getName())?.type;
  const fromDoc = docType === undefined ? undefined : docTypeToZod(docType, 'x');
  if (fromDoc && !fromDoc.unknown && /^z\.(string|number|boolean)\(\)$/.test(fromDoc.code)) return fromDoc.code;
  return fromDefault(target.getInitializer());
}

/** The docblock entry at a parameter's position, when the docblock lists every parameter. */
function positionalDoc(param: ParameterDeclaration, doc: Docblock | undefined): DocParam | undefined {
  const parent = param.getParent();
  const all = Node.isFunctionDeclaration(parent) || Node.isArrowFunction(parent) || Node.isFunctionExpression(parent) || Node.isMethodDeclaration(parent) ? parent.getParameters() : [];
  const entries = [...(doc?.params.values() ?? [])];
  return entries.length === all.length ? entries[all.indexOf(param)] : undefined;
}

const PRIMITIVE = /^z\.(string|number|boolean)\(\)$/;

/** For a function nothing declares (a runtime global): what a literal at the same position of another call to it, anywhere in the project, is. */
function literalElsewhere(call: CallExpression, index: number): string | undefined {
  const name = call.getExpression().getText();
  const kinds = new Set<string>();
  const calls = call.getProject().getSourceFiles().flatMap((file) => (file.getFullText().includes(name) ? file.getDescendantsOfKind(SyntaxKind.CallExpression) : []));
  for (const other of calls) {
    const arg = other.getExpression().getText() === name ? other.getArguments()[index] : undefined;
    const kind = arg && Node.isExpression(arg) ? fromDefault(arg as Expression) : undefined;
    if (kind) kinds.add(kind);
  }
  return kinds.size === 1 ? [...kinds][0] : undefined;
}

function isEmptyLiteral(init: Expression | undefined): boolean {
  if (!init) return false;
  if (Node.isArrayLiteralExpression(init)) return init.getElements().length === 0;
  return Node.isObjectLiteralExpression(init) && init.getProperties().length === 0;
}

/** The literal default as zod source (`1`, `'hand'`, `true`); null and empty literals are handled as optional. */
function literalDefault(init: Expression | undefined): string | undefined {
  if (!init) return undefined;
  if (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) return quote(init.getLiteralValue());
  return fromDefault(init) ? init.getText() : undefined;
}

/**
 * A parameter as a schema member. The checker's type first (TypeScript, JSDoc above the function); where it
 * knows nothing, the docblock (also one inside the body), a hint, the default's type, then how the body uses
 * it. `= null` makes it nullable and optional, `= []` / `= {}` optional (the function applies its own default).
 */
export function paramMember(param: ParameterDeclaration, index: number, at: Node, sources: ParamSources): ({ ok: true } & ParamMember) | { ok: false; reason: string } {
  const named = Node.isIdentifier(param.getNameNode());
  // A destructured parameter takes the name its docblock gives at its position (`@param {{keepGoing: boolean}} [options]`).
  const positional = named ? undefined : positionalDoc(param, sources.doc);
  const name = named ? param.getName() : (positional?.name ?? `arg${index + 1}`);
  const path = `args.${name}`;
  const derived = deriveSchema(param.getType(), at, path, '    ');
  if (!derived.ok) return derived;
  let { code, optional, usesVec3 } = derived;
  const doc = positional ?? sources.doc?.params.get(name);
  const init = param.getInitializer();
  // Untyped (JavaScript without JSDoc above, or inferred from the default only): the docblock and the code decide.
  const looseCode = code.includes('z.unknown()') || code === 'z.null()' || PRIMITIVE.test(code) || (!named && positional !== undefined);
  const untyped = param.getTypeNode() === undefined && looseCode;
  if (untyped) {
    const fromDoc = doc?.type === undefined ? undefined : docTypeToZod(doc.type, path);
    if (fromDoc && !fromDoc.unknown) {
      ({ code } = fromDoc);
      optional ||= fromDoc.optional;
      usesVec3 ||= fromDoc.usesVec3;
    } else {
      const hinted = sources.hint?.(param);
      optional ||= hinted?.optional ?? false;
      const inferred = hinted?.code ?? fromDefault(init) ?? fromUsage(param, knownParamAt);
      if (inferred) code = inferred;
      else if (fromDoc && !PRIMITIVE.test(code)) code = fromDoc.code; // a primitive the checker read from the code stands
      else if (code === 'z.null()') code = `z.unknown() /* sinew-codemod: ${path} defaults to null and nothing says its type; replace z.unknown() with its real schema */`;
    }
  }
  const isNull = init?.getKind() === SyntaxKind.NullKeyword || doc?.defaultText === 'null';
  if (doc?.description) code = appendCall(code, `.describe(${quote(doc.description)})`);
  if (isNull && !code.includes('.nullable()')) code = appendCall(code, '.nullable()');
  const defaultCode = isNull || isEmptyLiteral(init) ? undefined : (literalDefault(init) ?? (doc?.defaultText === undefined ? undefined : docLiteral(doc.defaultText)));
  optional ||= isNull || param.isOptional() || param.hasInitializer() || (doc?.optional ?? false);
  return { ok: true, name, code, optional, usesVec3, ...(defaultCode !== undefined ? { defaultCode } : {}) };
}
