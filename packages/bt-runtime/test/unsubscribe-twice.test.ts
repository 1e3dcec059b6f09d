import { accepted, ManualClock, type Logger } from '@sinew/executor-contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createExecutor } from '../src/index.js';
import { defineFake, fakeBody, registryWith } from './fake-body.js';

// An unsubscribe function called twice (a React effect's cleanup run again, a dashboard that disconnects twice) after
// its event's last listener already left is a no-op: later events reach nobody and nothing is logged as a broken
// listener. Manual clock, fake body, a logger that keeps what it is told.

const nod = defineFake({ name: 'nod', version: '1.0.0', description: 'nods', inputSchema: z.strictObject({}), run: async (ctx) => ctx.body.chat('*nods*'), acceptance: () => accepted });

describe('an unsubscribe called again after the last listener of its event left', () => {
  it('changes nothing: the next steps emit to nobody and no listener error is logged', async () => {
    const logged: string[] = [];
    const logger: Logger = { debug: () => {}, info: () => {}, warn: (m) => void logged.push(`warn ${m}`), error: (m) => void logged.push(`error ${m}`) };
    const executor = createExecutor({ registry: registryWith(nod), body: fakeBody(), clock: new ManualClock(), logger });
    const seen: string[] = [];
    const off = executor.on('step.succeeded', (e) => void seen.push(e.stepId));
    await executor.run({ planId: 'p1', intentId: 'i', steps: [{ stepId: 'a', type: 'nod', args: {} }] });
    off();
    off();
    await executor.run({ planId: 'p2', intentId: 'i', steps: [{ stepId: 'b', type: 'nod', args: {} }] });
    expect(seen).toEqual(['a']);
    expect(logged).toEqual([]);
  });
});
