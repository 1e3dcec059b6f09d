#!/usr/bin/env node
// Checked-in launcher (see ./launch.js): src/cli.ts in the Sinew checkout, dist/cli.js when published.
import { launch } from './launch.js';

await launch('sinew-verbs', '@sinew/executor-contracts', import.meta.url);
