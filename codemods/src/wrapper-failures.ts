// What a higher-order wrapper (`perform: runAsAction(fn)`) returns when the action did not happen. Such wrappers
// return text for the model instead of throwing ("Action failed. …", "Action threw: …", "Busy with …"); read
// from the wrapper's own code, these texts let the generated capability end the step failed with that text.
import { Node, SyntaxKind, type CallExpression, type ParameterDeclaration } from 'ts-morph';

/**
 * Why the wrapper returned a failure text: the wrapped function returned false (`returned_false`: it ran and
 * says the effect did not happen), threw (`threw`), was never called (`refused`: busy, throttled), or was interrupted.
 */
export type WrapperFailureWhen = 'returned_false' | 'threw' | 'refused' | 'interrupted';

/** A failure text a wrapper builds: its fixed beginning, and why it is returned. */
export interface WrapperFailure {
  readonly prefix: string;
  readonly when: WrapperFailureWhen;
}

type FunctionLike = Node & { getParameters(): ParameterDeclaration[] };

function isFunctionLike(node: Node): node is FunctionLike {
  return Node.isFunctionDeclaration(node) || Node.isFunctionExpression(node) || Node.isArrowFunction(node) || Node.isMethodDeclaration(node);
}

/** The failure texts of every known wrapper around a `perform` (`throttled(2000, runAsAction(fn))` has both), outermost first. */
export function wrapperFailures(perform: Node, wrappers: readonly string[]): WrapperFailure[] {
  if (!Node.isCallExpression(perform)) return [];
  const callee = perform.getExpression();
  const name = Node.isPropertyAccessExpression(callee) ? callee.getName() : callee.getText();
  if (!wrappers.includes(name) && !wrappers.includes(callee.getText())) return [];
  const inner = perform.getArguments().find((arg) => Node.isCallExpression(arg));
  return [...failuresOf(perform), ...(inner ? wrapperFailures(inner, wrappers) : [])];
}

/** The failure texts of the wrapper a call names, read from its declaration (none when it is not in the inputs). */
function failuresOf(call: CallExpression): WrapperFailure[] {
  const symbol = call.getExpression().getSymbol();
  const declared = (symbol?.isAlias() ? symbol.getAliasedSymbol() : symbol)?.getDeclarations()[0];
  const wrapper = declared && Node.isVariableDeclaration(declared) ? declared.getInitializer() : declared;
  if (!wrapper || !isFunctionLike(wrapper)) return [];
  const taken = new Set(wrapper.getParameters().map((p) => p.getName()));
  const found: WrapperFailure[] = [];
  for (const fn of [wrapper, ...wrapper.getDescendants().filter(isFunctionLike)]) {
    const action = ownCalls(fn).find((c) => taken.has(c.getExpression().getText()));
    if (action) found.push(...classifyReturns(fn, action));
  }
  return found.filter((f, i) => found.findIndex((g) => g.prefix === f.prefix) === i);
}

/** Nodes of `kind` whose nearest enclosing function is `fn` (not a nested one). */
function own<T extends Node>(fn: Node, nodes: readonly T[]): T[] {
  return nodes.filter((node) => node.getFirstAncestor(isFunctionLike) === fn);
}

function ownCalls(fn: Node): CallExpression[] {
  return own(fn, fn.getDescendantsOfKind(SyntaxKind.CallExpression));
}

/** The returns of the function that calls the wrapped action, classified by where they stand relative to that call. */
function classifyReturns(fn: Node, action: CallExpression): WrapperFailure[] {
  const result = resultName(action);
  const found: WrapperFailure[] = [];
  for (const ret of own(fn, fn.getDescendantsOfKind(SyntaxKind.ReturnStatement))) {
    const prefix = staticPrefix(ret.getExpression());
    if (prefix === undefined) continue;
    const when = whenReturned(ret, action, result);
    if (when) found.push({ prefix, when });
  }
  return found;
}

/** `const result = await actionFn(…)`: the name the action's result is kept under. */
function resultName(action: CallExpression): string | undefined {
  const holder = action.getParentWhile((node) => Node.isAwaitExpression(node) || Node.isParenthesizedExpression(node));
  const decl = (holder ?? action).getParent();
  return decl && Node.isVariableDeclaration(decl) && (decl.getInitializer() === holder || decl.getInitializer() === action) ? decl.getName() : undefined;
}

const INTERRUPTED = /interrupt|abort|cancel/i;

function whenReturned(ret: Node, action: CallExpression, result: string | undefined): WrapperFailureWhen | undefined {
  if (ret.getFirstAncestorByKind(SyntaxKind.CatchClause)) return 'threw';
  const branch = ret.getFirstAncestorByKind(SyntaxKind.IfStatement);
  if (!branch) return undefined;
  if (ret.getStart() < action.getStart()) return 'refused';
  const condition = branch.getExpression().getText().replace(/\s+/g, '');
  if (result !== undefined && isFalseTest(condition, result)) return 'returned_false';
  return INTERRUPTED.test(condition) ? 'interrupted' : undefined;
}

/** `!r`, `r === false`, `r == false`, `!r.success`, `r.success === false` (and `?.`). */
function isFalseTest(condition: string, result: string): boolean {
  const r = result.replace(/\$/g, '\\$');
  return new RegExp(`^(?:!${r}(?:\\??\\.success)?|${r}(?:\\??\\.success)?===?false|false===?${r}(?:\\??\\.success)?)$`).test(condition);
}

/** The fixed beginning of a returned text: a literal, a template's head, a `'…' + x`, or any of them `.trim()`med. */
function staticPrefix(value: Node | undefined): string | undefined {
  if (!value) return undefined;
  let text: string | undefined;
  if (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) text = value.getLiteralValue();
  else if (Node.isTemplateExpression(value)) text = value.getHead().getLiteralText();
  else if (Node.isBinaryExpression(value) && value.getOperatorToken().getText() === '+') return staticPrefix(value.getLeft());
  else if (Node.isParenthesizedExpression(value)) return staticPrefix(value.getExpression());
  else if (Node.isCallExpression(value)) {
    const callee = value.getExpression();
    return Node.isPropertyAccessExpression(callee) && /^trim(Start)?$/.test(callee.getName()) ? staticPrefix(callee.getExpression()) : undefined;
  }
  const trimmed = text?.trim();
  return trimmed ? trimmed : undefined;
}
