import { dirname } from 'node:path';
import type { ImportNeed } from './shape.js';
import { importLines, specifier } from './emit.js';
import type { Language } from './language.js';
import { quote } from './schema.js';

/** A function of the context file: builds what a wrapped runner expects (an agent, a leaf context, an instance) from a RunContext. */
export interface ContextAdapter {
  readonly name: string;
  /** The function's text in TypeScript and in JavaScript (JSDoc types). */
  readonly ts: string;
  readonly js: string;
  /** Type imports the TypeScript text needs. */
  readonly imports: readonly ImportNeed[];
}

/** The base name of the context file (beside the registry). */
export const CONTEXT_BASENAME = 'sinew.context';

function unmappedHelper(language: Language): string {
  const doc = '/** A field the codemod could not map: reading it fails the step with its name, never silently. */';
  if (language === 'ts') {
    return `${doc}\nfunction unmapped(field: string, where: string): never {\n  throw new Error(\`\${where}: \${field} is not mapped yet; fill it in ${CONTEXT_BASENAME}\`);\n}`;
  }
  return `/**\n * A field the codemod could not map: reading it fails the step with its name, never silently.\n * @param {string} field\n * @param {string} where\n * @returns {never}\n */\nfunction unmapped(field, where) {\n  throw new Error(\`\${where}: \${field} is not mapped yet; fill it in ${CONTEXT_BASENAME}\`);\n}`;
}

/** The text of the context file: written once, then the user's (it is never overwritten). */
export function renderContextFile(path: string, adapters: readonly ContextAdapter[], language: Language, contractsModule: string): string {
  const dir = dirname(path);
  const lines = [
    '// Written once by sinew-codemod wrap-runners, then yours: it is never overwritten. Each function builds what a',
    "// wrapped runner expects from the executor's RunContext (ctx.body is the instrumented bot, ctx.signal the step's",
    '// abort, ctx.now() its clock, ctx.log its logger, ctx.progress() its heartbeat). Fill in what is `unmapped(...)`.',
  ];
  const groups = new Map<string, { values: Set<string>; types: Set<string> }>();
  const add = (spec: string, name: string, typeOnly: boolean) => {
    const group = groups.get(spec) ?? { values: new Set<string>(), types: new Set<string>() };
    (typeOnly ? group.types : group.values).add(name);
    groups.set(spec, group);
  };
  if (language === 'ts') add(contractsModule, 'RunContext', true);
  for (const need of adapters.flatMap((a) => a.imports)) {
    add(need.from.kind === 'package' ? need.from.specifier : specifier(dir, need.from.path), need.name, need.typeOnly);
  }
  lines.push(...importLines(groups, (spec) => (spec === contractsModule ? 0 : 1), language));
  const exported = adapters.map((a) => {
    const text = language === 'ts' ? a.ts : a.js;
    return language === 'cjs' ? text.replace(/^export function /m, 'function ') : text;
  });
  lines.push('', exported.join('\n\n'));
  if (exported.some((text) => text.includes('unmapped('))) lines.push('', unmappedHelper(language));
  if (language === 'cjs') lines.push('', `module.exports = { ${adapters.map((a) => a.name).join(', ')} };`);
  return `${lines.join('\n')}\n`;
}
