import { describeError } from '@sinew/executor-contracts';
import { convertMDSLToJSON, validateDefinition } from 'mistreevous';
import { BehaviorDefinitionError } from './types.js';

// Definition → validated tree: parsed, branches inlined, every node named by a stable path, every call to a
// registered function rewritten to a per-node function (`__sinew_<leaf index>`), argument counts checked.

/** A mistreevous JSON node definition. */
type Def = Record<string, unknown> & { type: string };

/** What a call names: guards (`while`/`until`) call conditions. */
export type Kind = 'action' | 'condition' | 'callback';

/** One call of a registered function by one node: an action or condition node, a guard or a callback. */
export interface Leaf {
  readonly kind: Kind;
  readonly name: string;
  readonly nodePath: string;
  /** Action index into the per-instance invocation table, or -1. */
  readonly slot: number;
  /** Number of MDSL arguments the node passes (known from the definition). */
  readonly arity: number;
}

/** One node of the compiled tree, in the pre-order mistreevous builds its nodes in. */
export interface NodeInfo {
  readonly path: string;
  /** The mistreevous node type (`sequence`, `action`, `root`…). */
  readonly type: string;
  /** An action, condition or wait node: its running time and failures are tracked. */
  readonly leaf: boolean;
  /** Action slot, or -1. */
  readonly slot: number;
}

/** A validated tree, ready to be built into mistreevous instances. */
export interface Compiled {
  readonly definition: object;
  readonly leaves: readonly Leaf[];
  readonly actionCount: number;
  /** Every node in pre-order. */
  readonly nodes: readonly NodeInfo[];
  /** The nodes' paths, in the same order. */
  readonly paths: readonly string[];
}

/** The agent function name of the leaf at `index`. */
export const leafFunctionName = (index: number): string => `__sinew_${index}`;

interface UnknownLeaf {
  readonly name: string;
  readonly kind: string;
  readonly nodePath: string;
}

const LEAF_TYPES = new Set(['action', 'condition', 'wait']);
const GUARDS = ['while', 'until'] as const;
const CALLBACKS = ['entry', 'step', 'exit'] as const;

/** Parses, inlines branches, names every node by a stable path, and rewrites every call to a per-node function. */
export function compile(tree: string | object, known: Record<Kind, ReadonlySet<string>>): Compiled {
  const { main, named } = parse(tree);
  const walker = new Walker(known, named);
  const definition = walker.walk(main, 'root', []);
  if (walker.unknown.length > 0) {
    const list = walker.unknown.map((u) => `${u.kind} "${u.name}" at ${u.nodePath}`).join('; ');
    throw new BehaviorDefinitionError('unknown_leaf', `behavior tree references unregistered functions: ${list}`, walker.unknown);
  }
  delete definition.id;
  return { definition, leaves: walker.leaves, actionCount: walker.actionCount, nodes: walker.nodes, paths: walker.nodes.map((node) => node.path) };
}

function parse(tree: string | object): { main: Def; named: ReadonlyMap<string, Def> } {
  let roots: Def[];
  try {
    roots = (typeof tree === 'string' ? convertMDSLToJSON(tree) : Array.isArray(tree) ? tree : [tree]) as unknown as Def[];
  } catch (error) {
    throw new BehaviorDefinitionError('invalid_tree', `behavior tree does not parse: ${describeError(error)}`);
  }
  const validation = validateDefinition(roots as never);
  if (!validation.succeeded) throw new BehaviorDefinitionError('invalid_tree', `invalid behavior tree: ${validation.errorMessage ?? 'unknown error'}`);
  const main = roots.find((r) => r.id === undefined);
  if (!main) throw new BehaviorDefinitionError('invalid_tree', 'behavior tree has no main (unnamed) root');
  return { main, named: new Map(roots.filter((r) => typeof r.id === 'string').map((r) => [r.id as string, r])) };
}

/** Walks a definition in pre-order, copying it with every call bound to its leaf. */
class Walker {
  readonly leaves: Leaf[] = [];
  readonly nodes: NodeInfo[] = [];
  readonly unknown: UnknownLeaf[] = [];
  actionCount = 0;

  constructor(
    private readonly known: Record<Kind, ReadonlySet<string>>,
    private readonly named: ReadonlyMap<string, Def>,
  ) {}

