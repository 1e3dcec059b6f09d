import { checkStep, isUnverified } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import {
  attackEntity,
  chat,
  craftItem,
  createStandardRegistry,
  digBlock,
  flee,
  gather,
  navigate,
  ObservedWorldSchema,
  placeBlock,
  standardCapabilities,
  standardRegistry,
  type ChatLine,
  type ObservedWorld,
  type SinewBot,
} from '../src/index.js';

const VERBS = [
  'attack_entity',
  'build_structure',
  'chat',
  'collect_drops',
  'consume_food',
  'craft_item',
  'dig_block',
  'equip',
  'escape_fluid',
  'explore',
  'fill_bucket',
  'flee',
  'gather',
  'hunt',
  'mine',
  'navigate',
  'pillar_up',
  'place_block',
  'shear',
  'smelt_item',
];

const snapshot = (over: Partial<ObservedWorld> = {}): ObservedWorld =>
  ObservedWorldSchema.parse({ position: { x: 0, y: 5, z: 0 }, health: 20, food: 20, heldItem: null, inventory: {}, blocks: {}, ...over });

describe('standardRegistry', () => {
  it('holds exactly the shared vocabulary, version 1.0.0, every acceptance real', () => {
    expect(standardRegistry.verbs()).toEqual(VERBS);
    const manifest = standardRegistry.manifest();
    for (const capability of manifest.capabilities) {
      expect(capability.versions.map((v) => v.version)).toEqual(['1.0.0']);
      expect(capability.versions[0]!.acceptance).toBe('verified');
    }
    expect(standardCapabilities.some((c) => isUnverified(c.unverified))).toBe(false);
  });

  it.each([
    ['craft_item', { item: 'oak_planks', cout: 8 }, 'unknown key `cout` — did you mean `count`?'],
    ['dig_block', { block: 'stone', maxDistnace: 8 }, 'unknown key `maxDistnace` — did you mean `maxDistance`?'],
    ['navigate', { block: 'oak_log', rnage: 1 }, 'unknown key `rnage` — did you mean `range`?'],
    ['gather', { block: 'oak_log', count: 2, maxdistance: 8 }, 'unknown key `maxdistance` — did you mean `maxDistance`?'],
    ['build_structure', { blueprint: [{ dx: 0, dy: 0, dz: 0, blok: 'dirt', block: 'dirt' }] }, 'unknown key `blok` — did you mean `block`?'],
  ])('rejects a misspelled %s argument as invalid_args naming the nearest key', (type, args, message) => {
    const check = checkStep(standardRegistry, { stepId: 's', type, args });
    expect(check.ok ? undefined : check.failure).toMatchObject({ code: 'invalid_args', issues: [{ code: 'unrecognized_keys', message }] });
  });

  it('makes every standard input schema strict (additionalProperties: false in the manifest)', () => {
    for (const capability of standardRegistry.manifest().capabilities) {
      expect(capability.versions[0]!.inputSchema, capability.name).toMatchObject({ additionalProperties: false });
    }
  });

  it('gives a fresh registry to extend without touching the shared one', () => {
    const mine = createStandardRegistry();
    expect(mine).not.toBe(standardRegistry);
    expect(mine.verbs()).toEqual(standardRegistry.verbs());
  });

  it('parses the vocabulary arg names with their defaults', () => {
    const parse = (type: string, args: Record<string, unknown>) => {
      const check = checkStep(standardRegistry, { stepId: 's', type, args });
      if (!check.ok) throw new Error(check.failure.reason);
      return check.args;
    };
    expect(parse('navigate', { position: { x: 1, y: 2, z: 3 } })).toMatchObject({ range: 2 });
    expect(parse('dig_block', { block: 'oak_log' })).toMatchObject({ maxDistance: 32 });
    expect(parse('collect_drops', {})).toMatchObject({ radius: 8 });
    expect(parse('craft_item', { item: 'stick' })).toMatchObject({ count: 1 });
    expect(parse('equip', { item: 'stone_sword' })).toMatchObject({ destination: 'hand' });
    expect(parse('attack_entity', {})).toMatchObject({ maxDistance: 16 });
    expect(parse('flee', {})).toMatchObject({ distance: 12 });
    expect(parse('gather', { block: 'log' })).toMatchObject({ count: 1, maxDistance: 48 });
    expect(parse('pillar_up', { height: 2 })).toMatchObject({ height: 2 });
    expect(parse('build_structure', { blueprint: [{ dx: 0, dy: 0, dz: 0, block: 'dirt' }] })).toBeTruthy();
    expect(parse('chat', { message: 'hi' })).toEqual({ message: 'hi' });
  });

  it('rejects bad args with the field that is wrong', () => {
    const check = checkStep(standardRegistry, { stepId: 's', type: 'craft_item', args: { item: 'stick', count: -1 } });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.failure.code).toBe('invalid_args');
      expect(check.failure.issues?.[0]?.path).toEqual(['count']);
    }
  });

  it('exports tool definitions an LLM can call', () => {
    const tools = standardRegistry.toolDefinitions();
    expect(tools.map((t) => t.name)).toEqual(VERBS);
    expect(tools.find((t) => t.name === 'place_block')?.inputSchema).toMatchObject({ required: ['item'] });
  });
});

