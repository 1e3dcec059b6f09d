import type { IncomingMessage, ServerResponse } from 'node:http';
import { behaviorNodePaths, type Executor, type ProvenanceRecord } from '@sinew/bt-runtime';
import { describeError } from '@sinew/executor-contracts';
import { z } from 'zod';
import { ServerOptionsError } from '../options.js';
import { authorize, presentedToken } from '../auth.js';
import { Control, ExecuteBodySchema, PreemptBodySchema, SignalBodySchema } from '../control.js';
import { sendAsset, type Asset } from '../inspector/assets.js';
import { botStatus, type BotLike } from '../status.js';
import { ViewerControlSchema, type ViewerState } from '../viewer/control.js';
import { sampleMap, type ViewerBot } from '../viewer/map.js';
import type { View3d } from '../viewer/view3d.js';
import type { PlanOutcomes } from '../stream/outcomes.js';
import { FLEET_PLANS_ROUTE, type FleetProducer } from './fleet.js';
import { ApiError, hasBody, readJson, sendJson, validate } from './reply.js';

/** What the belief panel reads (a `BeliefBus` of @sinew/belief fits). */
export interface BeliefSource {
  /** The live tracks (id and class at least). */
  tracks(): readonly { readonly trackId: number; readonly cls: string }[];
  /** The hazard summary, served as is. */
  hazards(): unknown;
}

/** Everything a route handler may use. */
export interface RouteDeps<Body> {
  readonly executor: Executor<Body>;
  readonly control: Control<Body>;
  readonly outcomes: PlanOutcomes;
  readonly token: string | undefined;
  readonly maxBodyBytes: number;
  readonly bot?: BotLike;
  readonly belief?: BeliefSource;
  readonly provenance?: { records(): readonly ProvenanceRecord[] };
  readonly trees: Readonly<Record<string, readonly string[]>>;
  readonly assets: ReadonlyMap<string, Asset> | undefined;
  readonly viewer: ViewerState;
  readonly view3d: View3d;
  readonly fleet?: FleetProducer;
}

/** What a handler gets of one request. */
export interface Request {
  readonly raw: IncomingMessage;
  readonly response: ServerResponse;
  readonly url: URL;
  readonly params: readonly string[];
  readonly head: boolean;
}

/** One route: method, path, whether it needs the token, and its handler. */
export interface Route<Body> {
  readonly method: 'GET' | 'POST';
  readonly path: string | RegExp;
  /** How a pattern route is listed in the 404 hint. */
  readonly label?: string;
  /** Routes that change something, and reads of what only the token's holder may see (a plan's whole outcome, like the event stream), need the bearer token. */
  readonly needsToken: boolean;
  handle(deps: RouteDeps<Body>, request: Request): Promise<void> | void;
}

const PlanIdSchema = z.string().min(1).max(256);
const EmptySchema = z.object({}).strict();
const LimitSchema = z.coerce.number().int().min(1).max(200).default(20);

/** A POST's body: JSON validated by `schema`; a missing body reads as `{}`. */
async function body<T extends z.ZodType>(deps: RouteDeps<unknown>, request: Request, schema: T): Promise<z.output<T>> {
  const value = hasBody(request.raw) ? await readJson(request.raw, deps.maxBodyBytes) : {};
  return validate(schema, value);
}

function asset(deps: RouteDeps<unknown>, request: Request): void {
  sendAsset(deps.assets, request.url.pathname, request.response, request.head);
}

