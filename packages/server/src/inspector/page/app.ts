/// <reference lib="dom" />
import { byId, el, frameScheduler } from './dom.js';
import { getJson, renderBelief, renderBot, renderProvenance, renderSla } from './panels.js';
import { FailureList } from './failures.js';
import { RecoveryLadders } from './ladder.js';
import { Monologue } from './monologue.js';
import type { Recording } from './recording.js';
import { ReplayPanel } from './replay.js';
import { EventStream, type Envelope } from './stream.js';
import { Timeline } from './timeline.js';
import { TreeView } from './tree.js';
import { WorldView, wireWorldControls } from './world.js';
import { open3dView } from './view3d.js';

const TOKEN_KEY = 'sinew.token';
const MAX_LOG = 100;
const SAMPLE_PLAN = { planId: 'inspector-1', intentId: 'inspector', steps: [{ stepId: 's1', type: 'chat', args: { message: 'hello from the inspector' } }] };

let trees: Readonly<Record<string, readonly string[]>> = {};
const log: Envelope[] = [];
let stream: EventStream | undefined;
let received = 0;
/** True once a recording is open: the live stream and the polled panels stop. */
let replaying = false;

/** The views the events feed (built afresh when a recording opens). */
function createViews(): { timeline: Timeline; tree: TreeView; failures: FailureList; ladders: RecoveryLadders; monologue: Monologue } {
  return {
    timeline: new Timeline(byId('timeline').querySelector('tbody')!),
    tree: new TreeView(byId('tree'), byId('tree-title'), () => trees),
    failures: new FailureList(byId('failures')),
    ladders: new RecoveryLadders(byId('ladders')),
    monologue: new Monologue(byId('monologue')),
  };
}
let views = createViews();

const render = frameScheduler(() => {
  views.timeline.render();
  views.tree.render();
  views.failures.render();
  views.ladders.render();
  views.monologue.render();
  byId('events').replaceChildren(...log.map((e) => el('li', {}, `#${e.seq} ${e.type} ${summary(e)}`)));
});

function summary(event: Envelope): string {
  const d = event.data;
  return [d.planId ?? d.intentId, d.planner, d.stepId, d.verb, d.class && `${String(d.class)} at ${String(d.distance)}`, d.nodePath && `${String(d.nodePath)} ${String(d.from)}→${String(d.to)}`, d.status].filter(Boolean).map(String).join(' ');
}

function onEvent(event: Envelope): void {
  received += 1;
  if (event.type === 'botEvent') renderBot(event.data);
  if (event.type === 'beliefEvent') renderBelief(event.data);
  if (event.type === 'executionComplete' && !replaying) void refresh();
  const changed = [views.timeline.apply(event.type, event.data), views.tree.apply(event.type, event.data), views.failures.apply(event.type, event.data), views.ladders.apply(event.type, event.data), views.monologue.apply(event.type, event.data)].includes(true);
  log.unshift(event);
  if (log.length > MAX_LOG) log.length = MAX_LOG;
  if (changed || (event.type !== 'botEvent' && event.type !== 'beliefEvent')) render();
}

function connect(token: string): void {
  stream?.close();
  const badge = byId('connection');
  stream = new EventStream(token, onEvent, (state) => {
    badge.dataset.state = state;
    badge.textContent = state === 'refused' ? 'refused (token?)' : state;
  });
}

/** A recording replaces the live view: the stream closes, the views start empty, the recording's trees are known. */
function startReplay(recording: Recording): void {
  replaying = true;
  stream?.close();
  document.body.dataset.mode = 'replay';
  byId('connection').textContent = 'replay';
  byId('connection').dataset.state = 'replay';
  trees = { ...trees, ...recording.trees };
  views = createViews();
  log.length = 0;
  render();
}

/** Polled panels: SLA, belief, provenance, bot status. */
async function refresh(): Promise<void> {
  if (replaying) return;
  try {
    const [health, belief, provenance, status] = await Promise.all([getJson('/api/cognitive/health'), getJson('/api/belief'), getJson('/api/provenance?limit=10'), getJson('/api/bot/status')]);
    renderSla(health);
    renderBelief(belief);
    renderProvenance(provenance);
    renderBot(status.bot as Record<string, unknown> | null);
  } catch {
    // the server is down or restarting; the stream's badge already says so
  }
}

async function execute(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const out = byId('execute-result');
  const token = sessionStorage.getItem(TOKEN_KEY) ?? '';
  let body: string;
  try {
    body = JSON.stringify(JSON.parse(byId<HTMLTextAreaElement>('plan-json').value));
  } catch (error) {
    out.textContent = `not JSON: ${String(error)}`;
    return;
  }
  let response: Response;
  let answer: Record<string, unknown>;
  try {
    response = await fetch('/api/cognitive/execute', { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` }, body });
    answer = (await response.json()) as Record<string, unknown>;
  } catch (error) {
    out.textContent = `the server did not answer: ${String(error)}`;
    return;
  }
  out.dataset.status = String(response.status);
  out.textContent = response.ok ? `${response.status} accepted: plan ${String(answer.planId)}` : `${response.status} ${JSON.stringify(answer.error, null, 1)}`;
}

function boot(): void {
  const hash = new URLSearchParams(location.hash.slice(1));
  const fromHash = hash.get('token');
  if (fromHash) {
    sessionStorage.setItem(TOKEN_KEY, fromHash);
    history.replaceState(null, '', location.pathname); // the token leaves the address bar
  }
  const token = sessionStorage.getItem(TOKEN_KEY);
  const replay = new ReplayPanel({ start: startReplay, apply: onEvent });
  // `sinew-inspect <file>` serves one recording and no live bot: its URL ends in #replay.
  if (hash.has('replay')) {
    replaying = true;
    void replay.fetchServed();
  }
  byId<HTMLTextAreaElement>('plan-json').value = JSON.stringify(SAMPLE_PLAN, null, 2);
  byId('token-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = byId<HTMLInputElement>('token').value.trim();
    sessionStorage.setItem(TOKEN_KEY, value);
    connect(value);
  });
  byId<HTMLFormElement>('execute-form').addEventListener('submit', (e) => void execute(e));
  if (!replaying) {
    void getJson('/api/capabilities').then((c) => {
      trees = { ...((c.trees as typeof trees) ?? {}), ...trees };
      if (token && !replaying) connect(token);
    });
  }
  void refresh();
  setInterval(() => void refresh(), 2_000);
  const world = new WorldView(byId<HTMLCanvasElement>('world'));
  const drawWorld = () => void (replaying ? undefined : world.refresh().catch(() => undefined));
  wireWorldControls(() => sessionStorage.getItem(TOKEN_KEY) ?? '', drawWorld);
  // The 3D view is heavy (a WebGL page and its mesher workers): opened on request, never with the page.
  byId('view3d-open').addEventListener('click', () => void open3dView(sessionStorage.getItem(TOKEN_KEY) ?? '').catch((error: unknown) => (byId('view3d-status').textContent = `the server did not answer: ${String(error)}`)));
  drawWorld();
  setInterval(drawWorld, 1_000);
  setInterval(() => {
    byId('event-rate').textContent = `${received} events/2 s`;
    received = 0;
  }, 2_000);
}

boot();
