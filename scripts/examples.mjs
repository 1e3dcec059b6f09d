// Every `@example` in a doc comment compiles: each block of every publishable package's source becomes a
// module that imports what it uses from the packages' public entry points (never from a package's insides),
// and the free names examples share (`bot`, `executor`, `registry`, `world`, …) from one checked file,
// docs/examples/context.ts. All of them are type-checked in one TypeScript program against the repo's
// tsconfig. `node scripts/examples.mjs` prints each error at the example's line in its source file.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { docEntryPoints } from './docs.mjs';
import { publishablePackages, ROOT } from './workspaces.mjs';

/** The checked file of the names examples may use without declaring them. */
export const EXAMPLES_CONTEXT = join(ROOT, 'docs', 'examples', 'context.ts');

/** `@example` blocks of the source files under `dirs`: file, the line of the block's first code line, code. */
export function extractExamples(dirs) {
  const examples = [];
  for (const file of dirs.flatMap(sourceFiles)) {
    const text = readFileSync(file, 'utf8');
    for (const comment of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
      const lines = comment[0].split('\n').map((line) => line.replace(/^\s*\/?\*\*?\/?\s?/, '').replace(/\s*\*\/$/, ''));
      const firstLine = text.slice(0, comment.index).split('\n').length;
      for (let i = 0; i < lines.length; i += 1) {
        if (!/^@example\b/.test(lines[i].trim())) continue;
        const body = [];
        let j = i + 1;
        for (; j < lines.length && !/^@\w/.test(lines[j].trim()); j += 1) body.push(lines[j]);
        const code = body.filter((line) => !/^```/.test(line.trim())).join('\n').trim();
        if (code !== '') examples.push({ file, line: firstLine + i + 1, code });
        i = j - 1;
      }
    }
  }
  return examples;
}

function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts'))
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
    .sort();
}

/**
 * Type-checks every block in the publishable packages (and `extra` ones, for tests) in one program.
 * Returns the diagnostics, each mapped back to its source file and line, and how long it took.
 */
export function checkExamples(options = {}) {
  const root = options.root ?? ROOT;
  const started = performance.now();
  const packages = publishablePackages(root).map(({ dir, pkg }) => ({ dir: join(root, dir), name: pkg.name }));
  const examples = [...extractExamples(packages.map((p) => join(p.dir, 'src'))), ...(options.extra ?? [])];
  const entries = Object.entries(docEntryPoints(root));
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (d) => { throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n')); } });
  const compilerOptions = { ...config.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false, allowUnreachableCode: true };
  // First the entry points and the context: what each exports, by name.
  const context = options.context ?? EXAMPLES_CONTEXT;
  const base = ts.createProgram({ rootNames: [...entries.map(([, file]) => file), context], options: compilerOptions });
  const checker = base.getTypeChecker();
  const exportsOf = (file) => new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(base.getSourceFile(file))).map((s) => s.name));
  const contextNames = exportsOf(context);
  const entryNames = entries.map(([specifier, file]) => ({ specifier, file, names: exportsOf(file) }));
  // Then one module per example, next to the context file so its imports resolve like the repo's.
  const virtual = new Map();
  examples.forEach((example, index) => {
    const owner = packages.find((p) => example.file.startsWith(p.dir + sep));
    const header = importsFor(example.code, { contextNames, context, entryNames, owner: owner?.name });
    const path = join(dirname(context), `.example-${index}.ts`);
    virtual.set(path, { example, headerLines: header.split('\n').length, text: `${header}\n${example.code}\nexport {};\n` });
  });
  const host = ts.createCompilerHost(compilerOptions);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = ((exists) => (file) => virtual.has(file) || exists(file))(host.fileExists.bind(host));
  host.readFile = (file) => virtual.get(file)?.text ?? readFile(file);
  host.getSourceFile = (file, language, onError) => (virtual.has(file) ? ts.createSourceFile(file, virtual.get(file).text, language, true) : getSourceFile(file, language, onError));
  const program = ts.createProgram({ rootNames: [...virtual.keys(), context], options: compilerOptions, host, oldProgram: base });
  const diagnostics = [];
  for (const [path, { example, headerLines }] of virtual) {
    for (const d of [...program.getSyntacticDiagnostics(program.getSourceFile(path)), ...program.getSemanticDiagnostics(program.getSourceFile(path))]) {
      const at = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line - headerLines : 0;
      diagnostics.push({ file: relative(root, example.file), line: example.line + Math.max(0, at), message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
    }
  }
  for (const d of program.getSemanticDiagnostics(program.getSourceFile(context))) diagnostics.push({ file: relative(root, context), line: d.file.getLineAndCharacterOfPosition(d.start).line + 1, message: ts.flattenDiagnosticMessageText(d.messageText, '\n') });
  return { examples: examples.length, diagnostics, ms: Math.round(performance.now() - started) };
}

/** The imports an example needs: each name it uses but does not declare, from the context or an entry point (its own package's first). */
function importsFor(code, { contextNames, context, entryNames, owner }) {
  const source = ts.createSourceFile('example.ts', code, ts.ScriptTarget.ES2022, true);
  const declared = new Set();
  const used = new Set();
  const visit = (node) => {
    if ((ts.isVariableDeclaration(node) || ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node) || ts.isParameter(node) || ts.isBindingElement(node)) && node.name && ts.isIdentifier(node.name)) declared.add(node.name.text);
    if (ts.isIdentifier(node) && !(ts.isPropertyAccessExpression(node.parent) && node.parent.name === node) && !(ts.isPropertyAssignment(node.parent) && node.parent.name === node)) used.add(node.text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  const ordered = [...entryNames].sort((a, b) => Number(b.specifier.startsWith(owner ?? '\0')) - Number(a.specifier.startsWith(owner ?? '\0')));
  const bySpecifier = new Map();
  for (const name of [...used].filter((n) => !declared.has(n)).sort()) {
    const from = contextNames.has(name) ? `./${relative(dirname(context), context).replace(/\.ts$/, '.js')}` : ordered.find((entry) => entry.names.has(name))?.specifier;
    if (from) bySpecifier.set(from, [...(bySpecifier.get(from) ?? []), name]);
  }
  return [...bySpecifier].map(([from, names]) => `import { ${names.join(', ')} } from '${from}';`).join('\n');
}

function main() {
  const { examples, diagnostics, ms } = checkExamples();
  for (const d of diagnostics) console.error(`${d.file}:${d.line}: ${d.message}`);
  if (diagnostics.length > 0) {
    process.exitCode = 1;
    return console.error(`examples: ${diagnostics.length} errors in ${examples} @example blocks (${ms} ms)`);
  }
  console.log(`examples: ${examples} @example blocks compile (${ms} ms)`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
