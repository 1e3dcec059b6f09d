import { parseArgs } from 'node:util';
import { z } from 'zod';
import { runDemo } from './demo.js';
import { runAutonomous } from './autonomous/run.js';
import { FlagsSchema, misplacedFlags } from './flags.js';

const USAGE = 'usage: npm run demo -- [--port <0-65535>] [--keep-alive] [--provenance <file.jsonl>] [--memory <file.json>] [--no-repair] [--goal wooden_pickaxe|stone_pickaxe|iron_pickaxe] [--seed <n>] | --autonomous [--minutes <n>] [--port <0-65535>]';

async function main(): Promise<number> {
  let raw: Record<string, unknown>;
  try {
    raw = parseArgs({
      options: {
        'keep-alive': { type: 'boolean' },
        port: { type: 'string' },
        provenance: { type: 'string' },
        memory: { type: 'string' },
        'no-repair': { type: 'boolean' },
        goal: { type: 'string' },
        seed: { type: 'string' },
        autonomous: { type: 'boolean' },
        minutes: { type: 'string' },
      },
      strict: true,
    }).values;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n${USAGE}\n`);
    return 2;
  }
  const flags = FlagsSchema.safeParse(raw);
  if (!flags.success) {
    process.stderr.write(`invalid flags:\n${z.prettifyError(flags.error)}\n${USAGE}\n`);
    return 2;
  }
  const misplaced = misplacedFlags(raw);
  if (misplaced.length > 0) {
    process.stderr.write(`invalid flags: ${misplaced.join('; ')}\n${USAGE}\n`);
    return 2;
  }
  if (flags.data.autonomous) return (await runAutonomous({ minutes: flags.data.minutes ?? 2, port: flags.data.port })).exitCode;
  const result = await runDemo({
    port: flags.data.port,
    keepAlive: flags.data['keep-alive'],
    provenancePath: flags.data.provenance,
    ...(flags.data.memory ? { memoryPath: flags.data.memory } : {}),
    repair: !flags.data['no-repair'],
    goal: flags.data.goal,
    seed: flags.data.seed,
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
