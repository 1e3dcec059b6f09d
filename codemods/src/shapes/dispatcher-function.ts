// The function dispatcher shape: `export async function executeAction(bot, action) { switch (action.type) { … } }`,
// one capability per case, each calling the dispatcher with the case's action.
import { Node, type SwitchStatement } from 'ts-morph';
import { extensionOf, finding, isBotParam, resolveBody, resultKind, type Ctx, type ImportNeed } from '../shape.js';
import { pushCase, switchCases, typeSwitch, type RunnerLookup } from './dispatch-cases.js';
import { defineShape, type FunctionCandidate } from './shape-analyzer.js';

/** The `switch (action.type)` of a function taking exactly (bot, action), if it is one. */
function actionSwitch({ fn, params }: FunctionCandidate): SwitchStatement | undefined {
  const actionParam = params[1];
  if (params.length !== 2 || !actionParam || !Node.isIdentifier(actionParam.getNameNode())) return undefined;
  return typeSwitch(fn, actionParam.getName());
}

/** The functions of the file a case may call as its runner. */
function fileRunner(ctx: Ctx): RunnerLookup {
  return (call) => {
    const callee = call.getExpression();
    if (!Node.isIdentifier(callee)) return undefined;
    const declared = ctx.file.getFunction(callee.getText()) ?? ctx.file.getVariableDeclaration(callee.getText())?.getInitializer();
    if (!declared || !(Node.isFunctionDeclaration(declared) || Node.isArrowFunction(declared) || Node.isFunctionExpression(declared))) return undefined;
    return { name: callee.getText(), params: declared.getParameters(), node: declared };
  };
}

/** A free function `executeAction(bot, action)` that switches on `action.type`: one capability per case. */
function analyzeFunctionDispatcher(ctx: Ctx, candidate: FunctionCandidate): void {
  const { name, fn, params, line } = candidate;
  const switchStatement = actionSwitch(candidate)!;
  if (!candidate.exported) return finding(ctx, 'skipped', 'not_exported', name, line, 'a dispatcher that is not exported; export it to wrap its cases');
  const botName = params[0]!.getName();
  const actionType = ctx.language === 'ts' ? { actionType: `Parameters<typeof ${name}>[1]` } : {};
  const dispatch = { symbol: name, actionParam: params[1]!, switchStatement, lookup: fileRunner(ctx), isBotArg: (arg: Node) => arg.getText() === botName, ...actionType };
  const cases = switchCases(ctx, dispatch);
  const body = resolveBody(ctx, params[0]!.getTypeNode(), `Parameters<typeof ${name}>[0]`, extensionOf(ctx));
  for (const c of cases) {
    const imports: ImportNeed[] = [{ name, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }];
    pushCase(ctx, c, { symbol: name, via: name, call: `${name}(ctx.body, ${c.action})`, resultKind: resultKind(fn.getReturnType()), body, imports });
  }
}

/** A function taking the bot and an action, switching on `action.type` (asked before the plain function shape). */
export const functionDispatcherShape = defineShape({
  name: 'dispatcher (function)',
  kind: 'function',
  detect: (_ctx, candidate) => !candidate.isDefault && isBotParam(candidate.params[0]) && actionSwitch(candidate) !== undefined,
  analyze: analyzeFunctionDispatcher,
});
