import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStandardRegistry } from '../src/index.js';

// The verb tables users read (the first-bot guide, this package's README) against the registry itself: a verb
// added, renamed or given a new argument fails here until the docs say so.
const GUIDE = new URL('../../../docs/first-bot.md', import.meta.url);
const README = new URL('../README.md', import.meta.url);

interface Row {
  readonly verb: string;
  readonly args: string;
}

/** The `| \`verb\` | args | …` rows of the table under a heading (up to the next heading of any level ≤ 2). */
function tableRows(file: URL, heading: string): Row[] {
  const text = readFileSync(file, 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${file.pathname}: no heading "${heading}"`);
  const section = text.slice(start + heading.length + 2).split(/\n##? /)[0]!;
  return [...section.matchAll(/^\| `([a-z_]+)` \| (.*?) \|/gm)].map(([, verb, args]) => ({ verb: verb!, args: args! }));
}

interface Property {
  readonly default?: unknown;
}
const registry = createStandardRegistry();
/** Each verb's input keys from the manifest's JSON Schema, with whether they are required and their default. */
const inputs = new Map(
  registry.manifest().capabilities.map(({ name, versions }) => {
    const schema = versions[0]!.inputSchema as { properties?: Record<string, Property>; required?: string[] };
    return [name, { properties: schema.properties ?? {}, required: new Set(schema.required ?? []) }] as const;
  }),
);

/** How the guide writes one argument: `name` required, `name?` optional, `name=<default>` (strings quoted '…'). */
function guideToken(name: string, property: Property, required: boolean): string {
  if (required) return `\`${name}\``;
  const value = property.default;
  if (value === undefined || (typeof value === 'object' && value !== null)) return `\`${name}?\``;
  return `\`${name}=${typeof value === 'string' ? `'${value}'` : String(value)}\``;
}

describe('verb tables in the docs', () => {
  it('the standard registry has the 20 verbs the docs count', () => {
    expect(registry.verbs()).toHaveLength(20);
  });

  it('the first-bot guide lists exactly the registry verbs, each argument marked required, optional or with its default', () => {
    const rows = tableRows(GUIDE, '## 5. The standard verbs');
    expect(rows.map((row) => row.verb)).toEqual(registry.verbs());
    const problems: string[] = [];
    for (const { verb, args } of rows) {
      const { properties, required } = inputs.get(verb)!;
      const expected = Object.entries(properties).map(([name, property]) => guideToken(name, property, required.has(name)));
      // The leading token of each comma-separated argument; nested details like (`lava`, …) are not arguments.
      const written = args.replace(/\([^)]*\)/g, '').split(',').map((part) => part.trim().split(' ')[0]!);
      if (JSON.stringify(written) !== JSON.stringify(expected)) problems.push(`${verb}: docs ${written.join(', ')} ≠ registry ${expected.join(', ')}`);
    }
    expect(problems).toEqual([]);
  });

  it('the capabilities README lists exactly the registry verbs and names every argument of each', () => {
    const rows = tableRows(README, '## The standard set (all `1.0.0`)');
    expect(rows.map((row) => row.verb).sort()).toEqual(registry.verbs());
    const missing = rows.flatMap(({ verb, args }) =>
      Object.keys(inputs.get(verb)!.properties)
        .filter((name) => !args.includes(`\`${name}`))
        .map((name) => `${verb}.${name}`),
    );
    expect(missing).toEqual([]);
  });
});
