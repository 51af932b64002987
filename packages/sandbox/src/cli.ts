#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { type Sandbox, type SandboxOptions, STORE_DEV_KEYS, startSandbox } from './index.js';
import { checkRateLimit, type RateLimit } from './kit/rate-windows.js';
import { defaultRealtimeApp, type RealtimeAppOptions } from './realtime/model/apps.js';
import type { StoreEmulatorOptions } from './store/emulator.js';
import type { TranscriptionEmulatorOptions } from './transcription/emulator.js';

const USAGE = `Usage: x-sandbox [options]

  --port N                 port (default 8787; 0 = ephemeral)
  --host HOST              bind address (default 127.0.0.1)
  --https                  serve HTTPS with a self-signed certificate (printed at start)
  --seed demo|none         load the demo catalogue (default none)
  --data FILE              persist the store state to FILE
  --consumer-key ck_...    use this read_write consumer key
  --consumer-secret cs_... use this read_write consumer secret
  --random-keys            generate fresh keys instead of the fixed dev keys (ck_sandbox_dev_...)
  --strict-https           ignore Basic/query keys over plain HTTP, like WooCommerce's is_ssl() gate
  --rate-limit N/Ws|off    per-key sliding window, N >= 1 requests per W > 0 (ms, s or m; default 500/60s)
  --batch-limit N          max items per batch request (default 100)
  --transcription          also start the transcription emulator (AssemblyAI v2 REST under /v2, and
                           Streaming v3: GET /v3/token, WebSocket /v3/ws)
  --transcription-key KEY  accept this API key (default the fixed dev key; random with --random-keys)
  --transcription-rate-limit N/Ws|off
                           per key and model sliding window (default 60/60s)
  --transcription-concurrency N
                           jobs per key at once before the rest are queued as throttled (default 5)
  --transcription-data DIR keep uploads and transcripts in DIR across restarts (even kill -9)
  --realtime               also start the realtime emulator (Pusher Channels protocol 7: WebSocket
                           /app/{key}, HTTP API under /apps, webhooks); the fixed dev app unless
                           --random-keys
  --realtime-authorized-connections
                           close realtime connections that neither sign in nor subscribe to a private or
                           presence channel within 30 s (4009), as Pusher's "authorized connections"
  --realtime-watchlist     send watchlist events (online/offline) to signed-in users with a watchlist
  -h, --help               this help
`;

function parseRateLimit(value: string, flag = '--rate-limit'): RateLimit | false {
  if (value === 'off' || value === 'false' || value === '0') return false;
  const m = /^(\d+)\/(\d+)(ms|s|m)?$/.exec(value.trim());
  if (!m) throw new Error(`${flag}: expected N/Ws (e.g. 500/60s) or off, got "${value}"`);
  const unit = m[3] ?? 's';
  const n = Number(m[2]);
  const limit = { limit: Number(m[1]), intervalMs: unit === 'ms' ? n : unit === 'm' ? n * 60_000 : n * 1000 };
  // 0/1s would let everything through and 5/0s forgets each request at once: both would limit nothing.
  try {
    checkRateLimit(limit);
  } catch {
    throw new Error(`${flag}: "${value}" limits nothing; use N >= 1 requests per a window > 0, or off`);
  }
  return limit;
}

function parsePositiveInt(flag: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) {
    throw new Error(`${flag}: expected a positive integer, got "${value}"`);
  }
  return n;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * The startup block, printed last so it is what stays on screen when other tasks' logs stop scrolling: where
 * to send requests and with which keys.
 */
function banner(sandbox: Sandbox, options: SandboxOptions, keysNote: string): string {
  const s = sandbox.store;
  const rw = s.keys.read_write;
  const lines = [
    `x-sandbox store (WooCommerce REST API v3) on ${sandbox.url}`,
    '',
    `  home URL          ${sandbox.url}`,
    `  REST base         ${sandbox.url}/wp-json/wc/v3`,
    `  plain permalinks  ${sandbox.url}/?rest_route=/wc/v3`,
    `  consumer key      ${rw.consumerKey}   (read_write)`,
    `  consumer secret   ${rw.consumerSecret}`,
    `  read-only key     ${s.keys.read.consumerKey} / ${s.keys.read.consumerSecret}`,
    `  write-only key    ${s.keys.write.consumerKey} / ${s.keys.write.consumerSecret}`,
    `  keys              ${keysNote}`,
    `  strict HTTPS      ${options.store?.strictHttps ? 'on (Basic auth only over HTTPS)' : 'off (Basic auth accepted over plain HTTP)'}`,
    '',
    `  curl${sandbox.https ? ' --cacert sandbox.pem' : ''} -u ${rw.consumerKey}:${rw.consumerSecret} '${sandbox.url}/wp-json/wc/v3/products?per_page=5'`,
    '',
    ...transcriptionLines(sandbox),
    ...realtimeLines(sandbox),
    'Ctrl+C to stop.',
  ];
  const rule = '='.repeat(Math.min(78, Math.max(...lines.map((l) => l.length))));
  return `${rule}\n${lines.join('\n')}\n${rule}\n`;
}

