// Reads docs/first-bot.md as the consumer test follows it: in document order, every ```sh block is commands
// to run (one per line, `# comments` dropped) and every ```lang block right after a line "File `path`:" is a
// file to write; the ```text block after "It prints" is what the command before it must print.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../workspaces.mjs';

export const GUIDE = join(ROOT, 'docs', 'first-bot.md');

/**
 * The guide's steps: `{ kind: 'file', path, text }` and `{ kind: 'command', command, prints? }`.
 * @param {string} markdown
 */
export function guideSteps(markdown = readFileSync(GUIDE, 'utf8')) {
  const steps = [];
  const fence = /^(?:File `([^`]+)`:\n\n|(It prints\n\n))?```(\w*)\n([\s\S]*?)^```$/gm;
  for (const [, path, printsLabel, lang, block] of markdown.matchAll(fence)) {
    const body = block.replace(/\n$/, '');
    if (path) steps.push({ kind: 'file', path, text: body });
    else if (printsLabel && lang === 'text') {
      const last = steps.at(-1);
      if (last?.kind !== 'command') throw new Error('first-bot.md: an "It prints" block follows no command');
      last.prints = body;
    } else if (lang === 'sh') {
      for (const line of body.split('\n')) {
        const command = line.replace(/\s+#.*$/, '').trim();
        if (command && !command.startsWith('#')) steps.push({ kind: 'command', command });
      }
    }
  }
  if (!steps.some((step) => step.kind === 'command' && step.command === 'npm init -y')) throw new Error('first-bot.md: no `npm init -y` step');
  return steps;
}

/**
 * The command as the test runs it: `@sinew/<name>` installs the packed tarball, the guide's mineflayer range
 * becomes the one under test, and npm skips audit and fund notices.
 * @param {string} command
 * @param {Map<string, string>} tarballs package name → tarball path
 * @param {string} mineflayer the mineflayer range under test
 */
export function localCommand(command, tarballs, mineflayer) {
  if (!/^npm (install|i)\b/.test(command)) return command;
  const words = command.split(/\s+/).map((word) => {
    if (word.startsWith('@sinew/')) {
      const tarball = tarballs.get(word);
      if (!tarball) throw new Error(`first-bot.md installs ${word}, which is not a publishable package`);
      return tarball;
    }
    return word.startsWith('mineflayer@') ? `mineflayer@${mineflayer}` : word;
  });
  return [...words.slice(0, 2), '--no-audit', '--no-fund', '--prefer-offline', ...words.slice(2)].join(' ');
}
