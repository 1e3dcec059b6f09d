/// <reference lib="dom" />
import { el } from './dom.js';

type Data = Record<string, unknown>;
const MAX_LINES = 60;

/**
 * The inner monologue (seeds/000): one line per `cognitionEvent` — the gate open or closed with M and the
 * blocked checks, the route, the plan, a refusal with its rule, the outcome — with the tick and input hash.
 */
export class Monologue {
  readonly #lines: { readonly type: string; readonly text: string }[] = [];

  constructor(private readonly list: HTMLElement) {}

  /** Applies one event; returns true when the monologue changed. */
  apply(type: string, data: Data): boolean {
    if (type !== 'cognitionEvent') return false;
    this.#lines.unshift({ type: String(data.type), text: monologueLine(data) });
    if (this.#lines.length > MAX_LINES) this.#lines.length = MAX_LINES;
    return true;
  }

  render(): void {
    this.list.replaceChildren(...this.#lines.map((line) => el('li', { 'data-type': line.type }, line.text)));
  }
}

const str = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** One decision as a sentence: what was decided and why, prefixed by the tick and the input hash. */
export function monologueLine(data: Data): string {
  const head = `t${str(data.tick)} ${str(data.inputHash).replace(/^sha256:/, '').slice(0, 8)}`;
  switch (data.type) {
    case 'cognition.gate': {
      const m = typeof data.meaningfulness === 'number' ? data.meaningfulness.toFixed(2) : '?';
      const blocked = Array.isArray(data.blocked) && data.blocked.length > 0 ? ` (blocked: ${data.blocked.map(String).join(', ')})` : '';
      return `${head} gate ${data.think ? 'open' : 'closed'}, M ${m}${blocked}: ${str(data.reason)}`;
    }
    case 'cognition.refused':
      return `${head} refused at ${str(data.stage)}${data.rule ? ` by ${str(data.rule)}` : ''}: ${str(data.reason)}`;
    case 'cognition.busy':
      return `${head} deferred "${str(data.goal)}" (${str(data.plansInFlight)} plans running): ${str(data.reason)}`;
    case 'cognition.route':
      return `${head} "${str(data.goal)}" (urgency ${str(data.urgency)}) → ${str(data.chosen) || 'no planner'}: ${str(data.reason)}`;
    case 'cognition.plan':
      return `${head} ${str(data.planner)} planned ${str(data.planId)}: ${Array.isArray(data.verbs) ? data.verbs.map(String).join(' → ') : ''}`;
    case 'cognition.no_plan':
      return `${head} no plan (${str(data.code)}): ${str(data.reason)}`;
    case 'cognition.outcome':
      return `${head} ${str(data.planId)} ${str(data.status)}${data.code ? ` (${str(data.code)})` : ''}: ${str(data.reason)}`;
    default:
      return `${head} ${str(data.type)}`;
  }
}
