// The no-op body and capability the executor-overhead and server benches share: one instrumented method,
// a capability that calls it once, so what a bench measures is the pipeline around it.
import { accepted, defineCapability } from '@sinew/executor-contracts';
import { instrumentMethods, type ActuatorSource } from '@sinew/bt-runtime';
import { z } from 'zod';

class PokeBody {
  pokes = 0;
  poke(): void {
    this.pokes += 1;
  }
}
export type NoopBody = PokeBody & ActuatorSource;

/** A fresh instrumented body with one actuator, `poke()`. */
export const createNoopBody = (): NoopBody => instrumentMethods(new PokeBody(), ['poke']);

export const NoopArgs = z.object({ n: z.number() });

/** `noop`: pokes the body once; guard and acceptance always pass. */
export const noop = defineCapability<typeof NoopArgs, NoopBody>({
  name: 'noop',
  version: '1.0.0',
  description: 'pokes the body once',
  inputSchema: NoopArgs,
  guard: () => ({ ok: true }),
  run: async (ctx) => {
    ctx.body.poke();
  },
  acceptance: () => accepted,
});
