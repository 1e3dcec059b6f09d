import { Node, SyntaxKind, type SourceFile } from 'ts-morph';
import { ESM_SYNTAX, CJS_SYNTAX } from './language.js';

/**
 * A script-style skill file: JavaScript with no imports or exports at all, whose top-level functions are
 * evaluated by the agent's runtime with its primitives (`mineBlock`, `placeItem`) as globals.
 */
export function isScriptFile(file: SourceFile): boolean {
  if (!/\.(c|m)?jsx?$/.test(file.getFilePath())) return false;
  const text = file.getFullText();
  return !ESM_SYNTAX.test(text) && !CJS_SYNTAX.test(text);
}

/** The names a script uses that nothing declares (not the file, not the language): the globals its runtime must provide. */
export function scriptGlobals(file: SourceFile): string[] {
  const found = new Set<string>();
  for (const id of file.getDescendantsOfKind(SyntaxKind.Identifier)) {
    const parent = id.getParent();
    if (Node.isPropertyAccessExpression(parent) && parent.getNameNode() === id) continue;
    if ((Node.isPropertyAssignment(parent) || Node.isMethodDeclaration(parent)) && parent.getNameNode() === id) continue;
    if (id.getSymbol() === undefined && id.getText() !== 'undefined') found.add(id.getText());
  }
  return [...found].sort();
}

/** The generated helper that evaluates a script as its runtime does and hands out one of its functions. */
export const SCRIPT_FUNCTION_JS = `/**
 * A function of a script-style skill file, evaluated the way the agent's runtime does (top-level functions over
 * globals). A global it expects that is not defined fails the step naming it, never silently.
 * @param {string} file the script, relative to this file
 * @param {readonly string[]} globals what the script expects as globals at run time
 * @param {string} name the function
 * @returns {(...args: unknown[]) => Promise<unknown>}
 */
function scriptFunction(file, globals, name) {
  const missing = globals.filter((global) => !(global in globalThis));
  if (missing.length > 0) throw new Error(\`\${file} expects the global(s) \${missing.join(', ')} at run time; define them before running \${name}\`);
  const text = readFileSync(new URL(file, import.meta.url), 'utf8');
  const found = new Function(\`\${text}\\nreturn typeof \${name} === 'function' ? \${name} : undefined;\`)();
  if (typeof found !== 'function') throw new Error(\`\${file} no longer defines \${name}; run sinew-codemod again\`);
  return found;
}`;
