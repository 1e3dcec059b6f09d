// Finds the runner shapes in one file: enumerates its candidates (top-level functions, `const` tables, classes) in
// file order and hands each to the first shape that detects it (shapes/*.ts, one file per shape).
import { Node, type SourceFile } from 'ts-morph';
import { commonJsExports } from './commonjs.js';
import { failureSourceOf } from './failure.js';
import { isScriptFile, scriptGlobals } from './script.js';
import { type AnalyzeOptions, type Ctx, type FileAnalysis } from './shape.js';
import { commandShape, DEFAULT_UNWRAP } from './shapes/command.js';
import { classDispatcherShape } from './shapes/dispatcher-class.js';
import { functionDispatcherShape } from './shapes/dispatcher-function.js';
import { functionShape } from './shapes/function.js';
import { leafShape } from './shapes/leaf.js';
import { scriptShape } from './shapes/script.js';
import type { Candidate, ShapeAnalyzer } from './shapes/shape-analyzer.js';

/** The shapes, in the order they are asked: a dispatcher before a plain function, a script's functions before exported ones. */
const SHAPES: readonly ShapeAnalyzer[] = [functionDispatcherShape, scriptShape, functionShape, commandShape, classDispatcherShape, leafShape];

/** Finds the runner shapes in a file. Never edits it; `mustExport` lists the edits needed. */
export function analyzeFile(file: SourceFile, options: AnalyzeOptions): FileAnalysis {
  const ctx = fileContext(file, options);
  for (const candidate of candidates(ctx)) SHAPES.find((shape) => shape.detect(ctx, candidate))?.analyze(ctx, candidate);
  return ctx.out;
}

function fileContext(file: SourceFile, options: AnalyzeOptions): Ctx {
  const out: FileAnalysis = { capabilities: [], findings: [], mustExport: [] };
  // JavaScript is imported by its real file name; TypeScript by the name it compiles to.
  const sourceModule = options.language === 'ts' ? file.getFilePath().replace(/\.(c|m)?tsx?$/, '') + options.importExtension : file.getFilePath();
  const commonJs = options.language === 'cjs' ? commonJsExports(file) : undefined;
  const contextModule = options.language === 'ts' ? options.contextFile.replace(/\.(c|m)?tsx?$/, '') + options.importExtension : options.contextFile;
  const script = isScriptFile(file);
  const failure = failureSourceOf(file, options.failureLog, { script, sourceModule });
  if (failure.mustExport && !commonJs) out.mustExport.push(failure.mustExport);
  const failureLog = commonJs && failure.mustExport ? undefined : failure.source;
  const unwrap = options.unwrap ?? DEFAULT_UNWRAP;
  return { file, sourceModule, out, language: options.language, commonJs, contextModule, hint: options.hint, failureLog, unwrap, script: script ? { globals: scriptGlobals(file) } : undefined };
}

/** Whether the generated file can import a declaration: exported (ESM/TS) or handed out by `module.exports` (CommonJS). */
function isExportedNode(ctx: Ctx, node: Node & { isExported(): boolean }): boolean {
  return ctx.commonJs ? ctx.commonJs.has(node) : node.isExported();
}

/** The file's candidates: functions, then arrow/function-expression constants, CommonJS inline functions, tables, classes. */
function* candidates(ctx: Ctx): Generator<Candidate> {
  const { file, commonJs } = ctx;
  const seen = new Set<Node>();
  for (const fn of file.getFunctions()) {
    if (!fn.getName() || !fn.getBody()) continue;
    seen.add(fn);
    const name = commonJs?.get(fn) ?? fn.getName()!;
    const overloaded = fn.getOverloads().length > 0;
    yield { kind: 'function', name, fn, params: fn.getParameters(), exported: isExportedNode(ctx, fn), isDefault: fn.isDefaultExport(), overloaded, line: fn.getStartLineNumber() };
  }
  for (const statement of file.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      if (!init || !(Node.isArrowFunction(init) || Node.isFunctionExpression(init)) || !Node.isIdentifier(decl.getNameNode())) continue;
      seen.add(init);
      const exported = commonJs ? commonJs.has(init) : statement.isExported();
      yield { kind: 'function', name: commonJs?.get(init) ?? decl.getName(), fn: init, params: init.getParameters(), exported, isDefault: false, overloaded: false, line: decl.getStartLineNumber(), statement };
    }
  }
  // CommonJS runners written inline: `exports.craft = async function (bot) {…}`, `module.exports = { async craft(bot) {…} }`.
  for (const [node, name] of commonJs ?? []) {
    if (seen.has(node) || !(Node.isArrowFunction(node) || Node.isFunctionExpression(node) || Node.isMethodDeclaration(node))) continue;
    yield { kind: 'function', name, fn: node, params: node.getParameters(), exported: true, isDefault: false, overloaded: false, line: node.getStartLineNumber(), statement: node.getParentOrThrow() };
  }
  for (const statement of file.getVariableStatements()) {
    for (const decl of statement.getDeclarations()) {
      const init = decl.getInitializer();
      if (init && Node.isArrayLiteralExpression(init) && Node.isIdentifier(decl.getNameNode())) yield { kind: 'table', statement, decl, init };
    }
  }
  for (const cls of file.getClasses()) yield { kind: 'class', cls };
}
