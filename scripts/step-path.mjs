// Counts a step's path: the files and the calls between files of one step on the common path (one attempt, a function
// runner), by running it. Every function of the repo's source files is instrumented at load (scripts/step-path/hooks.mjs);
// while one plan of one `noop` step runs (after a warm-up plan), each function entry is recorded with the nearest repo
// function on the stack below it (its caller; node internals and node_modules skipped: an EventEmitter or zod between
// two repo files is still one call between them). A call between files is an entry whose caller is in another file;
// an entry with no repo caller on the stack (a promise job, a timer) is counted apart as "resumed from the event loop".
// Usage: node scripts/step-path.mjs [--json]   (docs/architecture-step-path.md explains the count)
import { register } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';
import { register as registerTsx } from 'tsx/esm/api';

const rootPath = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = pathToFileURL(rootPath + '/').href;
const TRACED = ['packages/', 'bench/noop.ts'];
const DRIVER = 'scripts/step-path/one-step.ts';
const isTraced = (file) => TRACED.some((prefix) => file.startsWith(prefix)) && !file.includes('/node_modules/') && (file.includes('/src/') || file.startsWith('bench/'));

const entries = [];
let tracing = false;
/** The repo file of a call site, relative to the root; undefined outside the traced files. */
function repoFile(site) {
  const name = site.getFileName();
  if (!name) return undefined;
  const url = name.startsWith('file:') ? name : pathToFileURL(name).href;
  if (!url.startsWith(root)) return undefined;
  const file = url.slice(root.length);
  return isTraced(file) ? file : undefined;
}
globalThis.__sinewStepTrace = (id) => {
  if (!tracing) return;
  const [prepare, limit] = [Error.prepareStackTrace, Error.stackTraceLimit];
  Error.prepareStackTrace = (_, sites) => sites;
  Error.stackTraceLimit = 64;
  const sites = new Error().stack;
  Error.prepareStackTrace = prepare;
  Error.stackTraceLimit = limit;
  const [file, fn] = id.split('#');
  // sites[0] is this function, sites[1] the entered one
  const callers = sites.slice(2);
  const caller = callers.map(repoFile).find(Boolean) ?? (callers.some((site) => String(site.getFileName()).endsWith(DRIVER)) ? 'driver' : undefined);
  entries.push({ file, fn, caller });
};

registerTsx();
register('./step-path/hooks.mjs', import.meta.url, { data: { root, traced: TRACED } });
const { runOneStep, close } = await import(pathToFileURL(join(rootPath, 'scripts/step-path/one-step.ts')).href);
await runOneStep('warm-up');
tracing = true;
const status = await runOneStep('traced');
tracing = false;
await close();
if (status !== 'completed') throw new Error(`the traced plan ended ${status}`);
if (!entries.some((e) => e.file.endsWith('executor/executor.ts'))) throw new Error('no executor function was traced: the instrumentation did not apply (scripts/step-path/hooks.mjs)');

const short = (file) => file.replace(/^packages\/([^/]+)\/src\//, '$1/');
const between = entries.filter((e) => e.caller !== undefined && e.caller !== 'driver' && e.caller !== e.file);
const resumed = entries.filter((e) => e.caller === undefined);
const distinct = (keys) => new Set(keys).size;
const files = [...new Set(entries.map((e) => e.file))];
const result = {
  files: files.map(short),
  callsBetweenFiles: between.length,
  distinctFilePairs: distinct(between.map((e) => `${e.caller} ${e.file}`)),
  distinctCallees: distinct(between.map((e) => `${e.caller} ${e.file}#${e.fn}`)),
  resumedFromEventLoop: resumed.length,
  functionEntries: entries.length,
  path: entries.filter((e) => e.caller !== e.file).map((e) => `${e.caller === 'driver' ? '(the caller of run)' : e.caller ? short(e.caller) : '(event loop)'} → ${short(e.file)}#${e.fn}`),
};
if (process.argv.includes('--json')) console.log(JSON.stringify(result, null, 2));
else {
  console.log(`one step (one attempt, a function runner): ${files.length} files, ${between.length} calls between files (${result.distinctFilePairs} distinct file → file pairs, ${result.distinctCallees} distinct file → function), ${resumed.length} ${resumed.length === 1 ? 'entry' : 'entries'} resumed from the event loop, ${entries.length} function entries`);
  console.log(`files: ${result.files.join(', ')}`);
  result.path.forEach((hop, i) => console.log(`${String(i + 1).padStart(3)}. ${hop}`));
}
