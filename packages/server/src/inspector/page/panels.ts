/// <reference lib="dom" />
import { byId, el, fmtMs } from './dom.js';

type Data = Record<string, unknown>;

/** GETs a JSON API route (read routes need no token). */
export async function getJson(path: string): Promise<Data> {
  const response = await fetch(path, { cache: 'no-store' });
  return (await response.json()) as Data;
}

/** The per-capability SLA table from `/api/cognitive/health`. */
export function renderSla(health: Data): void {
  const rows = ((health.capabilities as Data[] | undefined) ?? []).map((c) => {
    const last = (c.lastFailures as Data[] | undefined)?.at(-1);
    return el('tr', { 'data-capability': String(c.capability) }, undefined, [
      el('td', {}, String(c.capability)),
      el('td', {}, String(c.steps)),
      el('td', {}, `${Math.round(Number(c.successRate) * 100)} %`),
      el('td', {}, fmtMs(c.meanDurationMs)),
      el('td', {}, fmtMs(c.ttfaP95Ms)),
      el('td', {}, last ? `${String(last.code)}: ${String(last.reason)}` : ''),
    ]);
  });
  byId('sla').querySelector('tbody')!.replaceChildren(...rows);
}

/** Belief tracks (nearest first) and hazard regions from `/api/belief`. */
export function renderBelief(belief: Data): void {
  const target = byId('belief');
  const tracks = belief.tracks as Data[] | null;
  if (!tracks) return void (target.textContent = 'no belief layer wired');
  const hazards = ((belief.hazards as Data | null)?.regions as Data[] | undefined) ?? [];
  const trackRows = [...tracks]
    .sort((a, b) => Number(a.distance) - Number(b.distance))
    .slice(0, 20)
    .map((t) => el('li', { class: t.threat ? 'hazard' : '' }, `#${String(t.trackId)} ${String(t.cls)} ${String(t.visibility)} ${Number(t.distance).toFixed(1)} m${t.threat ? ' threat' : ''}`));
  const hazardRows = hazards.slice(0, 10).map((h) => {
    const cell = h.cell as Data;
    return el('li', { class: 'hazard' }, `cell ${String(cell.x)},${String(cell.y)},${String(cell.z)} level ${String(h.level)} ×${String(h.count)}`);
  });
  target.replaceChildren(el('div', {}, `${tracks.length} tracks`), el('ul', {}, undefined, trackRows), el('div', {}, `${hazards.length} hazard regions`), el('ul', {}, undefined, hazardRows));
}

/** The last provenance records, newest first. */
export function renderProvenance(data: Data): void {
  const records = (data.records as Data[] | null) ?? [];
  const items = [...records].reverse().map((r) => {
    const outcome = r.outcome as Data;
    const code = (outcome.failure as Data | undefined)?.code;
    return el('li', {}, `${String(r.planId)}/${String(r.stepId)} ${String(r.capability ?? r.verb)} ${String(outcome.status)}${code ? ` ${String(code)}` : ''} · ${String(r.attempts)} attempt(s) · ${(r.trace as unknown[]).length} trace entries`);
  });
  byId('provenance').replaceChildren(...items);
}

/** The header's bot line from a `botEvent` or `/api/bot/status`. */
export function renderBot(bot: Data | null): void {
  if (!bot) return void (byId('bot-status').textContent = 'no bot');
  const p = bot.position as Data | null;
  const held = bot.heldItem as Data | null;
  const where = p ? `${String(p.x)}, ${String(p.y)}, ${String(p.z)}` : '?';
  const items = Object.entries((bot.inventory as Record<string, number>) ?? {}).map(([k, v]) => `${k}×${v}`).join(' ');
  byId('bot-status').textContent = `${String(bot.username ?? 'bot')} health ${String(bot.health)} food ${String(bot.food)} @ ${where} ${String(bot.dimension ?? '')} holding ${held ? String(held.name) : 'nothing'} | ${items}`;
}
