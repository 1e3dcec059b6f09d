// `npm start -w @sinew/example-llm-planner -- --base-url http://127.0.0.1:8080/v1 --model <name> "<goal>"`:
// a bot on an embedded server plans the goal with your model and runs the plan.
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { createStandardRegistry, sinew } from '@sinew/capabilities';
import { connectBot, startServer } from '@sinew/testkit';
import { createExamplePlanner } from './planner.js';
import { planAndRun } from './run.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { 'base-url': { type: 'string' }, model: { type: 'string' }, 'api-key': { type: 'string' } },
});
const baseUrl = values['base-url'];
const model = values.model;
const goal = positionals.join(' ');
if (!baseUrl || !model || !goal) {
  process.stderr.write('usage: npm start -- --base-url <http://host:port/v1> --model <name> [--api-key <key>] "<goal>"\n');
  process.exit(2);
}
const registry = createStandardRegistry();
const planner = createExamplePlanner({
  endpoint: { baseUrl, model, timeoutMs: 30_000, ...(values['api-key'] ? { apiKey: values['api-key'] } : {}) },
  registry,
  onEvent: (event) => event.type === 'rejected' && process.stdout.write(`  rejected (attempt ${event.attempt}): ${event.complaint}\n`),
});
const server = await startServer();
const bot = await connectBot(server, { username: 'thinker' });
bot.loadPlugin(sinew);
try {
  const { planned, outcome } = await planAndRun({ body: bot, registry, planner, goal });
  if (!planned.ok) {
    process.stdout.write(`no plan: ${planned.failure.code} — ${planned.failure.reason}\n`);
    process.exitCode = 3;
  } else {
    for (const step of outcome?.steps ?? []) process.stdout.write(`  ${step.verb.padEnd(16)} ${step.status}${step.failure ? ` ${step.failure.code}: ${step.failure.reason}` : ''}\n`);
    process.stdout.write(`plan ${outcome?.status}\n`);
    process.exitCode = outcome?.status === 'completed' ? 0 : 1;
  }
} finally {
  // Wait for the socket to close: mineflayer's quit otherwise keeps a 30 s timer alive.
  await Promise.all([once(bot, 'end'), bot.quit()]);
  await server.stop();
}
