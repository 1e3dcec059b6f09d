#!/usr/bin/env node
/**
 * Prints the mutants a Stryker report did not detect, one a line: `file:line:col status mutator replacement`
 * (docs/mutation.md, "Checking the survivor lists"). Reads a JSON report or an incremental file (same schema).
 *
 *   node stryker/survivors.mjs reports/mutation/bt-runtime-executor.json [--file slot.ts] [--scores]
 *
 * `--file <suffix>` keeps the files whose path ends with it (repeatable); `--scores` prints each file's counts and
 * score instead. Exits 1, naming them, when a Survived mutant completed fewer tests than covered it (a truncated run,
 * Setup's "third way": such a survivor is not a measurement).
 */
import { readFileSync } from 'node:fs';

const UNDETECTED = new Set(['Survived', 'NoCoverage']);

function parseArgs(argv) {
  const options = { report: undefined, files: [], scores: false };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--scores') options.scores = true;
    else if (arg === '--file' && argv[i + 1] !== undefined) options.files.push(argv[(i += 1)]);
    else if (!arg.startsWith('--') && options.report === undefined) options.report = arg;
    else throw new Error(`unexpected argument ${JSON.stringify(arg)}; usage: survivors.mjs <report.json> [--file <suffix>]... [--scores]`);
  }
  if (options.report === undefined) throw new Error('usage: survivors.mjs <report.json> [--file <suffix>]... [--scores]');
  return options;
}

/** One line per undetected mutant; replacement on one line, clipped. */
function survivorLine(file, mutant) {
  const { line, column } = mutant.location.start;
  const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
  return `${file}:${line}:${column} ${mutant.status} ${mutant.mutatorName} ${replacement}`;
}

function fileCounts(mutants) {
  const counts = { Killed: 0, Timeout: 0, Survived: 0, NoCoverage: 0, Ignored: 0, other: 0 };
  for (const { status } of mutants) counts[status in counts ? status : 'other'] += 1;
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  return { ...counts, total: mutants.length, score: valid === 0 ? 'n/a' : ((100 * detected) / valid).toFixed(2) };
}

function byPosition(a, b) {
  const { line: la, column: ca } = a.location.start;
  const { line: lb, column: cb } = b.location.start;
  return la - lb || ca - cb || a.mutatorName.localeCompare(b.mutatorName);
}

const options = parseArgs(process.argv.slice(2));
const report = JSON.parse(readFileSync(options.report, 'utf8'));
const truncated = [];
const names = Object.keys(report.files)
  .filter((file) => options.files.length === 0 || options.files.some((suffix) => file.endsWith(suffix)))
  .sort();
if (options.scores) console.log('file score total killed timeout survived noCoverage ignored');
for (const file of names) {
  const mutants = [...report.files[file].mutants].sort(byPosition);
  const short = file.replace(/^packages\/[^/]+\/src\//, '');
  if (options.scores) {
    const c = fileCounts(mutants);
    console.log(`${short} ${c.score} ${c.total} ${c.Killed} ${c.Timeout} ${c.Survived} ${c.NoCoverage} ${c.Ignored}`);
  }
  for (const mutant of mutants) {
    if (mutant.status === 'Survived' && mutant.testsCompleted !== undefined && mutant.testsCompleted < (mutant.coveredBy ?? []).length) {
      truncated.push(survivorLine(short, mutant));
    }
    if (!options.scores && UNDETECTED.has(mutant.status)) console.log(survivorLine(short, mutant));
  }
}
if (truncated.length > 0) {
  console.error(`${truncated.length} Survived mutant(s) completed fewer tests than covered them (truncated runs):\n${truncated.join('\n')}`);
  process.exitCode = 1;
}
