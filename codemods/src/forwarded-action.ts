import { Node, SyntaxKind, type ParameterDeclaration, type Type } from 'ts-morph';
import { deriveSchema, objectSchemaSource } from './schema.js';

/** Where a forwarded action keeps its arguments: `action.parameters.x`, `action.args.x`, `action.params.x`, or on the action itself. */
const CONTAINERS = ['parameters', 'args', 'params', 'arguments'];

/** The input of a case that hands the whole action to a method: the fields that method reads, and under which key. */
export type ForwardedInput = { ok: true; schema: string; usesVec3: boolean; container: string } | { ok: false; reason: string };

interface Field {
  name: string;
  code: string;
  optional: boolean;
}

function isLoose(type: Type): boolean {
  if (type.isAny() || type.isUnknown()) return true;
  const index = type.getStringIndexType();
  return index !== undefined && (index.isAny() || index.isUnknown());
}

/** The fields of a declared action type: its container's properties, or its own besides `type`. */
function declaredFields(type: Type, at: Node): { fields: Field[]; container: string; usesVec3: boolean } | { reason: string } | undefined {
  const holder = CONTAINERS.map((name) => ({ name, property: type.getProperty(name) })).find((c) => c.property);
  const target = holder ? holder.property!.getTypeAtLocation(at) : type;
  if (isLoose(target) || (!holder && target.getProperties().every((p) => p.getName() === 'type'))) return undefined;
  const fields: Field[] = [];
  let usesVec3 = false;
  for (const property of target.getProperties()) {
    if (!holder && property.getName() === 'type') continue;
    const derived = deriveSchema(property.getTypeAtLocation(at), at, `args.${property.getName()}`, '    ');
    if (!derived.ok) return { reason: derived.reason };
    usesVec3 ||= derived.usesVec3;
    fields.push({ name: property.getName(), code: derived.code, optional: derived.optional || property.isOptional() });
  }
  return { fields, container: holder?.name ?? '', usesVec3 };
}

/** The schema of one read (`action.parameters.x as number`): its cast, else a marked z.unknown(); optional when cast so or given a fallback (`?? 20`). */
function readSchema(node: Node, name: string, at: Node): { code: string; optional: boolean } {
  let outer: Node = node;
  let cast: Type | undefined;
  for (let parent = outer.getParent(); parent && (Node.isAsExpression(parent) || Node.isParenthesizedExpression(parent)); parent = outer.getParent()) {
    if (Node.isAsExpression(parent)) cast = parent.getType();
    outer = parent;
  }
  const parent = outer.getParent();
  const fallback = parent !== undefined && Node.isBinaryExpression(parent) && parent.getLeft() === outer && ['??', '||'].includes(parent.getOperatorToken().getText());
  const derived = cast ? deriveSchema(cast, at, `args.${name}`, '    ') : undefined;
  if (derived?.ok) return { code: derived.code, optional: derived.optional || fallback };
  return { code: `z.unknown() /* sinew-codemod: args.${name} is read without a type; replace z.unknown() with its real schema */`, optional: fallback };
}

/** The fields a method body reads off its action parameter, by container. */
function readFields(method: Node, param: string): { fields: Field[]; container: string } | { reason: string } {
  const found = new Map<string, Map<string, Field>>();
  const add = (container: string, name: string, code: string, optional: boolean) => {
    const fields = found.get(container) ?? new Map<string, Field>();
    const known = fields.get(name);
    if (!known || known.code.startsWith('z.unknown()')) fields.set(name, { name, code: known && code.startsWith('z.unknown()') ? known.code : code, optional: optional || (known?.optional ?? false) });
    found.set(container, fields);
  };
  // `const params = action.parameters` makes `params.x` a read of the container too.
  const aliases = new Map<string, string>();
  for (const decl of method.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const container = CONTAINERS.find((c) => decl.getInitializer()?.getText() === `${param}.${c}`);
    if (container && Node.isIdentifier(decl.getNameNode())) aliases.set(decl.getName(), container);
  }
  for (const access of method.getDescendantsOfKind(SyntaxKind.PropertyAccessExpression)) {
    const path = access.getText().split('.');
    const alias = aliases.get(path[0]!);
    const read = (container: string, name: string) => {
      const { code, optional } = readSchema(access, name, method);
      add(container, name, code, optional);
    };
    if (alias !== undefined && path.length === 2) read(alias, path[1]!);
    if (path[0] !== param) continue;
    if (path.length === 3 && CONTAINERS.includes(path[1]!)) read(path[1]!, path[2]!);
    else if (path.length === 2 && !CONTAINERS.includes(path[1]!) && path[1] !== 'type') read('', path[1]!);
  }
  for (const binding of method.getDescendantsOfKind(SyntaxKind.ObjectBindingPattern)) {
    const init = binding.getParent();
    const from = init && Node.isVariableDeclaration(init) ? init.getInitializer()?.getText() : undefined;
    const container = from === param ? '' : CONTAINERS.find((c) => from === `${param}.${c}`);
    if (container === undefined) continue;
    for (const element of binding.getElements()) {
      const name = element.getPropertyNameNode()?.getText() ?? element.getName();
      if (name === 'type' && container === '') continue;
      add(container, name, `z.unknown() /* sinew-codemod: args.${name} is read without a type; replace z.unknown() with its real schema */`, element.hasInitializer());
    }
  }
  const containers = [...found.keys()];
  if (containers.length > 1) return { reason: `reads fields of ${param} and of ${param}.${containers.filter(Boolean).join('/')}: where a planner puts them is a guess` };
  const container = containers[0] ?? '';
  return { fields: [...(found.get(container)?.values() ?? [])], container };
}

/**
 * A case that passes the whole action on (`return this.executeNavigate(action as NavigateAction)`): the input
 * comes from the action's declared type where it has one, else from the fields the method reads off it.
 */
export function forwardedActionInput(method: Node, param: ParameterDeclaration, cast: Type | undefined): ForwardedInput {
  const declared = declaredFields(cast ?? param.getType(), param);
  if (declared && 'reason' in declared) return { ok: false, reason: declared.reason };
  const input = declared ?? readFields(method, param.getName());
  if ('reason' in input) return { ok: false, reason: input.reason };
  const usesVec3 = declared?.usesVec3 ?? false;
  return { ok: true, schema: objectSchemaSource(input.fields, '  '), usesVec3, container: input.container };
}
