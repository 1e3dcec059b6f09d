// The script shape: a `.js` file with no imports or exports (skills an agent wrote and stored), whose top-level
// `async function mineWoodLog(bot) { … }` run with the runtime's primitives as globals. Each is wrapped like a
// function, and called through the generated `scriptFunction` loader, which evaluates the file as the runtime does.
import { isBotParam } from '../shape.js';
import { quote } from '../schema.js';
import { wrapFunction } from './function.js';
import { defineShape } from './shape-analyzer.js';

/** `scriptFunction(SCRIPT_FILE, ['mineBlock'], 'mineWoodLog')`; the emitter replaces SCRIPT_FILE by the script's path relative to the generated file. */
function scriptCallee(globals: readonly string[], name: string): string {
  return `scriptFunction(SCRIPT_FILE, [${globals.map(quote).join(', ')}], ${quote(name)})`;
}

/** Every top-level async function taking the bot first of a script-style file: exported or not, there is no module. */
export const scriptShape = defineShape({
  name: 'script',
  kind: 'function',
  detect: (ctx, candidate) => ctx.script !== undefined && isBotParam(candidate.params[0]),
  analyze: (ctx, candidate) => wrapFunction(ctx, candidate, { shape: 'script', callee: scriptCallee(ctx.script?.globals ?? [], candidate.name), imports: [], script: true }),
});
