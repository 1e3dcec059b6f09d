import { Node } from 'ts-morph';

/** The value of a plain literal (objects, arrays, strings, numbers, booleans, null, `as const`, a const it names); undefined otherwise. */
export function literalValue(node: Node, depth = 0): unknown {
  if (depth > 32) return undefined;
  if (Node.isAsExpression(node) || Node.isSatisfiesExpression(node) || Node.isParenthesizedExpression(node)) return literalValue(node.getExpression(), depth + 1);
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  if (Node.isNumericLiteral(node)) return node.getLiteralValue();
  if (Node.isPrefixUnaryExpression(node) && Node.isNumericLiteral(node.getOperand()) && node.getText().startsWith('-')) return -node.getOperand().getText();
  if (Node.isTrueLiteral(node)) return true;
  if (Node.isFalseLiteral(node)) return false;
  if (Node.isNullLiteral(node)) return null;
  if (Node.isIdentifier(node)) {
    const decl = node.getSymbol()?.getValueDeclaration();
    const init = decl && Node.isVariableDeclaration(decl) ? decl.getInitializer() : undefined;
    return init ? literalValue(init, depth + 1) : undefined;
  }
  if (Node.isArrayLiteralExpression(node)) {
    const values = node.getElements().map((e) => literalValue(e, depth + 1));
    return values.some((v) => v === undefined) ? undefined : values;
  }
  if (Node.isObjectLiteralExpression(node)) {
    const out: Record<string, unknown> = {};
    for (const property of node.getProperties()) {
      if (!Node.isPropertyAssignment(property)) return undefined;
      const value = literalValue(property.getInitializerOrThrow(), depth + 1);
      if (value === undefined) return undefined;
      out[property.getName().replace(/^['"]|['"]$/g, '')] = value;
    }
    return out;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The same JSON Schema with every object that does not say otherwise closed (`additionalProperties: false`): unknown keys are errors. */
export function strictJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(strictJsonSchema);
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = key === 'enum' || key === 'const' || key === 'default' ? value : strictJsonSchema(value);
  if (out.type === 'object' && !('additionalProperties' in out)) out.additionalProperties = false;
  return out;
}

/** A JSON Schema object literal (`{ type: 'object', properties: … }`) as its value, if the node is one. */
export function objectJsonSchema(node: Node | undefined): Record<string, unknown> | undefined {
  const value = node ? literalValue(node) : undefined;
  return isRecord(value) && value.type === 'object' ? value : undefined;
}

/** zod source for a JSON Schema: zod 4's own converter on the closed schema, laid out at `indent`. */
export function jsonSchemaSource(schema: Record<string, unknown>, indent: string): string {
  const json = JSON.stringify(strictJsonSchema(schema), null, 2).replace(/\n/g, `\n${indent}`);
  return `z.fromJSONSchema(${json})`;
}
