// The leaf shape: a class with `spec = { name, description, inputSchema? }` and `run(ctx, args)`; its context is
// built from the RunContext (through the context file when it needs more), its input from the declared JSON
// Schema or the type of `args`.
import { Node, Scope, type ClassDeclaration, type ObjectLiteralExpression, type ParameterDeclaration, type Type, type TypeNode } from 'ts-morph';
import type { ContextAdapter } from '../context.js';
import { jsonSchemaSource, objectJsonSchema } from '../json-schema.js';
import { toCamelCase, toSnakeCase } from '../naming.js';
import { deriveSchema, quote } from '../schema.js';
import { adapterImports, construction, description, extensionOf, finding, isBotType, isPromiseLike, resolveBody, resultKind, type Ctx, type ImportNeed } from '../shape.js';
import { propertyValue } from './command.js';
import { defineShape } from './shape-analyzer.js';
/** The object literal a leaf's `spec` (instance or static) is initialised with. */
function specObject(cls: ClassDeclaration): ObjectLiteralExpression | undefined {
  const spec = cls.getInstanceProperty('spec') ?? cls.getStaticProperty('spec');
  const init = spec && Node.isPropertyDeclaration(spec) ? spec.getInitializer() : undefined;
  return init && Node.isObjectLiteralExpression(init) ? init : undefined;
}

function specProperty(cls: ClassDeclaration, key: string): Node | undefined {
  const spec = specObject(cls);
  return spec ? propertyValue(spec, key) : undefined;
}

function specFields(cls: ClassDeclaration): { name?: string; description?: string } {
  const init = specObject(cls);
  if (!init) return {};
  const read = (key: string) => {
    const prop = init.getProperty(key);
    const value = prop && Node.isPropertyAssignment(prop) ? prop.getInitializer() : undefined;
    return value && (Node.isStringLiteral(value) || Node.isNoSubstitutionTemplateLiteral(value)) ? value.getLiteralValue() : undefined;
  };
  const name = read('name');
  const text = read('description');
  return { ...(name !== undefined ? { name } : {}), ...(text !== undefined ? { description: text } : {}) };
}

const CONTEXT_FIELDS: Record<string, string> = { signal: 'ctx.signal', abortSignal: 'ctx.signal' };
// What else a RunContext has, for leaf contexts mapped through the context file (`now` is a method there).
const RICH_FIELDS: Record<string, string> = {
  now: '() => ctx.now()',
  clock: '() => ctx.now()',
  log: 'ctx.log',
  logger: 'ctx.log',
  progress: '() => ctx.progress()',
  reportProgress: '() => ctx.progress()',
  heartbeat: '() => ctx.progress()',
  blackboard: 'ctx.blackboard',
};


/** `toLeafContext(ctx)` in the context file: the fields a RunContext has are mapped, the rest throw their name when read. */
function leafContextAdapter(ctx: Ctx, cls: ClassDeclaration, ctxParam: ParameterDeclaration, fields: readonly string[], missing: readonly string[], botType: { text: string; imports: ImportNeed[] }): ContextAdapter {
  const typeNode = ctxParam.getTypeNode();
  const named = typeNode && Node.isTypeReference(typeNode) && typeNode.getTypeArguments().length === 0 ? typeNode.getText() : undefined;
  const contextType = named ? resolveBody(ctx, typeNode, named, extensionOf(ctx)) : { text: `Parameters<${cls.getName()!}['run']>[0]`, imports: [{ name: cls.getName()!, from: { kind: 'file' as const, path: ctx.sourceModule }, typeOnly: true }] };
  const name = `to${named ?? `${cls.getName()!}Context`}`;
  const doc = `The ${named ?? `${cls.getName()!} context`} a wrapped leaf's run(ctx, args) receives, built from the executor's RunContext.`;
  const lines = (getter: (field: string) => string) => [...fields.map((f) => `    ${f},`), ...missing.map(getter)].join('\n');
  const getterTs = (field: string) => `    get ${field}(): never {\n      return unmapped(${quote(field)}, ${quote(name)});\n    },`;
  const getterJs = (field: string) => `    get ${field}() {\n      return unmapped(${quote(field)}, ${quote(name)});\n    },`;
  return {
    name,
    ts: `/** ${doc} */\nexport function ${name}(ctx: RunContext<${botType.text}>): ${contextType.text} {\n  return {\n${lines(getterTs)}\n  };\n}`,
    js: `/**\n * ${doc}\n * @param {import('@sinew/executor-contracts').RunContext<any>} ctx\n */\nexport function ${name}(ctx) {\n  return {\n${lines(getterJs)}\n  };\n}`,
    imports: [...contextType.imports, ...botType.imports].map((need) => ({ ...need, typeOnly: true })),
  };
}

