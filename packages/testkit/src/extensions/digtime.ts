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

/** How often the loop's heartbeat runs (ms). */
const BEAT_MS = 10;

/**
 * The event loop's heartbeat, which tells how long a packet read now may have waited unread. The server shares its
 * process (and its one event loop) with the bots of a test: a client's packet written just before the loop is held up
 * (a collection, a slow callback, a loaded machine) is read when the loop is free again, while the client's own timer
 * kept running. A dig start read 300 ms late made a dirt dig that waited its full 750 ms measure 9 ticks of the 10.5
 * vanilla needs, and the dig was refused (a CI run: the bot saw the block break, its drop never came).
 */
class LoopHeartbeat {
  /** When the heartbeat last ran, and the time before that. */
  #last = performance.now();
  #previous = this.#last;

  constructor(ctx: ExtensionContext) {
    const timer = setInterval(() => {
      this.#previous = this.#last;
      this.#last = performance.now();
    }, BEAT_MS);
    timer.unref();
    ctx.timers.add(timer);
  }

  /**
   * The earliest moment a packet read now may have arrived: now, less the time it may have waited because the loop
   * was held up (nothing while the loop keeps its beat). The loop last proved it was reading sockets around the
   * heartbeat before the latest one (after a hold-up, libuv runs the overdue timer before it reads the sockets, so the
   * latest beat may itself come right after the hold-up); anything beyond two beats since then is time the packet could
   * have been waiting. Never earlier than the hold-up's start: an early finish sent with its start in one go is still refused.
   */
  earliestArrival(): number {
    const now = performance.now();
    return now - Math.max(0, now - this.#previous - 2 * BEAT_MS);
  }
}

/**
 * Dig time from the held tool: a finish sent before the vanilla dig time (with vanilla's 0.7
 * allowance) is refused — the block stays, the client is told so. flying-squid accepted any
 * finish, so a start and a finish on obsidian in one tick broke it. Elapsed time is wall time
 * (clients time digs by the clock; flying-squid's tick timer falls behind under load), from when the start may have
 * arrived: a start read late because the shared event loop was held up is not charged to the client (LoopHeartbeat).
 */
export function installDigTime(ctx: ExtensionContext): void {
  const heartbeat = new LoopHeartbeat(ctx);
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    let started: { key: string; at: number } | null = null;
    // Finishes wait here until flying-squid's (async) handler reaches the dug hook.
    const finished = new Map<string, { elapsedMs: number; sequence: number }>();
    player._client.on('block_dig', (packet: DigPacket) => {
      const key = keyOf(packet.location);
      if (packet.status === 0) started = { key, at: heartbeat.earliestArrival() };
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
