#!/usr/bin/env node
// The `sinew-inspect` bin: serves the inspector for one recorded run on a loopback port and prints its URL.
// It imports no other @sinew package: the checkout's launcher runs it from source before anything is built.
import { parseArgs } from 'node:util';
import { serveRecording } from './replay/serve.js';

const USAGE = `usage: sinew-inspect <file> [--port <n>] [--host 127.0.0.1]
  <file>  a serveSinew({ record }) file, provenance JSONL or a plan journal (JSONL)
  --port  loopback port to serve on (default 0: any free port)
  --host  loopback address (default 127.0.0.1)
`;

async function main(argv: readonly string[]): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    process.stderr.write(`sinew-inspect: ${messageOf(error)}\n${USAGE}`);
    return 2;
  }
  if (parsed.values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const [file] = parsed.positionals;
  const port = parsed.values.port === undefined ? 0 : Number(parsed.values.port);
  const served = await serveRecording({ file: file!, port, ...(parsed.values.host ? { host: parsed.values.host } : {}) });
  const { kind, events, skipped } = served.recording;
  process.stdout.write(`sinew-inspect: ${file} (${kind}, ${events} events${skipped ? `, ${skipped} lines skipped` : ''})\n  inspector ${served.url}\n  Ctrl-C to stop\n`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
  await served.close();
  return 0;
}

function parse(argv: readonly string[]) {
  const parsed = parseArgs({ args: [...argv], allowPositionals: true, strict: true, options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
  if (!parsed.values.help && parsed.positionals.length !== 1) throw new Error(`expected one file, got ${parsed.positionals.length}`);
  if (parsed.values.port !== undefined && !/^\d{1,5}$/.test(parsed.values.port)) throw new Error(`--port takes a number, got ${JSON.stringify(parsed.values.port)}`);
  return parsed;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`sinew-inspect: ${messageOf(error)}\n`);
    process.exit(1);
  },
);

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
