import type { SourceFile } from 'ts-morph';

/** The language and module system of a source, and so of what is generated from it. */
export type Language = 'ts' | 'esm' | 'cjs';

/** Files the codemod reads: TypeScript and JavaScript, any module flavour. */
export const SOURCE_FILE = /\.(c|m)?[jt]sx?$/;
/** Files the codemod writes: never inputs. */
export const GENERATED_FILE = /(\.capabilities\.(c|m)?[jt]sx?|[\\/]sinew\.(registry|context)\.(c|m)?[jt]s)$/;

export const ESM_SYNTAX = /^\s*(import\s[\w{*'"]|export\s)/m;
export const CJS_SYNTAX = /\b(module\.exports|exports\.[\w$]+)\s*=|\brequire\s*\(/;

/** `.cjs` is CommonJS, `.mjs` ESM; a `.js` file is ESM when it has import/export syntax, else CommonJS when it assigns `module.exports`. */
export function languageOf(file: SourceFile): Language {
  const path = file.getFilePath();
  if (/\.(c|m)?tsx?$/.test(path)) return 'ts';
  if (path.endsWith('.cjs')) return 'cjs';
  if (path.endsWith('.mjs')) return 'esm';
  const text = file.getFullText();
  return !ESM_SYNTAX.test(text) && CJS_SYNTAX.test(text) ? 'cjs' : 'esm';
}

/** True for a JavaScript source (the generated file is JavaScript too). */
export function isJavaScript(path: string): boolean {
  return /\.(c|m)?jsx?$/.test(path);
}