  walk(node: Def, path: string, stack: readonly string[]): Def {
    const out: Def = { ...node };
    const slot = node.type === 'action' ? this.actionCount++ : -1;
    this.nodes.push({ path, type: node.type, leaf: LEAF_TYPES.has(node.type), slot });
    if (node.type === 'action' || node.type === 'condition') {
      out.call = this.#bind(node.type, node.type, node.call as string, Array.isArray(node.args) ? node.args.length : 0, path, slot);
    }
    for (const guard of GUARDS) this.#attribute(out, guard, 'condition', `${path}@${guard}`);
    for (const callback of CALLBACKS) this.#attribute(out, callback, 'callback', `${path}@${callback}`);
    const children = this.#children(node, path, stack);
    if (Array.isArray(node.children)) out.children = children;
    else if (node.child) out.child = children[0];
    return out;
  }

  /** Binds the guard or callback attribute `key` of `out`, if the node has one, like a node's call. */
  #attribute(out: Def, key: (typeof GUARDS)[number] | (typeof CALLBACKS)[number], kind: Kind, nodePath: string): void {
    const attribute = out[key];
    if (!attribute || typeof attribute !== 'object') return;
    const call = attribute as { call: string; args?: unknown[] };
    const reported = kind === 'condition' ? 'guard' : kind;
    out[key] = { ...call, call: this.#bind(kind, reported, call.call, call.args?.length ?? 0, nodePath, -1) };
  }

  #bind(kind: Kind, reported: string, name: string, arity: number, nodePath: string, slot: number): string {
    if (!this.known[kind].has(name)) this.unknown.push({ name, kind: reported, nodePath });
    this.leaves.push({ kind, name, nodePath, slot, arity });
    return leafFunctionName(this.leaves.length - 1);
  }

  #children(node: Def, path: string, stack: readonly string[]): Def[] {
    const definitions = (Array.isArray(node.children) ? node.children : node.child ? [node.child] : []) as Def[];
    return definitions.map((child, index) => (child.type === 'branch' ? this.#branch(child, path, index, stack) : this.walk(child, `${path}/${segment(child, index)}`, stack)));
  }

  /** `branch [Name]` is inlined: the named root's child, under a path that names the branch. */
  #branch(child: Def, path: string, index: number, stack: readonly string[]): Def {
    const ref = child.ref as string;
    if (stack.includes(ref)) throw new BehaviorDefinitionError('invalid_tree', `branch cycle through "${ref}" at ${path}`);
    const target = this.named.get(ref);
    if (!target) throw new BehaviorDefinitionError('invalid_tree', `branch [${ref}] at ${path} names no root in this tree`);
    const inner = target.child as Def;
    return this.walk(inner, `${path}/branch:${ref}[${index}]/${segment(inner, 0)}`, [...stack, ref]);
  }
}

function segment(node: Def, index: number): string {
  const name = typeof node.call === 'string' ? `:${node.call}` : '';
  return `${node.type}${name}[${index}]`;
}

/**
 * A node that passes fewer arguments than its function requires fails the build, naming the node. A function's
 * `length` counts its parameters before the first default or rest one (the ones every call must pass): the leaf
 * context, an exit callback's `{ succeeded, aborted }`, then the node's own. More is allowed (a rest parameter).
 */
export function checkArguments(leaves: readonly Leaf[], functions: Record<Kind, Readonly<Record<string, (...a: never[]) => unknown>>>): void {
  const wrong: string[] = [];
  for (const leaf of leaves) {
    const required = functions[leaf.kind][leaf.name]!.length - (isExitCallback(leaf) ? 2 : 1);
    if (leaf.arity < required) wrong.push(`${leaf.kind} "${leaf.name}" at ${leaf.nodePath} needs ${required} argument${required === 1 ? '' : 's'}, the node passes ${leaf.arity}`);
  }
  if (wrong.length > 0) throw new BehaviorDefinitionError('bad_arguments', `behavior tree nodes pass too few arguments: ${wrong.join('; ')}`);
}

/** Exit callbacks get `{ succeeded, aborted }` before the node's own arguments. */
export function isExitCallback(leaf: Leaf): boolean {
  return leaf.kind === 'callback' && leaf.nodePath.endsWith('@exit');
}

const ANY_NAME: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;

/**
 * The stable node paths of a tree definition (MDSL or JSON), in definition order, without binding its
 * leaves: what an inspector needs to draw a capability's tree. An invalid tree throws a BehaviorDefinitionError.
 */
export function behaviorNodePaths(tree: string | object): readonly string[] {
  return compile(tree, { action: ANY_NAME, condition: ANY_NAME, callback: ANY_NAME }).paths;
}