function transcriptionLines(sandbox: Sandbox): string[] {
  const t = sandbox.transcription;
  if (!t) return [];
  return [
    `x-sandbox transcription (AssemblyAI v2 REST) on ${sandbox.url}/v2, Streaming v3 on /v3`,
    '',
    `  base URL          ${sandbox.url}   (baseUrl of the client; routes under /v2)`,
    `  API key           ${t.apiKey}`,
    '  speech engine     PocketSphinx (apt-get install pocketsphinx pocketsphinx-en-us sox)',
    ...streamingLines(sandbox),
    '',
    `  curl${sandbox.https ? ' --cacert sandbox.pem' : ''} -H 'Authorization: ${t.apiKey}' '${sandbox.url}/v2/transcript?limit=5'`,
    '',
  ];
}

/** The v3 streaming API beside it: the socket, the token route, and what recognises live speech. */
function streamingLines(sandbox: Sandbox): string[] {
  const t = sandbox.transcription;
  if (!t) return [];
  // The assemblyai SDK refuses ws:// URLs, so say so when the sandbox is not serving TLS.
  const sdk = sandbox.https
    ? "the assemblyai SDK's websocketBaseUrl"
    : 'the assemblyai SDK needs wss://: add --https';
  return [
    `  streaming socket  ${t.streaming.url}   (?sample_rate=16000&…; ${sdk})`,
    `  streaming token   ${sandbox.url}/v3/token?expires_in_seconds=60   (GET with the key; the socket takes ?token=)`,
    '  live recognition  python3-pocketsphinx (apt-get install python3-pocketsphinx pocketsphinx-en-us)',
  ];
}

