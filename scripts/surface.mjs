// Prints the public surface of every publishable package as markdown: one table per `exports` entry,
// one row per exported name with its kind (value or type) and declaration kind. Read from the sources
// with ts-morph, so it needs no build. `@internal` names are listed apart: they are stripped from the d.ts.
// Usage: npm run surface [-- --counts]   (--counts prints only the per-entry totals)
import { join } from 'node:path';
import { Node, Project } from 'ts-morph';
import { publishablePackages, ROOT } from './workspaces.mjs';

const countsOnly = process.argv.includes('--counts');

/** 'value' when the name exists at runtime, 'type' when it is erased. */
function kindOf(declarations) {
  const kinds = [...new Set(declarations.map((d) => d.getKindName().replace(/Declaration$/, '')))];
  const isValue = declarations.some(
    (d) => !Node.isInterfaceDeclaration(d) && !Node.isTypeAliasDeclaration(d) && !Node.isModuleDeclaration(d),
  );
  return { kind: isValue ? 'value' : 'type', detail: kinds.join('+') };
}

/** True when every declaration carries an `@internal` JSDoc tag. */
function isInternal(declarations) {
  return declarations.every((d) => {
    const holder = Node.isVariableDeclaration(d) ? d.getVariableStatement() : d;
    const docs = holder && Node.isJSDocable(holder) ? holder.getJsDocs() : [];
    return docs.some((doc) => doc.getTags().some((tag) => tag.getTagName() === 'internal'));
  });
}

/** The exported names of one entry file, sorted, with kinds. */
function surfaceOf(project, file) {
  const source = project.addSourceFileAtPath(file);
  const rows = [];
  for (const [name, declarations] of source.getExportedDeclarations()) {
    rows.push({ name, ...kindOf(declarations), internal: isInternal(declarations) });
  }
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

const project = new Project({ tsConfigFilePath: join(ROOT, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
const lines = ['# Public surface', '', '| entry | values | types | total | @internal |', '|---|---|---|---|---|'];
const tables = [];
for (const { dir, pkg } of publishablePackages()) {
  for (const [sub, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target === 'string') continue; // ./package.json
    const spec = sub === '.' ? pkg.name : `${pkg.name}/${sub.slice(2)}`;
    const src = target.import.default.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts');
    const rows = surfaceOf(project, join(ROOT, dir, src));
    const pub = rows.filter((r) => !r.internal);
    const values = pub.filter((r) => r.kind === 'value').length;
    lines.push(`| ${spec} | ${values} | ${pub.length - values} | ${pub.length} | ${rows.length - pub.length} |`);
    tables.push('', `## ${spec}`, '', '| name | kind | declaration |', '|---|---|---|');
    for (const r of rows) tables.push(`| ${r.name} | ${r.internal ? `${r.kind} (@internal)` : r.kind} | ${r.detail} |`);
  }
}
console.log([...lines, ...(countsOnly ? [] : tables)].join('\n'));
