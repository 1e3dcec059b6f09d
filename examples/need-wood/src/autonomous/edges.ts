import type { BodyEdge } from '@sinew/planners';

/** What the edge detector reads of a mineflayer bot. */
export interface EdgeBody {
  readonly health: number;
  readonly food: number;
  readonly time: { readonly timeOfDay: number };
}

type Band = 'ok' | 'low' | 'critical';
const band = (value: number): Band => (value >= 14 ? 'ok' : value >= 6 ? 'low' : 'critical');
const isNight = (timeOfDay: number) => timeOfDay >= 13_000 && timeOfDay < 23_000;

/**
 * Body signal edges from a bot, polled every `everyMs`: a health or food band crossed (ok ≥ 14 > low ≥ 6 > critical),
 * day or night begun. Only changes are reported (the first poll reports the current day part and bands).
 */
export function watchBodyEdges(bot: EdgeBody, everyMs: number, onEdge: (edge: BodyEdge) => void): () => void {
  let last: { health?: Band; food?: Band; night?: boolean } = {};
  const poll = () => {
    const now = { health: band(bot.health), food: band(bot.food), night: isNight(bot.time.timeOfDay) };
    if (now.night !== last.night) onEdge(now.night ? 'night' : 'day');
    if (now.health !== last.health) onEdge(`health_${now.health}`);
    if (now.food !== last.food) onEdge(`food_${now.food}`);
    last = now;
  };
  poll();
  const timer = setInterval(poll, everyMs);
  return () => clearInterval(timer);
}
