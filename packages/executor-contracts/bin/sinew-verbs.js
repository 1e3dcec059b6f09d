#!/usr/bin/env node
// Checked-in launcher for dist/cli.js: npm links bins at install time and skips targets that do not
// exist yet, so pointing `bin` at dist/ would leave `npx sinew-verbs` unlinked after `npm ci`.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write('sinew-verbs: @sinew/executor-contracts is not built yet; run `npm run build -w @sinew/executor-contracts`\n');
  process.exit(2);
}
await import(cli.href);
