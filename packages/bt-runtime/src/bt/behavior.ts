import { ConfigError, type RunContext } from '@sinew/executor-contracts';
import type { Clock } from '../clock/clock.js';
import { TreeInstance, TreePool } from './adapter.js';
import { checkArguments, compile, type Kind } from './compile.js';
import type { LeafFunction } from './leaves.js';
import { runTree, type RunSettings } from './run.js';
import type { BehaviorOptions, BehaviorTreeRunner } from './types.js';

// `defineBehavior`: compile (compile.ts), leaves (leaves.ts, leaf-context.ts), the mistreevous adapter
// (adapter.ts) and the run loop (run.ts) put together.
export { behaviorNodePaths } from './compile.js';
// The public types and errors: every name of types.ts is public.
export * from './types.js';

/**
 * A capability runner backed by a mistreevous behavior tree. Sinew owns every leaf invocation (run id,
 * AbortController, stale results dropped), steps again as soon as a leaf settles, reports node
 * transitions as progress, enforces `maxNodeDurationMs`, and halts the tree from its root on abort so exit
 * callbacks run. Unknown leaf names throw a BehaviorDefinitionError here, at build time.
 *
 * @example
 * const TARGET = blackboardKey<Block>('dig.target');
 * const gather = defineBehavior<Bot, { block: string }>({
 *   tree: `root { sequence { action [Find] action [Dig] } }`,
 *   actions: { Find: (ctx) => { ctx.blackboard.set(TARGET, findBlock(ctx.body, ctx.args.block)); }, Dig: async (ctx) => { await ctx.body.dig(ctx.blackboard.get(TARGET)!); } },
 * });
 */
export function defineBehavior<Body, Args>(options: BehaviorOptions<Body, Args>): BehaviorTreeRunner<Body, Args> {
  const settings = runSettings(options);
  const functions = {
    action: options.actions,
    condition: options.conditions ?? {},
    callback: options.callbacks ?? {},
  } as unknown as Record<Kind, Readonly<Record<string, LeafFunction>>>;
  const own = (record: Readonly<Record<string, unknown>>) => new Set(Object.keys(record).filter((k) => typeof record[k] === 'function'));
  const compiled = compile(options.tree, { action: own(functions.action), condition: own(functions.condition), callback: own(functions.callback) });
  checkArguments(compiled.leaves, functions);
  const pool = new TreePool(() => new TreeInstance(compiled, functions, settings.maxNodeDurationMs !== undefined));
  return {
    kind: 'behavior-tree',
    nodePaths: compiled.paths,
    run: (ctx: RunContext<Body>, args: Args) => runTree(pool, ctx as unknown as RunContext<unknown> & { clock?: Clock }, args, settings),
  };
}

function runSettings(options: Pick<BehaviorOptions<never, never>, 'tickMs' | 'maxNodeDurationMs' | 'clock'>): RunSettings {
  const { tickMs = 50, maxNodeDurationMs, clock } = options;
  if (!(tickMs > 0)) throw ConfigError.field('defineBehavior', ['tickMs'], `tickMs must be > 0, got ${tickMs}`);
  if (maxNodeDurationMs !== undefined && !(maxNodeDurationMs > 0)) {
    throw ConfigError.field('defineBehavior', ['maxNodeDurationMs'], `maxNodeDurationMs must be > 0, got ${maxNodeDurationMs}`);
  }
  return { tickMs, maxNodeDurationMs, clock };
}
