import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { FlagsSchema } from '../src/flags.js';

// The dashboards ship in @sinew/server (tested there); its Prometheus config scrapes the port the demo serves on.
it('the shipped prometheus.yml scrapes the port the demo serves on by default', async () => {
  const config = await readFile(createRequire(import.meta.url).resolve('@sinew/server/dashboards/prometheus.yml'), 'utf8');
  expect(config).toContain(`targets: ['127.0.0.1:${FlagsSchema.parse({}).port}']`);
});