/** The fields of a leaf context: the bot, what RunContext maps directly, what it maps through the context file, what it lacks. */
function contextFields(method: Node, contextType: Type): { fields: string[]; rich: string[]; missing: string[]; botField?: { name: string; typeNode: TypeNode | undefined } } {
  const fields: string[] = [];
  let botField: { name: string; typeNode: TypeNode | undefined } | undefined;
  const rich: string[] = [];
  const missing: string[] = [];
  for (const property of contextType.getProperties()) {
    const name = property.getName();
    const decl = property.getValueDeclaration() ?? property.getDeclarations()[0];
    const typeNode = decl && (Node.isPropertySignature(decl) || Node.isPropertyDeclaration(decl)) ? decl.getTypeNode() : undefined;
    if (!botField && isBotType(property.getTypeAtLocation(method), typeNode, name)) {
      botField = { name, typeNode };
      fields.push(`${name}: ctx.body`);
    } else if (CONTEXT_FIELDS[name]) {
      fields.push(`${name}: ${CONTEXT_FIELDS[name]}`);
    } else if (RICH_FIELDS[name]) {
      // `now: () => number` or `now: number`: RunContext's clock is a method either way.
      const callable = property.getTypeAtLocation(method).getCallSignatures().length > 0;
      const mapped = RICH_FIELDS[name].startsWith('() => ') && !callable ? RICH_FIELDS[name].slice(6) : RICH_FIELDS[name];
      rich.push(`${name}: ${mapped}`);
    } else if (!property.isOptional()) {
      missing.push(name);
    }
  }
  return { fields, rich, missing, ...(botField ? { botField } : {}) };
}

