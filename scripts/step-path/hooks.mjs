// Module hooks for scripts/step-path.mjs: after tsx has turned a repo source file into JavaScript, a call
// `__sinewStepTrace("<file>#<function>")` is put at the entry of each of its functions (declarations, methods,
// accessors, constructors, function expressions, arrows). node_modules is left alone: a call into zod is not a hop.
import ts from 'typescript';

let traced = () => false;
let root = '';

export function initialize(data) {
  root = data.root;
  const prefixes = data.traced.map((path) => new URL(path, root).href);
  traced = (url) => url.startsWith(root) && !url.includes('/node_modules/') && prefixes.some((prefix) => url.startsWith(prefix));
}

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!traced(url) || loaded.source == null) return loaded;
  return { ...loaded, source: instrument(String(loaded.source), url.slice(root.length)) };
}

/** Inserts the entry call into every function body of `code`, edits applied from the end. */
function instrument(code, file) {
  const source = ts.createSourceFile(file, code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const edits = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && node.body) {
      const call = `__sinewStepTrace(${JSON.stringify(`${file}#${nameOf(node)}`)})`;
      if (ts.isBlock(node.body)) edits.push({ at: node.body.getStart(source) + 1, text: `${call};` });
      else edits.push({ at: node.body.getStart(source), text: `(${call}, ` }, { at: node.body.getEnd(), text: ')' });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  edits.sort((a, b) => b.at - a.at);
  let out = code;
  for (const { at, text } of edits) out = out.slice(0, at) + text + out.slice(at);
  return out;
}

/** `Class.method`, `name`, the variable or property a function is assigned to, else `<anonymous>`. */
function nameOf(node) {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isPrivateIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : undefined;
  const holder = node.parent;
  const assigned = holder && (ts.isVariableDeclaration(holder) || ts.isPropertyAssignment(holder) || ts.isPropertyDeclaration(holder)) && ts.isIdentifier(holder.name) ? holder.name.text : undefined;
  const name = ts.isConstructorDeclaration(node) ? 'constructor' : (own ?? assigned ?? '<anonymous>');
  const owner = ts.isClassLike(node.parent) || ts.isClassLike(holder?.parent) ? (node.parent.name ?? holder?.parent?.name)?.text : undefined;
  return owner ? `${owner}.${name}` : name;
}
