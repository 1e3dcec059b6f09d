/// <reference lib="dom" />
import { el } from './dom.js';

type Data = Record<string, unknown>;

/** `selector[0]` → { kind: 'selector' }, `action:DigTarget[2]` → { kind: 'action', name: 'DigTarget' }. */
function label(segment: string): { kind: string; name: string } {
  const bare = segment.replace(/\[\d+\]$/, '');
  const colon = bare.indexOf(':');
  return colon < 0 ? { kind: bare, name: '' } : { kind: bare.slice(0, colon), name: bare.slice(colon + 1) };
}

/**
 * The active capability's behavior tree, drawn from its node paths (the hierarchy is in the path) with
 * each node's last state; the running nodes are lit.
 */
export class TreeView {
  #verb = '';
  #key = '';
  #paths: string[] = [];
  readonly #states = new Map<string, string>();

  constructor(
    private readonly list: HTMLElement,
    private readonly title: HTMLElement,
    private readonly trees: () => Readonly<Record<string, readonly string[]>>,
  ) {}

  /** Applies one event; returns true when the drawing changed. */
  apply(type: string, data: Data): boolean {
    if (type === 'step.dispatched') return this.#start(String(data.verb ?? ''), attemptKey(data));
    if (type !== 'bt.transition') return false;
    const key = attemptKey(data);
    if (key !== this.#key) this.#start(String(data.verb ?? ''), key);
    const path = String(data.nodePath ?? '');
    if (!this.#paths.includes(path)) this.#paths.push(path); // a tree the server was not told about: drawn as seen
    this.#states.set(path, String(data.to ?? ''));
    return true;
  }

  render(): void {
    this.title.textContent = !this.#verb ? '(no tree running)' : this.#paths.length > 0 ? this.#verb : `${this.#verb} (not a behavior tree)`;
    const nodes = new Map<string, HTMLElement>();
    const roots: HTMLElement[] = [];
    for (const path of this.#paths) {
      const slash = path.lastIndexOf('/');
      const { kind, name } = label(path.slice(slash + 1));
      const state = this.#states.get(path) ?? 'idle';
      const item = el('li', {}, undefined, [
        el('span', { class: 'bt-node', 'data-node-path': path, 'data-state': state, title: path }, undefined, [
          el('span', { class: 'bt-kind' }, name ? `${kind} ` : kind),
          document.createTextNode(name),
        ]),
      ]);
      nodes.set(path, item);
      let parentKey = parentPath(path);
      while (parentKey && !nodes.has(parentKey)) parentKey = parentPath(parentKey); // branch segments are not nodes
      const parent = nodes.get(parentKey);
      if (!parent) roots.push(item);
      else (parent.querySelector(':scope > ul') ?? parent.appendChild(el('ul'))).appendChild(item);
    }
    this.list.replaceChildren(...roots);
  }

  #start(verb: string, key: string): boolean {
    this.#key = key;
    const known = this.trees()[verb];
    if (!known && verb === this.#verb) return false;
    this.#verb = verb;
    this.#paths = known ? [...known] : [];
    this.#states.clear();
    return true;
  }
}

/** The parent of `root/selector[0]/branch:x[1]/action:A[0]` is the longest proper prefix ending at a `/`. */
function parentPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '' : path.slice(0, slash);
}

function attemptKey(data: Data): string {
  return `${String(data.planId)}/${String(data.stepId)}/${String(data.attempt)}`;
}
