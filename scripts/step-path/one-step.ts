// The step scripts/step-path.mjs traces: an executor with a registry and a body (metrics and clock its defaults, no
// server, no listeners), one plan of one step of `noop` — a function runner that pokes the body once (bench/noop.ts).
import { CapabilityRegistry } from '@sinew/executor-contracts';
import { createExecutor } from '@sinew/bt-runtime';
import { createNoopBody, noop, type NoopBody } from '../../bench/noop.js';

const executor = createExecutor({ registry: new CapabilityRegistry<NoopBody>().register(noop), body: createNoopBody() });
const plan = (planId: string) => ({ planId, intentId: 'step-path', steps: [{ stepId: 's1', type: 'noop', args: { n: 1 } }] });

/** Runs one one-step plan; the first call is the warm-up (lazy set-up is not the step's path). */
export async function runOneStep(planId: string): Promise<string> {
  return (await executor.run(plan(planId))).status;
}

export const close = (): Promise<void> => executor.close();
