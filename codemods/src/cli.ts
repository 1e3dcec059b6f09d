#!/usr/bin/env node
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { SOURCE_FILE } from './language.js';

const USAGE = `usage: sinew-codemod wrap-runners <paths…> [--dry-run] [--out <dir>] [--registry-file <path>]
                    [--unwrap <name>]… [--failure-log <property>|<logger.method>|none] [--include-tests]

  <paths…>               .ts/.js/.mjs/.cjs files or directories (searched for them, node_modules skipped)
  --dry-run              print a unified diff of what would change; write nothing
  --out <dir>            write generated files under <dir> (mirroring the input tree) instead of beside the sources
  --registry-file <path> where the registry goes (default: sinew.registry.ts in --out or the inputs' common directory)
  --unwrap <name>        a higher-order wrapper around perform functions to see through, besides runAsAction (repeatable)
  --failure-log <where>  where runners log a failure: a bot property (output) or a logger method (logger.warn, console.log);
                         a false result fails with what they wrote during the attempt (default: what the code uses; none: off)
  --include-tests        also wrap test files (__tests__/, *.test.*, *.spec.*), skipped by default`;

/** The CLI's arguments after parsing; validated so bad usage gets a clear message and exit code 2. */
const CliArgsSchema = z.strictObject({
  command: z.literal('wrap-runners', { error: (issue) => `unknown command ${JSON.stringify(issue.input)}; expected wrap-runners` }),
  paths: z.array(z.string().min(1)).min(1, 'give at least one file or directory'),
  dryRun: z.boolean(),
  out: z.string().min(1, '--out needs a directory').optional(),
  registryFile: z
    .string()
    .min(1, '--registry-file needs a path')
    .regex(/\.(c|m)?[jt]s$/, '--registry-file must be a .ts, .js, .mjs or .cjs file')
    .optional(),
  unwrap: z.array(z.string().regex(/^[A-Za-z_$][\w$.]*$/, '--unwrap needs a function name')),
  failureLog: z.union([z.literal('none'), z.string().regex(/^(?:[A-Za-z_$][\w$]*\.)?[A-Za-z_$][\w$]*$/, '--failure-log needs a bot property (output, bot.output), a logger method (console.log, logger.warn) or none')]).optional(),
  includeTests: z.boolean(),
});

type CliArgs = z.infer<typeof CliArgsSchema>;

class UsageError extends Error {}

function parse(argv: readonly string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        'dry-run': { type: 'boolean' },
        out: { type: 'string' },
        'registry-file': { type: 'string' },
        unwrap: { type: 'string', multiple: true },
        'failure-log': { type: 'string' },
        'include-tests': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  const [command, ...paths] = parsed.positionals;
  const result = CliArgsSchema.safeParse({
    command,
    paths,
    dryRun: parsed.values['dry-run'] ?? false,
    out: parsed.values.out,
    registryFile: parsed.values['registry-file'],
    unwrap: parsed.values.unwrap ?? [],
    failureLog: parsed.values['failure-log'],
    includeTests: parsed.values['include-tests'] ?? false,
  });
  if (!result.success) throw new UsageError(z.prettifyError(result.error));
  for (const path of result.data.paths) if (!existsSync(path)) throw new UsageError(`${path} does not exist`);
  return result.data;
}

const SKIP = new Set(['node_modules', '.git', 'dist', 'coverage']);

function collect(path: string, into: string[]): void {
  const absolute = resolve(path);
  const stats = statSync(absolute);
  // A FIFO, socket or device would block the read forever: only files and directories are inputs.
  if (!stats.isDirectory() && !stats.isFile()) throw new UsageError(`${path} is not a regular file or a directory`);
  if (stats.isDirectory()) {
    for (const entry of readdirSync(absolute, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.isDirectory() && !SKIP.has(entry.name)) collect(join(absolute, entry.name), into);
      else if (entry.isFile() && SOURCE_FILE.test(entry.name) && !/\.d\.(c|m)?ts$/.test(entry.name)) into.push(join(absolute, entry.name));
    }
  } else into.push(absolute);
}

/** The nearest tsconfig.json above a directory, so the type checker sees the project's own settings. */
function findTsconfig(from: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, 'tsconfig.json');
    if (existsSync(candidate)) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

async function run(argv: readonly string[]): Promise<number> {
  const args = parse(argv);
  // Loaded after the flags are checked: bad usage answers without paying for the compiler.
  const [{ Project, ts }, { unifiedDiff }, { formatReport }, { wrapRunners }] = await Promise.all([
    import('ts-morph'),
    import('./diff.js'),
    import('./report.js'),
    import('./wrap.js'),
  ]);
  const files: string[] = [];
  for (const path of args.paths) collect(path, files);
  if (files.length === 0) throw new UsageError(`no .ts or .js files under ${args.paths.join(', ')}`);
  const tsconfig = findTsconfig(dirname(files[0]!));
  const project = tsconfig
    ? new Project({ tsConfigFilePath: tsconfig, skipAddingFilesFromTsConfig: true })
    : new Project({
        compilerOptions: { strict: true, allowJs: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true },
      });
  for (const file of files) project.addSourceFileAtPath(file);
  // A source that does not parse is never wrapped (the wrapper would be built on a guess): each is reported, and the run fails.
  const broken = syntaxErrors(project, files, ts);
  const parsed = files.filter((file) => !broken.has(file));
  const result = wrapRunners(project, {
    files: parsed,
    ...(args.out !== undefined ? { outDir: args.out } : {}),
    ...(args.registryFile !== undefined ? { registryFile: args.registryFile } : {}),
    ...(args.failureLog !== undefined ? { failureLog: args.failureLog === 'none' ? (false as const) : args.failureLog } : {}),
    unwrap: args.unwrap,
    includeTests: args.includeTests,
  });
  const cwd = process.cwd();
  if (args.dryRun) {
    for (const change of result.changes) process.stdout.write(unifiedDiff(relative(cwd, change.path), change.before, change.after));
  } else {
    for (const change of result.changes) {
      mkdirSync(dirname(change.path), { recursive: true });
      writeFileSync(change.path, change.after);
    }
  }
  const verb = args.dryRun ? 'would change' : 'changed';
  process.stderr.write(`${formatReport(result.report, cwd)}\n${result.changes.length} file(s) ${verb}\n`);
  for (const [file, messages] of broken) for (const message of messages) process.stderr.write(`${relative(cwd, file)}:${message}\n`);
  if (broken.size === 0) return 0;
  process.stderr.write(`sinew-codemod: ${broken.size} file(s) with syntax errors were not wrapped\n`);
  return 1;
}

/** Files whose text does not parse, with `line:column: syntax error: message` for each error. */
function syntaxErrors(project: import('ts-morph').Project, files: readonly string[], ts: typeof import('ts-morph').ts): Map<string, string[]> {
  const broken = new Map<string, string[]>();
  const program = project.getProgram().compilerObject;
  for (const file of files) {
    const source = program.getSourceFile(file);
    const diagnostics = source ? program.getSyntacticDiagnostics(source) : [];
    if (diagnostics.length === 0) continue;
    broken.set(
      file,
      diagnostics.map((d) => {
        const { line, character } = source!.getLineAndCharacterOfPosition(d.start ?? 0);
        return `${line + 1}:${character + 1}: syntax error: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
      }),
    );
  }
  return broken;
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) {
      process.stderr.write(`sinew-codemod: ${error.message}\n\n${USAGE}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`sinew-codemod: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    }
  },
);
