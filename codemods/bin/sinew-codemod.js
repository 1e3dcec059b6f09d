#!/usr/bin/env node
// The launcher every Sinew bin shares: @sinew/executor-contracts/bin/launch.js (a dependency).
const { launch } = await import(new URL('bin/launch.js', import.meta.resolve('@sinew/executor-contracts/package.json')).href);

await launch('sinew-codemod', '@sinew/codemods', import.meta.url);
