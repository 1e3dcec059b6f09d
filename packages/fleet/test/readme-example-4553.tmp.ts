import { createExecutor, instrumentMethods } from '@sinew/bt-runtime';
import { accepted, CapabilityRegistry, defineCapability, effectsUnmet } from '@sinew/executor-contracts';
import { createFleetQueue, createFleetWorker, createRedisJournal } from '@sinew/fleet';
import { z } from 'zod';

// A stand-in body; a mineflayer bot goes here (instrumentBot from @sinew/bt-runtime).
const dug = new Set<string>();
const body = instrumentMethods({ swing: (block: string) => (dug.add(block), console.log(`swing at ${block}`)) }, ['swing']);
const registry = new CapabilityRegistry<typeof body>();
registry.register(
  defineCapability({
    name: 'dig',
    version: '1.0.0',
    description: 'dig one block',
    inputSchema: z.object({ block: z.string() }),
    run: async (ctx, { block }) => void ctx.body.swing(block),
    observe: (_ctx, { block }) => dug.has(block),
    acceptance: (_pre, gone, { block }) => (gone ? accepted : effectsUnmet([`dug:${block}`])),
  }),
);
const executor = createExecutor({ registry, body });

const redis = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const [queue, journal] = [createFleetQueue(redis), createRedisJournal(redis)];
const worker = createFleetWorker({ queue, journal, executor, isReady: () => true });

await queue.submit({ planId: 'clear-path/1', intentId: 'clear-path', steps: [{ stepId: 'a', type: 'dig', args: { block: 'stone@3,64,-2' } }] });
let history = await journal.history('clear-path/1');
while (!history.records.some((record) => record.kind === 'plan_end')) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  history = await journal.history('clear-path/1');
}
console.log(history.records.map((record) => record.kind).join(' → '));
await worker.close();
await Promise.all([executor.close(), queue.close(), journal.close()]);
