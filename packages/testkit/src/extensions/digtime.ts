import { performance } from 'node:perf_hooks';
import type { Vec3 } from 'vec3';
import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';
import { heldTypeAtFinish, onDigFinish, type DugBlock } from './dug.js';

/** Milliseconds per game tick. */
const TICK_MS = 50;
/**
 * Vanilla's own allowance: a finish is accepted once `progressPerTick × (ticksSinceStart + 1)`
 * reaches 0.7 (ServerPlayerGameMode), i.e. one tick plus 30 % early.
 */
const DIG_FINISH_RATIO = 0.7;

/** Ticks the held item (null = hand) needs to break the block: vanilla's formula without enchantments, effects, water or airborne penalties. */
export function digTicks(block: DugBlock, heldItemType: number | null): number {
  return block.digTime(heldItemType, false, false, false) / TICK_MS;
}

/** True when a dig of `elapsedTicks` is long enough for vanilla to accept its finish. */
function digFinishAccepted(requiredTicks: number, elapsedTicks: number): boolean {
  return requiredTicks === 0 || elapsedTicks + 1 >= DIG_FINISH_RATIO * requiredTicks;
}

interface DigPacket {
  status: number;
  location: { x: number; y: number; z: number };
  sequence?: number;
}

const keyOf = (p: { x: number; y: number; z: number }): string => `${p.x},${p.y},${p.z}`;

/**
 * Dig time from the held tool: a finish sent before the vanilla dig time (with vanilla's 0.7
 * allowance) is refused — the block stays, the client is told so. flying-squid accepted any
 * finish, so a start and a finish on obsidian in one tick broke it. Elapsed time is wall time
 * (clients time digs by the clock; flying-squid's tick timer falls behind under load).
 */
export function installDigTime(ctx: ExtensionContext): void {
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    let started: { key: string; at: number } | null = null;
    // Finishes wait here until flying-squid's (async) handler reaches the dug hook.
    const finished = new Map<string, { elapsedMs: number; sequence: number }>();
    player._client.on('block_dig', (packet: DigPacket) => {
      const key = keyOf(packet.location);
      if (packet.status === 0) started = { key, at: performance.now() };
      else if (packet.status === 1) started = null;
      else if (packet.status === 2) {
        const elapsedMs = started?.key === key ? performance.now() - started.at : -Infinity;
        finished.set(key, { elapsedMs, sequence: packet.sequence ?? 0 });
        started = null;
      }
    });
    onDigFinish(player, ({ position, block }, cancel) => {
      const finish = finished.get(keyOf(position));
      finished.delete(keyOf(position));
      const required = digTicks(block, heldTypeAtFinish(player, position));
      const onTime = finish !== undefined && digFinishAccepted(required, finish.elapsedMs / TICK_MS);
      if (onTime) return;
      const elapsed = finish ? `${(finish.elapsedMs / TICK_MS).toFixed(1)} ticks` : 'no start';
      ctx.serv.err(`refused the dig of ${block.name} at ${position.toString()} by ${player.username}: ${elapsed}, needs ${required}`);
      cancel(false);
      refuse(player, position, block.stateId, finish?.sequence ?? 0);
    });
  });
}

/** Vanilla's answer to a rejected finish: the block as it is, and the acknowledgement of the sequence. */
function refuse(player: SquidPlayer, position: Vec3, stateId: number, sequence: number): void {
  player._client.write('block_change', { location: position, type: stateId });
  player._client.write('acknowledge_player_digging', { sequenceId: sequence });
}
