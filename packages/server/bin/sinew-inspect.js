#!/usr/bin/env node
// Checked-in launcher, shared with every Sinew bin (@sinew/executor-contracts/bin/launch.js, a dependency):
// src/cli.ts in the Sinew checkout, dist/cli.js when published.
const { launch } = await import(new URL('bin/launch.js', import.meta.resolve('@sinew/executor-contracts/package.json')).href);

await launch('sinew-inspect', '@sinew/server', import.meta.url);
