import { formatPredicate, parsePredicate, PredicateSchema } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { buildStructure, createStandardRegistry, placeBlock, smeltItem } from '../src/index.js';

const registry = createStandardRegistry();
const manifest = registry.manifest();

/** Every declared precond/effect string the manifest and tool definitions show, with where it came from. */
function declared(): { readonly where: string; readonly text: string }[] {
  const fromManifest = manifest.capabilities.flatMap((cap) =>
    cap.versions.flatMap((v) => [...v.preconds, ...v.effects].map((text) => ({ where: `${cap.name}@${v.version}`, text }))),
  );
  const fromTools = registry.toolDefinitions().flatMap((tool) => [...(tool.preconds ?? []), ...(tool.effects ?? [])].map((text) => ({ where: `tool ${tool.name}`, text })));
  return [...fromManifest, ...fromTools];
}

describe('declared preconds and effects of the standard capabilities (one predicate dialect)', () => {
  it('every declaration of every capability parses, and formats back to the same string', () => {
    const all = declared();
    expect(all.length).toBeGreaterThanOrEqual(2 * 25);
    for (const { where, text } of all) {
      const parsed = parsePredicate(text, { templates: true });
      expect(parsed, `${where}: ${text}`).toMatchObject({ ok: true });
      if (parsed.ok) expect(formatPredicate(parsed.predicate), where).toBe(text);
    }
  });

  it('uses the vocabulary, not free strings: no standard declaration is custom', () => {
    expect(declared().filter(({ text }) => text.startsWith('custom:'))).toEqual([]);
  });

  it('renders args as placeholders named after their fields', () => {
    const versions = (name: string) => manifest.capabilities.find((c) => c.name === name)!.versions[0]!;
    expect(versions('smelt_item')).toMatchObject({ preconds: ['near_block:furnace', 'has_item:<input>:<count>', 'has_item:coal:<fuel>'], effects: ['has_item:<item>:+<count>'] });
    expect(versions('equip')).toMatchObject({ preconds: ['has_item:<item>:1'], effects: ['equipped:<destination>=<item>'] });
    expect(versions('pillar_up')).toMatchObject({ preconds: ['has_item:<item>:<height>'], effects: ['y:+<height>'] });
    expect(versions('escape_fluid').effects).toEqual(['out_of:<fluid>']);
    expect(registry.toolDefinitions().find((t) => t.name === 'flee')?.effects).toEqual(['distance_from_threat:>=<distance>']);
  });

  it('gives concrete predicates a step could carry for concrete args', () => {
    const smelt = smeltItem.inputSchema.parse({ item: 'iron_ingot', input: 'raw_iron', count: 9 });
    expect(smeltItem.preconds(smelt).map(formatPredicate)).toEqual(['near_block:furnace', 'has_item:raw_iron:9', 'has_item:coal:2']);
    const place = placeBlock.inputSchema.parse({ item: 'dirt', position: { x: -1.5, y: 64, z: 0.2 } });
    expect(placeBlock.effects(place).map(formatPredicate)).toEqual(['block:-2,64,0=dirt']);
    const blueprint = [
      { dx: 0, dy: 0, dz: 0, block: 'cobblestone' },
      { dx: 1, dy: 0, dz: 0, block: 'oak_planks' },
      { dx: 0, dy: 1, dz: 0, block: 'cobblestone' },
    ];
    const build = buildStructure.preconds(buildStructure.inputSchema.parse({ blueprint }));
    expect(build.map(formatPredicate)).toEqual(['has_item:cobblestone:2', 'has_item:oak_planks:1']);
    for (const predicate of [...smeltItem.preconds(smelt), ...build]) expect(PredicateSchema.safeParse(predicate).success).toBe(true);
  });
});
