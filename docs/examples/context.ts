// The names the `@example` blocks of the packages' doc comments use without declaring them: what a reader
// already has at that point (a bot, an executor, a registry, a world). scripts/examples.mjs imports them into
// each example and type-checks it against the public entry points; a name added here is a name every
// example may use, so each is typed as the public API gives it, never `any`.
import type { Block as PrismarineBlock } from 'prismarine-block';
import type { Bot as MineflayerBot } from 'mineflayer';
import type { CapabilityRegistry, PlanInput, RunContext } from '@sinew/executor-contracts';
import type { Clock, Executor } from '@sinew/bt-runtime';
import type { SinewBot } from '@sinew/capabilities';
import type { createCollaborativePlanner, createHtnPlanner, createRouter, HtnPlanner, NeedsPlanner, Planner, PlannerWorld, Router } from '@sinew/planners';
import type { createHtnMetrics } from '@sinew/bt-runtime';
import type { TestServer } from '@sinew/testkit';

export { z } from 'zod';
export * as mineflayer from 'mineflayer';
export { Project } from 'ts-morph';

/** A mineflayer bot with the `sinew` plugin loaded. */
export declare const bot: SinewBot;
/** A bare mineflayer bot, and its blocks. */
export type Bot = MineflayerBot;
export type Block = PrismarineBlock;
/** What a capability's author writes to find a block (mineflayer's `bot.findBlock` behind it). */
export declare function findBlock(bot: Bot, name: string): Block;
/** The body a test gives the executor. */
export declare const body: SinewBot;
/** A block the runner found. */
export declare const block: Block;
/** A runner's context. */
export declare const ctx: RunContext<SinewBot>;
export declare const registry: CapabilityRegistry;
export declare const executor: Executor<SinewBot>;
export declare const plan: PlanInput;
/** The injected clock, and a model call bounded on it. */
export declare const clock: Clock;
export declare function complete(prompt: string): Promise<string>;
export declare const prompt: string;
/** A factory's raw options, before they are validated. */
export declare const options: { readonly limits?: object };
export declare const server: TestServer;
export declare const host: string;
export declare const port: number;
/** The world a planner reads. */
export declare const world: PlannerWorld;
export declare const planner: Planner;
export declare const router: Router;
export declare const htn: HtnPlanner;
export declare const needs: NeedsPlanner;
export declare const llm: Parameters<typeof createCollaborativePlanner>[0]['proposer'];
export declare const goap: Parameters<typeof createCollaborativePlanner>[0]['goap'];
export declare const planners: Parameters<typeof createRouter>[0]['planners'];
export declare const rules: NonNullable<Parameters<typeof createRouter>[0]['rules']>;
export declare const methods: Parameters<typeof createHtnPlanner>[0]['methods'];
export declare const operators: Parameters<typeof createHtnPlanner>[0]['operators'];
export declare const memory: NonNullable<Parameters<typeof createHtnMetrics>[1]>['memory'];
/** A user's own body and world types, for a typed capability factory. */
export interface MyBot {
  chat(message: string): void;
}
export interface MyWorld {
  readonly inventory: Readonly<Record<string, number>>;
}