function realtimeLines(sandbox: Sandbox): string[] {
  const r = sandbox.realtime;
  if (!r) return [];
  const port = new URL(r.url).port;
  const host = new URL(r.url).hostname;
  // Over HTTPS pusher-js and our client take the port as wssPort: wsPort is only for ws://.
  const socketOptions = sandbox.https
    ? `wsHost: '${host}', wssPort: ${port}, forceTLS: true`
    : `wsHost: '${host}', wsPort: ${port}, forceTLS: false`;
  const serverOptions = `{ appId: '${r.appId}', key: '${r.key}', secret: '${r.secret}', host: '${host}', port: ${port}, useTLS: ${sandbox.https} }`;
  return [
    `x-sandbox realtime (Pusher Channels protocol 7 + HTTP API) on ${r.wsUrl}`,
    '',
    `  app id            ${r.appId}`,
    `  key               ${r.key}`,
    `  secret            ${r.secret}`,
    `  WebSocket URL     ${r.wsUrl}/app/${r.key}?protocol=7`,
    `  HTTP API          ${r.url}/apps/${r.appId}`,
    `  pusher-js         ${socketOptions}, enabledTransports: ['ws']`,
    `  pusher (server)   host: '${host}', port: '${port}', useTLS: ${sandbox.https}`,
    `  @x/realtime       new RealtimeClient('${r.key}', { ${socketOptions} })`,
    `  @x/realtime/server new RealtimeServer(${serverOptions})`,
    '',
  ];
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
      'random-keys': { type: 'boolean', default: false },
      'strict-https': { type: 'boolean', default: false },
      'rate-limit': { type: 'string' },
      'batch-limit': { type: 'string' },
      transcription: { type: 'boolean', default: false },
      'transcription-key': { type: 'string' },
      'transcription-rate-limit': { type: 'string' },
      'transcription-concurrency': { type: 'string' },
      'transcription-data': { type: 'string' },
      realtime: { type: 'boolean', default: false },
      'realtime-authorized-connections': { type: 'boolean', default: false },
      'realtime-watchlist': { type: 'boolean', default: false },
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
    randomKeys: values['random-keys'],
    ...(values['rate-limit'] ? { rateLimit: parseRateLimit(values['rate-limit']) } : {}),
    ...(values['batch-limit']
      ? { batchLimit: parsePositiveInt('--batch-limit', values['batch-limit']) }
      : {}),
    ...(ck && cs
      ? { keys: [{ consumerKey: ck, consumerSecret: cs, permissions: 'read_write' as const }] }
      : {}),
  };
  const transcriptionFlags = [
    'transcription-key',
    'transcription-rate-limit',
    'transcription-concurrency',
    'transcription-data',
  ] as const;
  const stray = transcriptionFlags.find((flag) => values[flag] !== undefined && !values.transcription);
  if (stray) throw new Error(`--${stray} configures the transcription emulator: add --transcription`);
  const transcription: TranscriptionEmulatorOptions | undefined = values.transcription
    ? {
        randomKeys: values['random-keys'],
        ...(values['transcription-key'] ? { apiKeys: [values['transcription-key']] } : {}),
        ...(values['transcription-data'] ? { dataDir: values['transcription-data'] } : {}),
        ...(values['transcription-rate-limit']
          ? { rateLimit: parseRateLimit(values['transcription-rate-limit'], '--transcription-rate-limit') }
          : {}),
        ...(values['transcription-concurrency']
          ? {
              concurrency: parsePositiveInt(
                '--transcription-concurrency',
                values['transcription-concurrency'],
              ),
            }
          : {}),
      }
    : undefined;
  const switches: Partial<RealtimeAppOptions> = {
    ...(values['realtime-authorized-connections'] ? { authorizedConnections: true } : {}),
    ...(values['realtime-watchlist'] ? { watchlistEvents: true } : {}),
  };
  const strayRealtime = (['realtime-authorized-connections', 'realtime-watchlist'] as const).find(
    (flag) => values[flag] && !values.realtime,
  );
  if (strayRealtime) throw new Error(`--${strayRealtime} configures the realtime emulator: add --realtime`);
  const realtimeApps =
    Object.keys(switches).length > 0
      ? { apps: [{ ...defaultRealtimeApp(values['random-keys']), ...switches }] }
      : {};
  // Checked here, with the other flags: a port out of range is a usage mistake, not a failure to start.
  const port = Number(values.port);
  if (!/^\d+$/.test(values.port) || port > 65_535) {
    throw new Error(
      `--port must be a whole number from 0 to 65535 (0 = any free port), not "${values.port}"`,
    );
  }
  const options: SandboxOptions = {
    port,
    host: values.host,
    https: values.https,
    store,
    ...(transcription ? { transcription } : {}),
    ...(values.realtime ? { realtime: { randomKeys: values['random-keys'], ...realtimeApps } } : {}),
    ...(values.data ? { dataFile: values.data } : {}),
  };
  optionsRead = true;
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

  const dev = sandbox.store.keys.read_write.consumerKey === STORE_DEV_KEYS.read_write.consumerKey;
  const keysNote = values['random-keys']
    ? 'random, for this run only (leave out --random-keys for the fixed dev keys)'
    : dev
      ? 'fixed dev keys, the same on every start (--random-keys for fresh ones)'
      : 'read_write from --consumer-key; read-only and write-only are the fixed dev keys';
  let out = `x-sandbox listening on ${sandbox.url}\n\n`;
  if (sandbox.certificate)
    out += `Self-signed certificate (trust it as a CA, e.g. save as sandbox.pem):\n${sandbox.certificate.trim()}\n\n`;
  if (!values['random-keys'] && !LOOPBACK.has(values.host)) {
    out += `Warning: listening on ${values.host} with the published dev keys; use --random-keys on a shared network.\n\n`;
  }
  process.stdout.write(out + banner(sandbox, options, keysNote));
}

/**
 * Set once the options are read: a failure after that (a data file that does not load, a port in use) is not
 * a usage mistake, and its message (file and fault) is the whole story, so the usage text is left out.
 */
let optionsRead = false;

main().catch((err: unknown) => {
  const usage = optionsRead || (err instanceof Error && err.name === 'DataFileError') ? '' : `\n${USAGE}`;
  process.stderr.write(`x-sandbox: ${err instanceof Error ? err.message : String(err)}\n${usage}`);
  process.exit(1);
});
