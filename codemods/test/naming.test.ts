import { describe, expect, it } from 'vitest';
import { toCamelCase, toSnakeCase } from '../src/naming.js';

describe('verb naming', () => {
  it.each([
    ['craftItem', 'craft_item'],
    ['CraftItem', 'craft_item'],
    ['goToPosition', 'go_to_position'],
    ['parseHTTPRequest', 'parse_http_request'],
    ['go-to-bed', 'go_to_bed'],
    ['dig_block', 'dig_block'],
    ['lookAround2', 'look_around2'],
  ])('%s → %s', (name, verb) => {
    expect(toSnakeCase(name)).toBe(verb);
  });

  it('camelCases a verb for export names', () => {
    expect(toCamelCase('go_to_bed')).toBe('goToBed');
    expect(toCamelCase('CollectDropsLeaf')).toBe('collectDropsLeaf');
  });
});
