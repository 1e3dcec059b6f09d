#!/usr/bin/env node
/**
 * Prints the mutants Stryker reports did not detect, one a line: `file:line:col status mutator replacement`
 * (docs/mutation.md, "Checking the survivor lists"). Reads JSON reports or incremental files (the same schema).
 *
 *   node stryker/survivors.mjs reports/mutation/bt-runtime-executor.json
 *   node stryker/survivors.mjs 'a.json#slot.ts,events.ts' 'b.json#executor.ts' --scores
 *
 * `<report>#<suffix>,…` takes from that report only the files whose path ends with one of the suffixes (a group run's
 * report also lists, with their old results, the files it did not mutate); `<suffix>@<from>-<to>` only the mutants that
 * start on those lines (a file measured in two runs by line range). A mutant taken from two reports is an error.
 * `--scores` prints each file's counts and score, and the total, instead of the mutants. Exits 1, naming them, when a
 * Survived mutant completed fewer tests than covered it (a truncated run, Setup's "third way": not a measurement).
 */
import { readFileSync } from 'node:fs';

const USAGE = 'usage: survivors.mjs <report.json>[#<file suffix>[@<from>-<to>],...]... [--scores]';
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const STATUSES = ['Killed', 'Timeout', 'Survived', 'NoCoverage', 'Ignored'];

function parseArgs(argv) {
  const sources = argv.filter((arg) => arg !== '--scores');
  const unknown = sources.find((arg) => arg.startsWith('--'));
  if (unknown !== undefined || sources.length === 0) throw new Error(unknown === undefined ? USAGE : `unknown option ${unknown}; ${USAGE}`);
  return {
    scores: argv.includes('--scores'),
    sources: sources.map((arg) => {
      const [path, suffixes] = arg.split('#');
      return { path, takes: suffixes === undefined ? [{ suffix: '', from: 1, to: Infinity }] : suffixes.split(',').filter(Boolean).map(parseTake) };
    }),
  };
}

/** `step-run.ts@1-156` → the file suffix and the lines its mutants start on. */
function parseTake(text) {
  const match = /^([^@]+)(?:@(\d+)-(\d+))?$/.exec(text);
  if (!match) throw new Error(`bad file suffix ${JSON.stringify(text)}; ${USAGE}`);
  return { suffix: match[1], from: Number(match[2] ?? 1), to: match[3] === undefined ? Infinity : Number(match[3]) };
}

/** Every file taken from the sources, with the mutants taken, sorted by position. */
function takeFiles(sources) {
  const files = new Map();
  const seen = new Map();
  for (const { path, takes } of sources) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    for (const [file, { mutants }] of Object.entries(report.files)) {
      const ranges = takes.filter(({ suffix }) => file.endsWith(suffix));
      if (ranges.length === 0) continue;
      const taken = mutants.filter(({ location }) => ranges.some(({ from, to }) => location.start.line >= from && location.start.line <= to));
      const repeats = new Map();
      for (const mutant of taken) {
        // one position can hold two mutants of one kind (an `if` and its condition): numbered within the report
        const kind = `${file}:${mutant.location.start.line}:${mutant.location.start.column} ${mutant.mutatorName} ${mutant.replacement}`;
        repeats.set(kind, (repeats.get(kind) ?? 0) + 1);
        const at = `${kind} (#${repeats.get(kind)})`;
        if (seen.has(at)) throw new Error(`${at} is taken from ${seen.get(at)} and from ${path}: name one report per file or line range`);
        seen.set(at, path);
      }
      files.set(file, [...(files.get(file) ?? []), ...taken]);
    }
  }
  return [...files].map(([file, mutants]) => [file, mutants.sort(byPosition)]).sort(([a], [b]) => a.localeCompare(b));
}

function byPosition(a, b) {
  const { line: la, column: ca } = a.location.start;
  const { line: lb, column: cb } = b.location.start;
  return la - lb || ca - cb || a.mutatorName.localeCompare(b.mutatorName);
}

function mutantLine(file, mutant) {
  const { line, column } = mutant.location.start;
  const replacement = (mutant.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
  return `${file}:${line}:${column} ${mutant.status} ${mutant.mutatorName} ${replacement}`;
}

function countRow(name, counts) {
  const detected = counts.Killed + counts.Timeout;
  const valid = detected + counts.Survived + counts.NoCoverage;
  const score = valid === 0 ? 'n/a' : ((100 * detected) / valid).toFixed(2);
  return `${name} ${score} ${counts.total} ${STATUSES.map((status) => counts[status]).join(' ')}`;
}

const options = parseArgs(process.argv.slice(2));
const truncated = [];
const total = { total: 0, ...Object.fromEntries(STATUSES.map((status) => [status, 0])) };
if (options.scores) console.log(`file score mutants ${STATUSES.join(' ')}`);
for (const [file, mutants] of takeFiles(options.sources)) {
  const short = file.replace(/^packages\/[^/]+\/src\//, '');
  const counts = { total: mutants.length, ...Object.fromEntries(STATUSES.map((status) => [status, 0])) };
  for (const mutant of mutants) {
    if (mutant.status in counts) counts[mutant.status] += 1;
    if (mutant.status === 'Survived' && mutant.testsCompleted !== undefined && mutant.testsCompleted < (mutant.coveredBy ?? []).length) truncated.push(mutantLine(short, mutant));
    if (!options.scores && UNDETECTED.has(mutant.status)) console.log(mutantLine(short, mutant));
  }
  for (const key of Object.keys(total)) total[key] += counts[key];
  if (options.scores) console.log(countRow(short, counts));
}
if (options.scores) console.log(countRow('all', total));
if (truncated.length > 0) {
  console.error(`${truncated.length} Survived mutant(s) completed fewer tests than covered them (truncated runs):\n${truncated.join('\n')}`);
  process.exitCode = 1;
}