function analyzeLeaf(ctx: Ctx, cls: ClassDeclaration): void {
  const className = cls.getName();
  const method = cls.getInstanceMethodOrThrow('run');
  const line = method.getStartLineNumber();
  const symbol = `${className ?? '<anonymous class>'}.run`;
  if (!className) return finding(ctx, 'skipped', 'not_exported', symbol, line, 'anonymous class; name it to wrap it');
  if (ctx.commonJs && ctx.commonJs.get(cls) !== className) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `not in module.exports under its own name; add \`${className}\` to module.exports to wrap it`);
  }
  if (method.getScope() === Scope.Private || method.getScope() === Scope.Protected) {
    return finding(ctx, 'skipped', 'not_exported', symbol, line, `run() is ${method.getScope()!}; the generated code cannot call it`);
  }
  const [ctxParam, argsParam, ...extra] = method.getParameters();
  if (!ctxParam || extra.length > 0 || argsParam?.isRestParameter()) {
    return finding(ctx, 'skipped', 'unmappable_context', symbol, line, 'run() is not run(ctx, args)');
  }
  if (method.getOverloads().length > 0) return finding(ctx, 'unsafe', 'overloaded', symbol, line, 'run() is overloaded; wrap one overload by hand');
  const returnType = method.getReturnType();
  if (!isPromiseLike(returnType)) return finding(ctx, 'skipped', 'not_async', symbol, line, `run() is synchronous (returns ${returnType.getText(method)})`);
  const contextType = ctxParam.getType();
  if (contextType.isAny() || contextType.isUnknown()) {
    const written = ctxParam.getTypeNode()?.getText();
    const reason =
      written && !['any', 'unknown'].includes(written)
        ? `the leaf context type ${written} did not resolve (its declaration is missing: install the project's dependencies, e.g. npm install, and run again)`
        : `the leaf context is typed ${contextType.getText()}: cannot tell where the bot goes; give run()'s context a type with the bot in it`;
    return finding(ctx, 'skipped', 'unmappable_context', symbol, line, reason);
  }
  const { fields, rich, missing, botField } = contextFields(method, contextType);
  if (!botField) return finding(ctx, 'skipped', 'no_bot', symbol, line, 'the leaf context has no bot field');
  const botType = resolveBody(ctx, botField.typeNode, `Parameters<${className}['run']>[0]['${botField.name}']`, extensionOf(ctx));
  // A context richer than RunContext goes through the context file, written once for the user to complete.
  const contextAdapter = missing.length > 0 || rich.length > 0 ? leafContextAdapter(ctx, cls, ctxParam, [...fields, ...rich], missing, botType) : undefined;
  const built = construction(ctx, cls, symbol, line, false);
  if (!built) return;
  const spec = specFields(cls);
  const verb = toSnakeCase(spec.name ?? className.replace(/Leaf$/, ''));
  let schema = 'z.strictObject({})';
  let usesVec3 = false;
  let argsExpr = '';
  const declared = objectJsonSchema(specProperty(cls, 'inputSchema'));
  if (declared) {
    // The leaf declares the JSON Schema its callers see: that, closed, is the input (zod parses it at load).
    schema = jsonSchemaSource(declared, '  ');
    argsExpr = !argsParam ? '' : ctx.language === 'ts' ? `, args as Parameters<${className}['run']>[1]` : ', args';
  } else if (argsParam) {
    const derived = deriveSchema(argsParam.getType(), method, 'args', '  ');
    if (!derived.ok) return finding(ctx, 'skipped', 'unsupported_type', symbol, line, derived.reason);
    schema = derived.code;
    usesVec3 = derived.usesVec3;
    argsExpr = ', args';
  }
  const body = botType;
  const factory = `${toCamelCase(className)}For`;
  const adapters = [contextAdapter, built.adapter].filter((a): a is ContextAdapter => a !== undefined);
  const runContext = contextAdapter ? `${contextAdapter.name}(ctx)` : `{ ${fields.join(', ')} }`;
  ctx.out.capabilities.push({
    verb,
    aliases: [],
    exportName: `${toCamelCase(verb)}Capability`,
    description: spec.description ?? description(cls, `Runs the ${className} leaf (wrapped by sinew-codemod).`),
    shape: 'leaf',
    symbol,
    line,
    file: ctx.file.getFilePath(),
    schema,
    usesVec3,
    bodyType: body.text,
    call: `${factory}(ctx.body).run(${runContext}${argsExpr})`,
    resultKind: resultKind(returnType),
    runnerLabel: className,
    imports: [{ name: className, from: { kind: 'file', path: ctx.sourceModule }, typeOnly: false }, ...body.imports, ...adapters.flatMap((a) => adapterImports(ctx, a))],
    instance: { factory, className, construct: built.construct },
    ...(adapters.length > 0 ? { adapters } : {}),
  });
  if (!cls.isExported()) ctx.out.mustExport.push(cls);
}

/** A class with a `spec` (instance or static) and `run(ctx, args)`. */
export const leafShape = defineShape({
  name: 'leaf',
  kind: 'class',
  detect: (_ctx, { cls }) => cls.getInstanceMethod('run') !== undefined && (cls.getInstanceProperty('spec') ?? cls.getStaticProperty('spec')) !== undefined,
  analyze: (ctx, { cls }) => analyzeLeaf(ctx, cls),
});