const ROUTES: readonly Route<unknown>[] = [
  { method: 'GET', path: '/', needsToken: false, handle: asset },
  { method: 'GET', path: '/inspector/app.js', needsToken: false, handle: asset },
  { method: 'GET', path: '/inspector/style.css', needsToken: false, handle: asset },
  { method: 'GET', path: '/inspector/viewer-hooks.js', needsToken: false, handle: asset },
  { method: 'GET', path: '/inspector/viewer.css', needsToken: false, handle: asset },
  {
    method: 'GET',
    path: '/viewer/',
    needsToken: false,
    handle(deps, request) {
      deps.view3d.assertReady();
      asset(deps, request);
    },
  },
  { method: 'GET', path: /^\/viewer\/(.+)$/, label: '/viewer/:asset', needsToken: false, handle: (deps, { url, response, head }) => deps.view3d.sendPeerFile(url.pathname, response, head) },
  {
    method: 'POST',
    path: '/api/viewer/session',
    needsToken: true,
    async handle(deps, request) {
      await body(deps, request, EmptySchema);
      request.response.setHeader('set-cookie', deps.view3d.session());
      sendJson(request.response, 200, { page: '/viewer/' });
    },
  },
  {
    method: 'GET',
    path: '/metrics',
    needsToken: false,
    async handle(deps, { response, head }) {
      const registry = deps.executor.metrics.registry;
      const text = await registry.metrics();
      response.writeHead(200, { 'content-type': registry.contentType });
      response.end(head ? undefined : text);
    },
  },
  { method: 'GET', path: '/api/cognitive/health', needsToken: false, handle: (deps, { response, head }) => sendJson(response, 200, deps.executor.health(), head) },
  { method: 'GET', path: '/api/bot/status', needsToken: false, handle: (deps, { response, head }) => sendJson(response, 200, botStatus(deps.bot, deps.executor.state()), head) },
  {
    method: 'GET',
    path: '/api/capabilities',
    needsToken: false,
    handle: (deps, { response, head }) => sendJson(response, 200, { capabilities: deps.executor.registry.manifest().capabilities, trees: deps.trees }, head),
  },
  {
    method: 'GET',
    path: '/api/belief',
    needsToken: false,
    handle: (deps, { response, head }) => sendJson(response, 200, deps.belief ? { tracks: deps.belief.tracks(), hazards: deps.belief.hazards() } : { tracks: null, hazards: null }, head),
  },
  {
    method: 'GET',
    path: '/api/provenance',
    needsToken: false,
    handle(deps, { response, url, head }) {
      const limit = validate(LimitSchema, url.searchParams.get('limit') ?? undefined, (m) => new ApiError(400, 'invalid_query', `limit: ${m}`));
      sendJson(response, 200, { records: deps.provenance ? deps.provenance.records().slice(-limit) : null }, head);
    },
  },
  { method: 'GET', path: '/api/viewer/control', needsToken: false, handle: (deps, { response, head }) => sendJson(response, 200, deps.viewer.control, head) },
  {
    method: 'POST',
    path: '/api/viewer/control',
    needsToken: true,
    async handle(deps, request) {
      const applied = deps.viewer.apply(await body(deps, request, ViewerControlSchema));
      if (!applied.ok) throw new ApiError(400, 'invalid_body', applied.message);
      sendJson(request.response, 200, applied.control);
    },
  },
  {
    method: 'GET',
    path: '/api/viewer/map',
    needsToken: false,
    handle(deps, { response, head }) {
      const bot = viewerBot(deps.bot);
      if (!bot) throw new ApiError(501, 'no_world', 'serveSinew was given no bot with blockAt (a mineflayer Bot): there is no world to draw');
      const map = sampleMap(bot, deps.viewer.control, deps.belief);
      if (!map) throw new ApiError(503, 'bot_not_spawned', 'the bot has no position yet');
      sendJson(response, 200, map, head);
    },
  },
  {
    method: 'POST',
    path: '/api/cognitive/execute',
    needsToken: true,
    async handle(deps, request) {
      const plan = await body(deps, request, ExecuteBodySchema);
      sendJson(request.response, 202, deps.control.execute(plan));
    },
  },
  {
    method: 'POST',
    path: '/api/cognitive/signals',
    needsToken: true,
    async handle(deps, request) {
      const signal = await body(deps, request, SignalBodySchema);
      sendJson(request.response, 202, await deps.control.signal(signal));
    },
  },
  {
    method: 'POST',
    path: '/api/executor/preempt',
    needsToken: true,
    async handle(deps, request) {
      sendJson(request.response, 202, deps.control.preempt(await body(deps, request, PreemptBodySchema)));
    },
  },
  {
    method: 'POST',
    path: /^\/api\/plans\/([^/]+)\/cancel$/,
    label: '/api/plans/:planId/cancel',
    needsToken: true,
    async handle(deps, request) {
      await body(deps, request, EmptySchema);
      const planId = validate(PlanIdSchema, request.params[0], (m) => new ApiError(400, 'invalid_plan_id', m));
      deps.control.cancel(planId);
      sendJson(request.response, 202, { planId, cancelling: true });
    },
  },
  {
    method: 'GET',
    path: /^\/api\/plans\/([^/]+)\/outcome$/,
    label: '/api/plans/:planId/outcome',
    // Every step's args and results: what the token-gated event stream carried before it sent a summary.
    needsToken: true,
    handle(deps, { response, params, head }) {
      const planId = validate(PlanIdSchema, params[0], (m) => new ApiError(400, 'invalid_plan_id', m));
      const outcome = deps.outcomes.get(planId);
      if (!outcome) throw new ApiError(404, 'unknown_plan', `no ended plan ${planId} among the last ${deps.outcomes.capacity} (limits.outcomesKept) holding at most ${deps.outcomes.stepCapacity} step outcomes (limits.outcomeStepsKept); a running plan has no outcome yet`);
      sendJson(response, 200, outcome, head);
    },
  },
  FLEET_PLANS_ROUTE,
];

