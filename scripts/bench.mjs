// Runs every bench/*.bench.ts in its own process, one after another (the machine is noisy: never in parallel), then
// prints one summary table of every figure the benches recorded through bench/harness.ts.
// Usage: npm run bench [-- <filter>] [-- --minutes 2]. Opt-in benches (the fleet soak) run only when the filter names them.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OPT_IN = ['soak.bench.ts'];
const benchDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'bench');
const args = process.argv.slice(2);
const only = args.find((a) => !a.startsWith('-'));
const passed = args.filter((a) => a !== only);
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.ts') && (only ? f.includes(only) : !OPT_IN.includes(f)))
  .sort();
const scratch = mkdtempSync(join(tmpdir(), 'sinew-bench-'));
const results = join(scratch, 'figures.jsonl');
const started = Date.now();
const crashed = [];
for (const file of files) {
  console.log(`\n── ${file}`);
  const t0 = Date.now();
  // --expose-gc: the soak samples the heap after a full collection
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(benchDir, file), ...passed], {
    stdio: 'inherit',
    env: { ...process.env, SINEW_BENCH_RESULTS: results },
  });
  console.log(`   (${file}: ${((Date.now() - t0) / 1000).toFixed(0)} s, exit ${result.status ?? result.signal})`);
  // a missed target is not a crash: benches exit non-zero only when they could not measure, and the table says what missed
  if (result.status !== 0) crashed.push(file);
}
const figures = existsSync(results) ? readFileSync(results, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
rmSync(scratch, { recursive: true, force: true });
printSummary(figures, (Date.now() - started) / 1000);
if (crashed.length) console.log(`benches that failed to run: ${crashed.join(', ')}`);
process.exit(crashed.length || figures.some((f) => f.ok === false) ? 1 : 0);

function cell(spread, digits) {
  return spread ? spread.median.toFixed(digits) : '';
}

function printSummary(rows, seconds) {
  const table = rows.map((f) => [
    f.figure,
    `${cell(f.value, f.digits)} ${f.unit}`,
    f.baseline ? `${cell(f.baseline, f.digits)} ${f.unit}` : '—',
    f.ratio !== undefined ? `${f.ratio.toFixed(3)}×` : '—',
    f.target ?? '—',
    f.ok === undefined ? '—' : f.ok ? 'ok' : 'MISSED',
  ]);
  const header = ['figure', 'value (median)', 'baseline', 'ratio', 'target', 'ok'];
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((r) => r[i].length)));
  const line = (r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log(`\n══ summary: ${rows.length} figures from ${files.length} benches in ${seconds.toFixed(0)} s`);
  console.log(line(header));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const r of table) console.log(line(r));
}
