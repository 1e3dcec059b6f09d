// `npm run docs`: one API reference for every published entry point, built by TypeDoc from the doc comments.
// The entry points come from each publishable package's `exports` map (as the tsup build does), so the
// reference and the published surface cannot drift. Every warning fails the build — an exported name without
// a doc comment (`validation.notDocumented`), a broken {@link}, a name referenced but not exported.
// Output: .sinew/api (git-ignored). `--json <file>` also writes TypeDoc's JSON model (for checks).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { Application, Comment, LogLevel, ReflectionKind } from 'typedoc';
import { publishablePackages, ROOT } from './workspaces.mjs';

/** `{ '@sinew/bt-runtime/testing': '<root>/packages/bt-runtime/src/testing/index.ts', … }` from the exports maps. */
export function docEntryPoints(root = ROOT) {
  const entries = {};
  for (const { dir, pkg } of publishablePackages(root)) {
    for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
      if (typeof target === 'string') continue; // ./package.json, data folders
      const name = target.import.default.replace(/^\.\/dist\//, '').replace(/\.js$/, '');
      entries[subpath === '.' ? pkg.name : `${pkg.name}${subpath.slice(1)}`] = join(root, dir, 'src', `${name}.ts`);
    }
  }
  return entries;
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string', default: join(ROOT, '.sinew', 'api') }, json: { type: 'string' }, check: { type: 'boolean', default: false } }, strict: true });
  const entries = docEntryPoints();
  const started = performance.now();
  const app = await Application.bootstrap({
    entryPoints: Object.values(entries),
    tsconfig: join(ROOT, 'tsconfig.docs.json'),
    name: 'Sinew API reference',
    readme: 'none',
    out: values.out,
    excludePrivate: true,
    excludeInternal: false,
    // Source links point at the published repository, not at whatever remote (or none) this checkout has.
    disableGit: true,
    sourceLinkTemplate: 'https://github.com/sinew-sdk/sinew/blob/main/{path}#L{line}',
    treatWarningsAsErrors: true,
    validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true, unusedMergeModuleWith: true },
    // A doc comment on the declaration is enough; members of an object type need none of their own.
    requiredToBeDocumented: ['Enum', 'Variable', 'Function', 'Class', 'Interface', 'TypeAlias'],
    // By default only the root package's own names (`sinew`, private) would be checked.
    packagesRequiringDocumentation: publishablePackages().map(({ pkg }) => pkg.name),
    // Methods of inline object types in other packages' options and return values: a doc comment there means
    // reformatting a code line, left to their owners. Listed by name, so a new undocumented one still fails.
    intentionallyNotDocumented: [
      '@sinew/bt-runtime/otel.OtelProvenanceOptions.provider.__type.getTracer',
      '@sinew/bt-runtime/otel.OtelProvenanceOptions.provider.__type.forceFlush',
      '@sinew/testkit.SCENARIOS.__type.flapping_corridor.__type.swings',
      '@sinew/testkit.SCENARIOS.__type.flapping_corridor.__type.stop',
      '@sinew/testkit.SCENARIOS.__type.kick_mid_step.__type.cancel',
      '@sinew/testkit.applyScenario.__type.flapping_corridor.__type.swings',
      '@sinew/testkit.applyScenario.__type.flapping_corridor.__type.stop',
      '@sinew/testkit.applyScenario.__type.kick_mid_step.__type.cancel',
    ],
    logLevel: LogLevel.Warn,
    githubPages: false,
    sort: ['kind', 'alphabetical'],
  });
  app.converter.on('resolveBegin', (context) => nameModules(context.project, entries));
  const project = await app.convert();
  if (!project) return fail('TypeDoc could not convert the entry points', app);
  documentInferredTypes(project);
  app.validate(project);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return fail('the reference has warnings (above)', app);
  if (values.check) return console.log(`docs: checked ${Object.keys(entries).length} entry points in ${((performance.now() - started) / 1000).toFixed(1)} s, 0 warnings`);
  await app.generateDocs(project, values.out);
  if (values.json) await app.generateJson(project, values.json);
  if (app.logger.hasErrors() || app.logger.hasWarnings()) return fail('rendering warned (above)', app);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`docs: ${Object.keys(entries).length} entry points, ${project.getReflectionsByKind(ReflectionKind.SomeExport).length} documented exports → ${values.out} in ${seconds} s, 0 warnings`);
}

/** Modules are named by their import specifier (`@sinew/planners/minecraft`), not by their folder. */
function nameModules(project, entries) {
  const byFile = new Map(Object.entries(entries).map(([name, file]) => [file, name]));
  for (const module of project.children ?? []) {
    const file = module.sources?.[0]?.fullFileName;
    const name = file && byFile.get(file);
    if (name) module.name = name;
  }
}

/**
 * A type inferred from a schema (`type Plan = z.infer<typeof PlanSchema>`, `PlanInput` its `z.input`, the
 * CONTRIBUTING naming rule) is documented by that schema: an undocumented alias gets a comment linking it.
 */
function documentInferredTypes(project) {
  for (const module of project.children ?? []) {
    const byName = new Map((module.children ?? []).map((child) => [child.name, child]));
    for (const alias of module.children ?? []) {
      if (!alias.kindOf(ReflectionKind.TypeAlias) || alias.hasComment()) continue;
      const input = alias.name.endsWith('Input') && byName.get(`${alias.name.slice(0, -'Input'.length)}Schema`);
      const schema = input || byName.get(`${alias.name}Schema`);
      if (!schema?.hasComment()) continue;
      alias.comment = new Comment([
        { kind: 'text', text: input ? 'The input of ' : 'Inferred from ' },
        { kind: 'inline-tag', tag: '@link', text: schema.name, target: schema },
        { kind: 'text', text: input ? ' (`z.input`: before defaults and transforms).' : ' (`z.infer`).' },
      ]);
    }
  }
}

function fail(message, app) {
  console.error(`docs: ${message}; ${app.logger.warningCount} warnings, ${app.logger.errorCount} errors`);
  process.exitCode = 1;
}

// Run as a script (`npm run docs`); imported (scripts/examples.mjs reads the entry points), it only exports.
if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
