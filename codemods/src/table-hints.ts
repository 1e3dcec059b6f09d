import { Node, type ParameterDeclaration, type SourceFile } from 'ts-morph';
import { commandParam, isCommandEntry, propertyValue, unwrapRunner } from './shapes/command.js';
import { calleeDeclaration, type ParamHint } from './params.js';

/**
 * Types that command tables give the skills they call: an entry declares `params: { item: { type: 'string' } }`
 * and its perform passes `item` on (`skills.craft(agent.bot, item, count)`), so `craft`'s parameter at that
 * position is a string even when nothing in the skill's own file says so. Keyed by the skill's parameter.
 */
export function commandTableHints(files: readonly SourceFile[], wrappers: readonly string[]): Map<ParameterDeclaration, ParamHint> {
  const hints = new Map<ParameterDeclaration, ParamHint>();
  for (const file of files) {
    for (const array of file.getDescendants().filter(Node.isArrayLiteralExpression)) {
      const entries = array.getElements();
      if (entries.length === 0 || !entries.every(isCommandEntry)) continue;
      for (const entry of entries) if (Node.isObjectLiteralExpression(entry)) hintsOfEntry(entry, wrappers, hints);
    }
  }
  return hints;
}

function hintsOfEntry(entry: Node, wrappers: readonly string[], hints: Map<ParameterDeclaration, ParamHint>): void {
  if (!Node.isObjectLiteralExpression(entry)) return;
  const written = propertyValue(entry, 'perform');
  const perform = written && unwrapRunner(written, wrappers);
  const declared = propertyValue(entry, 'params');
  if (!perform || !declared || !Node.isObjectLiteralExpression(declared)) return;
  const keys = declared.getProperties().filter(Node.isPropertyAssignment);
  const byName = new Map<string, ParamHint>();
  for (const [index, param] of perform.getParameters().slice(1).entries()) {
    const key = keys[index];
    if (!key) break;
    const { code, optional } = commandParam(key.getName().replace(/^['"]|['"]$/g, ''), key.getInitializer());
    if (!code.startsWith('z.unknown()')) byName.set(param.getName(), { code, optional });
  }
  for (const call of perform.getDescendants().filter(Node.isCallExpression)) {
    const callee = calleeDeclaration(call);
    if (!callee) continue;
    for (const [index, arg] of call.getArguments().entries()) {
      const hint = Node.isIdentifier(arg) ? byName.get(arg.getText()) : undefined;
      const target = callee.getParameters()[index];
      if (hint && target && !hints.has(target)) hints.set(target, hint);
    }
  }
}
