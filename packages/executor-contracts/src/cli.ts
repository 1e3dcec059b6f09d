#!/usr/bin/env node
// The `sinew-verbs` bin: the verb-divergence gate (FM-01 in CI). The CLI is gate/cli.ts, its process wiring gate/bin.ts.
import { runVerbsBin } from './gate/bin.js';

void runVerbsBin(process);
