import { runDemo } from './demo.js';
import { runAutonomous } from './autonomous/run.js';
import { parseFlags, USAGE } from './flags.js';

async function main(): Promise<number> {
  const parsed = parseFlags(process.argv.slice(2));
  if (!parsed.ok) {
    process.stderr.write(`${parsed.message}\n${USAGE}\n`);
    return 2;
  }
  const flags = parsed.flags;
  if (flags.autonomous) return (await runAutonomous({ minutes: flags.minutes ?? 2, port: flags.port })).exitCode;
  const result = await runDemo({
    port: flags.port,
    keepAlive: flags['keep-alive'],
    provenancePath: flags.provenance,
    ...(flags.memory ? { memoryPath: flags.memory } : {}),
    repair: !flags['no-repair'],
    goal: flags.goal,
    count: flags.count,
    ...(flags.inventory ? { inventory: flags.inventory } : {}),
    world: flags.world,
    seed: flags.seed,
    hostiles: flags.world === 'terrain' && !flags.peaceful,
    ...(flags['time-limit'] ? { timeLimitMs: flags['time-limit'] * 1000 } : {}),
  });
  return result.exitCode;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`demo failed: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
