import { Node } from 'ts-morph';
import { quote } from './schema.js';

/** One `@param` of a docblock, as written. */
export interface DocParam {
  readonly name: string;
  /** The type between braces, if any (`string|null`). */
  readonly type?: string;
  /** Bracketed (`[name]`, `[name=default]`). */
  readonly optional: boolean;
  /** The default of `[name=default]`, as written. */
  readonly defaultText?: string;
  readonly description?: string;
}

/** A function's docblock: the summary and its `@param`s by name. */
export interface Docblock {
  readonly description?: string;
  readonly params: ReadonlyMap<string, DocParam>;
}

const PARAM = /^@param\s*(?:\{((?:[^{}]|\{[^{}]*\})*)\})?\s*(\[[^\]]*\]|[\w$.]+)\s*(.*)$/s;

/** Parses a `/** … *\/` comment: the text before the first tag, and every `@param` (`name, desc`, `name - desc`, `name: desc`). */
export function parseDocblock(comment: string): Docblock {
  const lines = comment
    .replace(/^\/\*\*+/, '')
    .replace(/\*+\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*? ?/, '').trimEnd());
  const blocks: string[] = [];
  const summary: string[] = [];
  for (const line of lines) {
    if (/^\s*@/.test(line)) blocks.push(line.trim());
    else if (blocks.length > 0) blocks[blocks.length - 1] += `\n${line.trim()}`;
    else summary.push(line.trim());
  }
  const params = new Map<string, DocParam>();
  for (const block of blocks) {
    const match = PARAM.exec(block);
    if (!match) continue;
    const [, type, rawName, rest] = match;
    const bracketed = rawName!.startsWith('[');
    const [name, defaultText] = bracketed ? splitDefault(rawName!.slice(1, -1)) : [rawName!, undefined];
    const description = rest!.replace(/^[,:\-–]\s*/, '').replace(/\s+/g, ' ').trim();
    params.set(name, {
      name,
      optional: bracketed,
      ...(type !== undefined ? { type: type.trim() } : {}),
      ...(defaultText !== undefined ? { defaultText } : {}),
      ...(description ? { description } : {}),
    });
  }
  const text = summary.join('\n').trim().split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim();
  return { params, ...(text ? { description: text } : {}) };
}

function splitDefault(inner: string): [string, string | undefined] {
  const at = inner.indexOf('=');
  return at < 0 ? [inner.trim(), undefined] : [inner.slice(0, at).trim(), inner.slice(at + 1).trim()];
}

/**
 * The docblock of a function: above it (`/** … *\/ function f`) or, in the style of some skills libraries,
 * as the first statement inside its body (`function f(bot) { /** … *\/ … }`). The one above wins.
 */
export function functionDocblock(fn: Node, holder: Node = fn): Docblock | undefined {
  const above = Node.isJSDocable(holder) ? holder.getJsDocs().at(-1)?.getText() : undefined;
  const body = Node.isFunctionDeclaration(fn) || Node.isMethodDeclaration(fn) || Node.isArrowFunction(fn) || Node.isFunctionExpression(fn) ? fn.getBody() : undefined;
  const inside = body && Node.isBlock(body) ? /^\{\s*(\/\*\*[\s\S]*?\*\/)/.exec(body.getText())?.[1] : undefined;
  if (above === undefined && inside === undefined) return undefined;
  const outer = above === undefined ? undefined : parseDocblock(above);
  const inner = inside === undefined ? undefined : parseDocblock(inside);
  const params = new Map([...(inner?.params ?? []), ...(outer?.params ?? [])]);
  const description = outer?.description ?? inner?.description;
  return { params, ...(description !== undefined ? { description } : {}) };
}

/** A JSDoc default (`[num=1]`, `[mode='walk']`) as zod source, or undefined when it is not a plain literal. */
export function docLiteral(text: string): string | undefined {
  if (/^-?\d+(\.\d+)?$/.test(text) || ['true', 'false', 'null'].includes(text)) return text;
  const quoted = /^(['"])(.*)\1$/.exec(text);
  return quoted ? quote(quoted[2]!) : undefined;
}
