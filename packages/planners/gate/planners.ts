// The router's planners for the verb gate (CI): `sinew-verbs check --registry packages/capabilities/src/registry.ts
// --export standardRegistry --planner packages/planners/gate/planners.ts`. The LLM planner offers exactly the
// registry's verbs (its schema is generated from the registry), so the HTN and needs planners are what can diverge.
import { standardRegistry } from '@sinew/capabilities';
import { createNeedsPlanner } from '@sinew/planners';
import { createMinecraftHtn } from '@sinew/planners/minecraft';

export const htnPlanner = createMinecraftHtn({ registry: standardRegistry });
export const needsPlanner = createNeedsPlanner({ seed: 0 });