/** Every route, for the 404 hint. */
export const ROUTE_LIST = ROUTES.map((r) => `${r.method} ${typeof r.path === 'string' ? r.path : r.label}`).concat('GET /api/events (WebSocket)');

function match(path: string): { routes: Route<unknown>[]; params: string[] } {
  const routes: Route<unknown>[] = [];
  let params: string[] = [];
  for (const route of ROUTES) {
    if (typeof route.path === 'string') {
      if (route.path === path) routes.push(route);
      continue;
    }
    const found = route.path.exec(path);
    if (found) {
      routes.push(route);
      params = found.slice(1).map(decodeParam);
    }
  }
  return { routes, params };
}

function decodeParam(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, 'bad_url', `malformed percent-encoding in ${raw}`);
  }
}

/** Routes one request: 404 unknown path, 405 wrong method, 401/403 auth, then the handler. */
export async function route<Body>(deps: RouteDeps<Body>, raw: IncomingMessage, response: ServerResponse, url: URL): Promise<void> {
  const { routes, params } = match(url.pathname);
  if (routes.length === 0) throw new ApiError(404, 'not_found', `no route ${url.pathname}`, { routes: ROUTE_LIST });
  const method = raw.method === 'HEAD' ? 'GET' : raw.method;
  const chosen = routes.find((r) => r.method === method);
  if (!chosen) {
    const allow = [...new Set(routes.flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method])))].join(', ');
    throw new ApiError(405, 'method_not_allowed', `${raw.method} is not allowed on ${url.pathname}; use ${allow}`, { allow });
  }
  if (chosen.needsToken) {
    const verdict = authorize(deps.token, presentedToken(raw.headers));
    if (!verdict.ok) throw new ApiError(verdict.status, verdict.code, verdict.message);
  }
  if (chosen.method === 'GET' && hasBody(raw)) {
    throw new ApiError(413, 'body_not_accepted', `${raw.method} ${url.pathname} takes no body`);
  }
  await chosen.handle(deps as RouteDeps<unknown>, { raw, response, url, params, head: raw.method === 'HEAD' });
}

/** Node paths per verb, from the tree definitions the user passed (`trees: { gather: GATHER_TREE }`). */
export function treePaths(trees: Readonly<Record<string, string | object>> | undefined): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = {};
  for (const [verb, tree] of Object.entries(trees ?? {})) {
    try {
      out[verb] = behaviorNodePaths(tree);
    } catch (error) {
      throw ServerOptionsError.field('serveSinew', ['trees', verb], describeError(error));
    }
  }
  return out;
}

/** The bot as the world view reads it, when it can answer `blockAt` (a mineflayer Bot). */
function viewerBot(bot: BotLike | undefined): ViewerBot | undefined {
  const candidate = bot as Partial<ViewerBot> | undefined;
  return typeof candidate?.blockAt === 'function' ? (candidate as ViewerBot) : undefined;
}