describe('acceptance on golden snapshots', () => {
  it('navigate: within range of the position, not beyond', () => {
    const args = navigate.inputSchema.parse({ position: { x: 10, y: 5, z: 0 } });
    expect(navigate.acceptance(snapshot(), snapshot({ position: { x: 9.5, y: 5, z: 0.5 } }), args).ok).toBe(true);
    expect(navigate.acceptance(snapshot(), snapshot({ position: { x: 2, y: 5, z: 0 } }), args)).toMatchObject({ ok: false, unmet: ['at:10,5,0'] });
  });

  it('dig_block: the block must be air afterwards', () => {
    const args = digBlock.inputSchema.parse({ position: { x: 1, y: 5, z: 0 } });
    const pre = snapshot({ blocks: { '1,5,0': 'dirt' } });
    expect(digBlock.acceptance(pre, snapshot({ blocks: { '1,5,0': 'air' } }), args).ok).toBe(true);
    expect(digBlock.acceptance(pre, snapshot({ blocks: { '1,5,0': 'dirt' } }), args).ok).toBe(false);
  });

  it('dig_block: a post snapshot that does not observe the target is not air (nor another block dug)', () => {
    const args = digBlock.inputSchema.parse({ block: 'oak_log' });
    const pre = snapshot({ blocks: { '1,5,0': 'oak_log' } });
    expect(digBlock.acceptance(pre, snapshot({ blocks: {} }), args)).toMatchObject({ ok: false, unmet: ['air:1,5,0'] });
    const other = digBlock.acceptance(pre, snapshot({ blocks: { '4,5,0': 'air' } }), args);
    expect(other).toMatchObject({ ok: false, unmet: ['air:1,5,0'] });
    expect(other.ok ? '' : other.reason).toMatch(/not observed/);
  });

  it('place_block: the block at the position must be the item', () => {
    const args = placeBlock.inputSchema.parse({ item: 'cobblestone', position: { x: 1, y: 5, z: 0 } });
    const pre = snapshot({ blocks: { '1,5,0': 'air' } });
    expect(placeBlock.acceptance(pre, snapshot({ blocks: { '1,5,0': 'cobblestone' } }), args).ok).toBe(true);
    expect(placeBlock.acceptance(pre, pre, args).ok).toBe(false);
  });

  it('craft_item: the count must rise by at least count', () => {
    const args = craftItem.inputSchema.parse({ item: 'stick', count: 4 });
    const pre = snapshot({ inventory: { stick: 1 } });
    expect(craftItem.acceptance(pre, snapshot({ inventory: { stick: 5 } }), args).ok).toBe(true);
    expect(craftItem.acceptance(pre, snapshot({ inventory: { stick: 4 } }), args)).toMatchObject({ ok: false, unmet: ['has_item:stick:5'] });
  });

  it('gather: a suffix group counts every matching item', () => {
    const args = gather.inputSchema.parse({ block: 'log', count: 3 });
    const pre = snapshot({ inventory: { oak_log: 1 } });
    expect(gather.acceptance(pre, snapshot({ inventory: { oak_log: 2, birch_log: 2 } }), args).ok).toBe(true);
    expect(gather.acceptance(pre, snapshot({ inventory: { oak_log: 3 } }), args).ok).toBe(false);
  });

  it('attack_entity: health fell, hurt seen or death seen; a target merely not observed is not killed', () => {
    const args = attackEntity.inputSchema.parse({ entity: 'zombie' });
    const zombie = { name: 'zombie', position: { x: 2, y: 5, z: 0 }, health: 20, hurts: 0 };
    const pre = snapshot({ entities: { '7': zombie } });
    expect(attackEntity.acceptance(pre, snapshot({ entities: { '7': { ...zombie, health: 14 } } }), args).ok).toBe(true);
    expect(attackEntity.acceptance(pre, snapshot({ entities: { '7': { ...zombie, hurts: 1 } } }), args).ok).toBe(true);
    expect(attackEntity.acceptance(pre, snapshot({ entities: { '7': { name: 'zombie', position: zombie.position, dead: true } } }), args).ok).toBe(true);
    expect(attackEntity.acceptance(pre, snapshot({ entities: { '7': zombie } }), args).ok).toBe(false);
    const gone = attackEntity.acceptance(pre, snapshot({ entities: {} }), args);
    expect(gone).toMatchObject({ ok: false, unmet: ['hurt:zombie#7'] });
    expect(gone.ok ? '' : gone.reason).toMatch(/target no longer observed/);
  });

  it('chat: only our own exact echo, newer than anything seen before, counts', async () => {
    // The smallest body observeWorld reads: acceptance needs observe to learn the speaker's name.
    const log: ChatLine[] = [];
    const body = { username: 'sinew', entity: { position: { x: 0, y: 5, z: 0 } }, health: 20, food: 20, heldItem: null, inventory: { items: () => [] }, sinew: { chatLog: log } };
    const observe = async (args: ReturnType<typeof chat.inputSchema.parse>) => (await chat.observe({ body: body as unknown as SinewBot }, args)) as ObservedWorld;
    const say = (line: string) => log.push({ seq: (log.at(-1)?.seq ?? 0) + 1, line });
    const args = chat.inputSchema.parse({ message: 'hi' });
    say('<sinew> hi'); // an old echo of the same message, already seen
    const pre = await observe(args);
    say('<dummy> hi'); // another player saying it
    say('<dummy> oh hi there');
    expect(chat.acceptance(pre, await observe(args), args).ok).toBe(false);
    // The ring shifted: the old echo is now at a later index but has the same seq.
    log.shift();
    expect(chat.acceptance(pre, await observe(args), args).ok).toBe(false);
    say('<sinew> hi');
    expect(chat.acceptance(pre, await observe(args), args).ok).toBe(true);
  });

  it('flee: the threat must end at least `distance` away; a vanished threat counts as outrun', () => {
    const args = flee.inputSchema.parse({ entity: 'zombie', distance: 8 });
    const threat = { name: 'zombie', position: { x: 2, y: 5, z: 0 } };
    const pre = snapshot({ entities: { '7': threat } });
    expect(flee.acceptance(pre, snapshot({ position: { x: 12, y: 5, z: 0 }, entities: { '7': threat } }), args).ok).toBe(true);
    expect(flee.acceptance(pre, snapshot({ position: { x: 5, y: 5, z: 0 }, entities: { '7': threat } }), args).ok).toBe(false);
    expect(flee.acceptance(pre, snapshot({ entities: {} }), args).ok).toBe(true);
    expect(flee.acceptance(pre, snapshot({ position: { x: 3, y: 5, z: 0 }, entities: { '7': { ...threat, dead: true } } }), args).ok).toBe(true);
  });
});
