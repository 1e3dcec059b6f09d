// sinew-verbs as a function: flags validated with zod, exit 0 = ok, 1 = divergence, 2 = bad usage.
// Not exported from the package index (it reaches node:fs and jiti through ./load.js).
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { describeError } from '../failure.js';
import { checkVerbs, type PlannerVerb } from './check.js';
import { formatVerbReport, VerbReportFormatSchema } from './format.js';
import { DEFAULT_LOAD_TIMEOUT_MS, GateUsageError, loadManifest, loadPlannerVerbs, scanFiles } from './load.js';

const USAGE = `sinew-verbs — compare the verbs planners emit with the capabilities a registry provides

Usage:
  sinew-verbs manifest --registry <module> [--export <name>] [--out <file>]
  sinew-verbs check --registry <module|manifest.json> [--export <name>]
                    (--planner <verbs.json|module>)... [--scan <glob>]... [--format text|json|github]
  Both take --timeout <ms>: how long a module may take to load, or verbs() to answer (default ${DEFAULT_LOAD_TIMEOUT_MS}).

Registry: a .ts/.js module whose named exports include a CapabilityRegistry (--export picks one when
there are several), or a manifest.json written by \`sinew-verbs manifest\`.
Planner: a JSON array of verbs, or a module exporting Planners (objects with verbs()) or string arrays.
Scan: source files whose \`type: '<verb>'\` literals are plan steps (a line with sinew-verbs-ignore is skipped).

check exits 1 when a planner verb has no capability (FM-01) or a capability's acceptance is
unverified; registry-only verbs and deprecated aliases are warnings. Exit 2 means bad usage, or a
module that could not be loaded (or never settled) in time.
`;

const nonEmpty = z.string().min(1, 'must not be empty');
const timeout = z.coerce.number().int('must be a whole number of milliseconds').positive('must be > 0').max(2_147_483_647).default(DEFAULT_LOAD_TIMEOUT_MS);
const ManifestFlags = z.strictObject({
  registry: nonEmpty,
  export: nonEmpty.optional(),
  out: nonEmpty.optional(),
  timeout,
});
const CheckFlags = z
  .strictObject({
    registry: nonEmpty,
    export: nonEmpty.optional(),
    planner: z.array(nonEmpty).default([]),
    scan: z.array(nonEmpty).default([]),
    format: VerbReportFormatSchema.default('text'),
    timeout,
  })
  .refine((flags) => flags.planner.length + flags.scan.length > 0, {
    message: 'give at least one --planner or --scan',
    path: ['planner'],
  });

const OPTIONS = {
  registry: { type: 'string' },
  export: { type: 'string' },
  out: { type: 'string' },
  planner: { type: 'string', multiple: true },
  scan: { type: 'string', multiple: true },
  format: { type: 'string' },
  timeout: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Where the CLI writes; the bin passes process.stdout/stderr. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

function usageError(io: CliIo, message: string): number {
  io.err(`sinew-verbs: ${message}\nRun \`sinew-verbs --help\` for usage.\n`);
  return 2;
}

function flagsError(error: z.ZodError): string {
  return `bad flags:\n${z.prettifyError(error).replace(/→ at (\w+)/g, '→ at --$1')}`;
}

/** Runs `sinew-verbs` with `argv` (without node and script); resolves to the exit code 0, 1 or 2. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    return usageError(io, describeError(error));
  }
  const { values, positionals } = parsed;
  const [command, ...extra] = positionals;
  if (values.help || command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (command === undefined) return usageError(io, 'missing command (manifest or check)');
  if (extra.length) return usageError(io, `unexpected argument(s): ${extra.join(' ')}`);
  const { help: _help, ...flags } = values;
  try {
    if (command === 'manifest') {
      const manifestFlags = ManifestFlags.safeParse(flags);
      if (!manifestFlags.success) return usageError(io, flagsError(manifestFlags.error));
      const { registry, export: exportName, out, timeout: timeoutMs } = manifestFlags.data;
      const json = `${JSON.stringify(await loadManifest(registry, exportName, timeoutMs), null, 2)}\n`;
      if (out === undefined) io.out(json);
      else {
        writeFileSync(out, json);
        io.err(`sinew-verbs: wrote ${out}\n`);
      }
      return 0;
    }
    if (command === 'check') {
      const checkFlags = CheckFlags.safeParse(flags);
      if (!checkFlags.success) return usageError(io, flagsError(checkFlags.error));
      const { registry, export: exportName, planner, scan, format, timeout: timeoutMs } = checkFlags.data;
      const manifest = await loadManifest(registry, exportName, timeoutMs);
      const plannerVerbs: PlannerVerb[] = [];
      // One push per verb: spreading 100,000+ scanned literals into push() overflows the call stack.
      for (const spec of planner) for (const verb of await loadPlannerVerbs(spec, timeoutMs)) plannerVerbs.push(verb);
      for (const pattern of scan) for (const verb of scanFiles(pattern).verbs) plannerVerbs.push(verb);
      const report = checkVerbs({ manifest, plannerVerbs });
      io.out(formatVerbReport(report, format));
      return report.ok ? 0 : 1;
    }
    return usageError(io, `unknown command "${command}" (expected manifest or check)`);
  } catch (error) {
    if (error instanceof GateUsageError) return usageError(io, error.message);
    io.err(`sinew-verbs: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : describeError(error)}\n`);
    return 2;
  }
}
