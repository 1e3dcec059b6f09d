import type { SquidPlayer } from '../squid/types.js';
import type { ExtensionContext } from './context.js';

/**
 * flying-squid's digging plugin starts a 100 ms `setInterval(updateAnimation)` for each dig and clears it only on the
 * player's own cancel or finish: a dig started over an unfinished one, or a player who leaves (quits, is kicked,
 * the server stops) mid-dig, leaves an interval that runs forever and keeps the process alive (the survival bench
 * hung after its last line whenever its bot was digging when the bench ended). The testkit tracks those intervals
 * per player and clears them: the one replaced by a new dig, and the player's last one when it leaves or the server stops.
 */
const ANIMATION_CALLBACK = 'updateAnimation';

/** The dig animation flying-squid created last, until the acknowledgement written right after claims it for its player. */
let unclaimed: NodeJS.Timeout | undefined;
let wrapped = false;

/** Wraps the global setInterval once per process: an interval whose callback is flying-squid's `updateAnimation` is noted. */
function noteDigAnimations(): void {
  if (wrapped) return;
  wrapped = true;
  const original = globalThis.setInterval;
  const noting = function (this: unknown, ...args: Parameters<typeof setInterval>) {
    const timer = original.apply(this, args);
    const callback = args[0] as unknown;
    if (typeof callback !== 'function' || callback.name !== ANIMATION_CALLBACK) return timer;
    timer.unref(); // a dig animation no player claimed (a version without the acknowledgement) never holds the process either
    unclaimed = timer;
    return timer;
  };
  globalThis.setInterval = Object.assign(noting, original) as typeof setInterval;
}

/** Clears each player's dig animation when it is replaced, when the player leaves, and when the server stops. */
export function installDigAnimationCleanup(ctx: ExtensionContext): void {
  noteDigAnimations();
  const animations = new Map<SquidPlayer, NodeJS.Timeout>();
  const clear = (player: SquidPlayer) => {
    clearInterval(animations.get(player));
    animations.delete(player);
  };
  ctx.serv.on('newPlayer', (player: SquidPlayer) => {
    const client = player._client as unknown as { write(name: string, params: unknown): unknown };
    const write = client.write;
    // startDigging creates the interval, then acknowledges the start (status 0) in the same synchronous run
    client.write = function (this: unknown, name: string, params: unknown) {
      if (name === 'acknowledge_player_digging' && (params as { status?: number }).status === 0 && unclaimed) {
        clear(player);
        animations.set(player, unclaimed);
        unclaimed = undefined;
      }
      return write.call(this, name, params);
    };
    player.once('disconnected', () => clear(player));
  });
  ctx.onStop(() => {
    for (const player of [...animations.keys()]) clear(player);
  });
}
