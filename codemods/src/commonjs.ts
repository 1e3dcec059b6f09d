// What a CommonJS module hands out (`module.exports = { a, b: c }`, `exports.x = …`), so shapes can tell an exported
// runner from a helper the generated file cannot import.
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

/** The declaration a CommonJS export names (`module.exports = { craft }` → `function craft`), or the inline value. */
function localTarget(file: SourceFile, value: Node): Node | undefined {
  if (!Node.isIdentifier(value)) return value;
  const name = value.getText();
  return file.getFunction(name) ?? file.getClass(name) ?? file.getVariableDeclaration(name)?.getInitializer();
}

/** What a CommonJS module exports: `module.exports = { a, b: c, async d() {} }`, `exports.x = …`, `module.exports.x = …`. */
export function commonJsExports(file: SourceFile): Map<Node, string> {
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
