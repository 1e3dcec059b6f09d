// The real-bot fleet kill test at bench size (issue 30): SINEW_BENCH_FLEET_WORKERS (default 5) worker processes,
// each a real mineflayer bot on the embedded testkit server, dig dirt blocks and craft oak planks through the fleet
// queue on a real redis-server (append-only, fsync always); in every trial one bot with a step dispatched is
// SIGKILLed at a seeded moment and replaced, and in every fourth trial redis-server is SIGKILLed and restarted on
// its port and data dir. An observer bot counts each block's dirt → air transitions, the server the planks crafted.
// SINEW_BENCH_FLEET_TRIALS (default 20).
import { startServer } from '@sinew/testkit';
import { runBotKillTrials } from '../packages/fleet/test/bot-kill-harness.js';
import { startRedisServer } from '../packages/fleet/test/redis-server.js';
import { record, runMain } from './harness.js';

const TRIALS = Number(process.env.SINEW_BENCH_FLEET_TRIALS ?? 20);
const WORKERS = Number(process.env.SINEW_BENCH_FLEET_WORKERS ?? 5);

runMain(async () => {
  const [redis, mc] = await Promise.all([startRedisServer(), startServer()]);
  try {
    const rows = await runBotKillTrials(mc, redis, { trials: TRIALS, seed: 31, workers: WORKERS, plansPerTrial: 8, craftsPerTrial: 4, redisRestartTrials: Array.from({ length: TRIALS }, (_, t) => t).filter((t) => t % 4 === 1) });
    console.table(rows);
    const sum = (field: keyof (typeof rows)[number]) => rows.reduce((n, row) => n + Number(row[field]), 0);
    console.log(`fleet real-bot kill test: ${rows.length} trials, ${WORKERS} bot workers, ${sum('plans')} plans, ${sum('steps')} steps (${sum('craftPlans')} crafts), ${sum('kills')} SIGKILLs, ${sum('redisRestarted')} redis-server restarts`);
    console.log(`  lost plans ${sum('lost')} | blocks dug twice ${sum('blocksDugTwice')} | blocks left ${sum('blocksLeft')} | dug but unseen by the observer ${sum('blocksUnseen')} | crafts ${sum('crafts')} of ${sum('craftPlans')} (${sum('craftsCompleted')} completed), crafted twice ${sum('craftedTwice')} | plans refused (a craft the killed bot may have made) ${sum('refused')} | takeovers of an unrecorded step: recorded from the world ${sum('recovered')}, run again (absent) ${sum('rerunAbsent')}, re-dispatched by another process ${sum('redispatches')} | acknowledged records lost ${sum('acknowledgedLost')}`);
    record({ figure: 'fleet bots: plans lost', unit: 'plans', values: [sum('lost')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: blocks dug twice', unit: 'blocks', values: [sum('blocksDugTwice')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: blocks left undug', unit: 'blocks', values: [sum('blocksLeft')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: items crafted twice', unit: 'crafts', values: [sum('craftedTwice')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: acknowledged records lost', unit: 'records', values: [sum('acknowledgedLost')], target: { value: 0 }, digits: 0 });
    record({ figure: 'fleet bots: re-dispatches the world did not show absent', unit: 'steps', values: [Math.max(0, sum('redispatches') - sum('rerunAbsent'))], target: { value: 0 }, digits: 0 });
  } finally {
    await mc.stop();
    await redis.dispose();
  }
});
