// The real-bot fleet kill test at bench size (issue 30): SINEW_BENCH_FLEET_WORKERS (default 5) worker processes,
// each a real mineflayer bot on the embedded testkit server, dig dirt blocks through the fleet queue on a real
// redis-server; in every trial one bot with a dig dispatched is SIGKILLed at a seeded moment and replaced. An
// observer bot counts each block's dirt → air transitions. SINEW_BENCH_FLEET_TRIALS (default 20).
import { startServer } from '@sinew/testkit';
import { runBotKillTrials } from '../packages/fleet/test/bot-kill-harness.js';
import { startRedisServer } from '../packages/fleet/test/redis-server.js';
import { record, runMain } from './harness.js';

const TRIALS = Number(process.env.SINEW_BENCH_FLEET_TRIALS ?? 20);
const WORKERS = Number(process.env.SINEW_BENCH_FLEET_WORKERS ?? 5);

runMain(async () => {
  const [redis, mc] = await Promise.all([startRedisServer(), startServer()]);
  try {
    const rows = await runBotKillTrials(mc, redis, { trials: TRIALS, seed: 31, workers: WORKERS, plansPerTrial: 8 });
    console.table(rows);
    const sum = (field: keyof (typeof rows)[number]) => rows.reduce((n, row) => n + Number(row[field]), 0);
    console.log(`fleet real-bot kill test: ${rows.length} trials, ${WORKERS} bot workers, ${sum('plans')} plans, ${sum('steps')} digs, ${sum('kills')} SIGKILLs`);
    console.log(`  lost plans ${sum('lost')} | blocks dug twice ${sum('blocksDugTwice')} | blocks left ${sum('blocksLeft')} | dug but unseen by the observer ${sum('blocksUnseen')} | re-dispatches ${sum('redispatches')} (outside the effect→record window ${sum('doublesOutsideWindow')})`);
    record({ figure: 'fleet bots: plans lost', unit: 'plans', values: [sum('lost')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: blocks dug twice', unit: 'blocks', values: [sum('blocksDugTwice')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: blocks left undug', unit: 'blocks', values: [sum('blocksLeft')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: re-dispatches outside the window', unit: 'steps', values: [sum('doublesOutsideWindow')], target: { value: 0 }, digits: 0 });
  } finally {
    await mc.stop();
    await redis.dispose();
  }
});
