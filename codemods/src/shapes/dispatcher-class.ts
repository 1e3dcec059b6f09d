// The class dispatcher shape: a class whose `executeAction(action)` does `switch (action.type)` and calls its own
// methods; one capability per case, through one instance per bot.
import { Node, Scope, SyntaxKind } from 'ts-morph';
import { toCamelCase } from '../naming.js';
import { adapterImports, construction, extensionOf, finding, resolveBody, resultKind, type Ctx } from '../shape.js';
import { pushCase, switchCases, typeSwitch, type RunnerLookup } from './dispatch-cases.js';
import { defineShape, type ClassCandidate } from './shape-analyzer.js';

function analyzeDispatcher(ctx: Ctx, { cls }: ClassCandidate): void {
  const className = cls.getName();
  const method = cls.getInstanceMethodOrThrow('executeAction');
  const line = method.getStartLineNumber();
  const symbol = `${className ?? '<anonymous class>'}.executeAction`;
  if (!className) return finding(ctx, 'skipped', 'not_exported', symbol, line, 'anonymous class; name it to wrap it');
  if (ctx.commonJs && ctx.commonJs.get(cls) !== className) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `not in module.exports under its own name; add \`${className}\` to module.exports to wrap it`);
  }
  if (method.getScope() === Scope.Private || method.getScope() === Scope.Protected) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `executeAction is ${method.getScope()!}; the generated code cannot call it`);
  }
  const actionParam = method.getParameters()[0];
  if (!actionParam || !Node.isIdentifier(actionParam.getNameNode())) {
    return finding(ctx, 'skipped', 'dynamic_dispatch', symbol, line, 'executeAction has no named action parameter');
  }
  const switchStatement = typeSwitch(method, actionParam.getName());
  if (!switchStatement) {
    return finding(ctx, 'unsafe', 'dynamic_dispatch', symbol, line, `does not switch on ${actionParam.getName()}.type (dynamic dispatch): which verbs it handles is a guess; wrap by hand`);
  }
  const built = construction(ctx, cls, symbol, line, true);
  if (!built) return;
  const body = resolveBody(ctx, built.botParam?.getTypeNode(), `ConstructorParameters<typeof ${className}>[0]`, extensionOf(ctx));
  const factory = `${toCamelCase(className)}For`;
  const lookup: RunnerLookup = (call) => {
    const callee = call.getExpression();
    if (!Node.isPropertyAccessExpression(callee) || callee.getExpression().getKind() !== SyntaxKind.ThisKeyword) return undefined;
    const runner = cls.getInstanceMethod(callee.getName());
    return runner ? { name: `this.${callee.getName()}`, params: runner.getParameters(), node: runner } : undefined;
  };
  const actionType = ctx.language === 'ts' ? { actionType: `Parameters<${className}['executeAction']>[0]` } : {};
  const cases = switchCases(ctx, { symbol, actionParam, switchStatement, lookup, isBotArg: (arg) => arg.getText().startsWith('this.'), ...actionType });
  for (const c of cases) {
    pushCase(ctx, c, {
      symbol,
      via: `${className}.executeAction`,
      call: `${factory}(ctx.body).executeAction(${c.action})`,
      resultKind: resultKind(method.getReturnType()),
      body,
      imports: [{ name: className, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }, ...adapterImports(ctx, built.adapter)],
      instance: { factory, className, construct: built.construct },
      ...(built.adapter ? { adapters: [built.adapter] } : {}),
    });
  }
  if (cases.length > 0 && !cls.isExported() && !ctx.commonJs) ctx.out.mustExport.push(cls);
}


/** `class ActionExecutor { executeAction(action) { switch (action.type) { … } } }`. */
export const classDispatcherShape = defineShape({
  name: 'dispatcher (class)',
  kind: 'class',
  detect: (_ctx, { cls }) => cls.getInstanceMethod('executeAction') !== undefined,
  analyze: analyzeDispatcher,
});
