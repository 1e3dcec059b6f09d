import { Node, SyntaxKind, type Expression, type ParameterDeclaration } from 'ts-morph';

/** What a value's zod schema is, as far as the code around it tells. */
export type Inferred = 'z.string()' | 'z.number()' | 'z.boolean()';

const NUMERIC_OPERATORS = new Set(['-', '*', '/', '%', '**', '<', '>', '<=', '>=', '-=', '*=', '/=']);
const EQUALITY = new Set(['===', '!==', '==', '!=']);
const STRING_METHODS = new Set(['toLowerCase', 'toUpperCase', 'startsWith', 'endsWith', 'split', 'trim', 'replace', 'replaceAll', 'padStart', 'padEnd', 'localeCompare', 'charAt']);
const NUMBER_METHODS = new Set(['toFixed', 'toPrecision']);

/** The schema a literal default implies (`= 1` → number, `= 'hand'` → string). */
export function fromDefault(init: Expression | undefined): Inferred | undefined {
  if (!init) return undefined;
  if (Node.isNumericLiteral(init) || (Node.isPrefixUnaryExpression(init) && Node.isNumericLiteral(init.getOperand()))) return 'z.number()';
  if (Node.isStringLiteral(init) || Node.isNoSubstitutionTemplateLiteral(init)) return 'z.string()';
  if (init.getKind() === SyntaxKind.TrueKeyword || init.getKind() === SyntaxKind.FalseKeyword) return 'z.boolean()';
  return undefined;
}

function literalKind(node: Node): Inferred | undefined {
  return fromDefault(node as Expression);
}

/**
 * The type a parameter's uses imply when nothing declares one: compared with a string or a number, used in
 * arithmetic, called with a string or number method, or passed where `paramAt` knows the parameter type
 * (a function of the same file, a table's declared params). Conflicting evidence gives nothing.
 */
export function fromUsage(param: ParameterDeclaration, paramAt: (call: Node, index: number) => string | undefined): string | undefined {
  const name = param.getName();
  const body = param.getParentOrThrow();
  const found = new Set<string>();
  for (const ref of body.getDescendantsOfKind(SyntaxKind.Identifier)) {
    if (ref.getText() !== name || ref === param.getNameNode()) continue;
    const evidence = usage(ref, paramAt);
    if (evidence) found.add(evidence);
  }
  return found.size === 1 ? [...found][0] : undefined;
}

function usage(ref: Node, paramAt: (call: Node, index: number) => string | undefined): string | undefined {
  const parent = ref.getParent();
  if (!parent) return undefined;
  if (Node.isBinaryExpression(parent)) {
    const operator = parent.getOperatorToken().getText();
    const other = parent.getLeft() === ref ? parent.getRight() : parent.getLeft();
    if (NUMERIC_OPERATORS.has(operator)) return 'z.number()';
    if (EQUALITY.has(operator) || operator === '+' || operator === '+=') return operator.startsWith('+') && literalKind(other) !== 'z.number()' ? undefined : literalKind(other);
    return undefined;
  }
  if ((Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent)) && ['++', '--', '-'].includes(parent.getText().replace(/[\w$.]/g, ''))) return 'z.number()';
  if (Node.isPropertyAccessExpression(parent) && parent.getExpression() === ref) {
    if (STRING_METHODS.has(parent.getName())) return 'z.string()';
    if (NUMBER_METHODS.has(parent.getName())) return 'z.number()';
    return undefined;
  }
  if (Node.isCallExpression(parent) && parent.getArguments().includes(ref)) return paramAt(parent, parent.getArguments().indexOf(ref));
  if (Node.isCaseClause(parent)) return literalKind(parent.getExpression());
  if (Node.isSwitchStatement(parent)) {
    const kinds = new Set(parent.getClauses().flatMap((c) => (Node.isCaseClause(c) ? [literalKind(c.getExpression())] : [])));
    return kinds.size === 1 ? [...kinds][0] : undefined;
  }
  return undefined;
}
