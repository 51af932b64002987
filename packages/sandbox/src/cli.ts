#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { type SandboxOptions, startSandbox } from './index.js';
import type { StoreEmulatorOptions } from './store/emulator.js';

const USAGE = `Usage: x-sandbox [options]

  --port N                 port (default 8787; 0 = ephemeral)
  --host HOST              bind address (default 127.0.0.1)
  --https                  serve HTTPS with a self-signed certificate (printed at start)
  --seed demo|none         load the demo catalogue (default none)
  --data FILE              persist the store state to FILE
  --consumer-key ck_...    use this read_write consumer key
  --consumer-secret cs_... use this read_write consumer secret
  --strict-https           ignore Basic/query keys over plain HTTP, like WooCommerce's is_ssl() gate
  --rate-limit N/Ws|off    per-key sliding window (default 500/60s)
  --batch-limit N          max items per batch request (default 100)
  -h, --help               this help
`;

function parseRateLimit(value: string): StoreEmulatorOptions['rateLimit'] {
  if (value === 'off' || value === 'false' || value === '0') return false;
  const m = /^(\d+)\/(\d+)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new Error(`--rate-limit: expected N/Ws (e.g. 500/60s) or off, got "${value}"`);
  const unit = m[3] ?? 's';
  const n = Number(m[2]);
  return { limit: Number(m[1]), intervalMs: unit === 'ms' ? n : unit === 'm' ? n * 60_000 : n * 1000 };
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '8787' },
      host: { type: 'string', default: '127.0.0.1' },
      https: { type: 'boolean', default: false },
      seed: { type: 'string', default: 'none' },
      data: { type: 'string' },
      'consumer-key': { type: 'string' },
      'consumer-secret': { type: 'string' },
      'strict-https': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'batch-limit': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(USAGE);
    return;
  }
  if (values.seed !== 'demo' && values.seed !== 'none') throw new Error('--seed must be "demo" or "none"');
  const ck = values['consumer-key'];
  const cs = values['consumer-secret'];
  if ((ck && !cs) || (!ck && cs)) throw new Error('--consumer-key and --consumer-secret go together');
  const store: StoreEmulatorOptions = {
    seed: values.seed,
    strictHttps: values['strict-https'],
    ...(values['rate-limit'] ? { rateLimit: parseRateLimit(values['rate-limit']) } : {}),
    ...(values['batch-limit'] ? { batchLimit: Number(values['batch-limit']) } : {}),
    ...(ck && cs
      ? { keys: [{ consumerKey: ck, consumerSecret: cs, permissions: 'read_write' as const }] }
      : {}),
  };
  const options: SandboxOptions = {
    port: Number(values.port),
    host: values.host,
    https: values.https,
    store,
    ...(values.data ? { dataFile: values.data } : {}),
  };
  const sandbox = await startSandbox(options);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stdout.write(`\n${signal}: closing x-sandbox...\n`);
    sandbox.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`x-sandbox: error while closing: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  const s = sandbox.store;
  const lines = [
    `x-sandbox listening on ${sandbox.url}`,
    '',
    'Store (WooCommerce REST API v3)',
    `  home URL         ${sandbox.url}`,
    `  REST base        ${sandbox.url}/wp-json/wc/v3`,
    `  plain permalinks ${sandbox.url}/?rest_route=/wc/v3`,
    `  consumer key     ${s.consumerKey}   (read_write)`,
    `  consumer secret  ${s.consumerSecret}`,
    `  read-only key    ${s.keys.read.consumerKey} / ${s.keys.read.consumerSecret}`,
    `  write-only key   ${s.keys.write.consumerKey} / ${s.keys.write.consumerSecret}`,
    `  strict HTTPS     ${store.strictHttps ? 'on (Basic auth only over HTTPS)' : 'off (Basic auth accepted over plain HTTP)'}`,
    '',
  ];
  if (sandbox.certificate)
    lines.push('Self-signed certificate (trust it as a CA):', sandbox.certificate.trim(), '');
  lines.push('Ctrl+C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`x-sandbox: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}`);
  process.exit(1);
});
