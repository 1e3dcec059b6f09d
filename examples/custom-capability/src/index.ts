import type { CapabilityRegistry } from '@sinew/executor-contracts';
import { createStandardRegistry, type SinewBot } from '@sinew/capabilities';
import { clearColumn } from './clear-column.js';

export { clearColumn, ClearColumnArgsSchema, type ClearColumnArgs } from './clear-column.js';

/** The standard Minecraft set plus this example's own `clear_column`. */
export function createRegistry(): CapabilityRegistry<SinewBot> {
  return createStandardRegistry().register(clearColumn);
}
