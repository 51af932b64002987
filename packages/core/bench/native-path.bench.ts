/**
 * Which Node-native request path core should take (issue 21): `node:http` over a keep-alive `http.Agent`,
 * or undici's dispatcher API (`Pool.request`), each reading a 1.2 KB JSON body, next to the floor
 * (`undici.request` on its global dispatcher) and `fetch` + `json()`, in ONE run against the same loopback
 * server (the transport bench's, in a child process so this process's `process.cpuUsage()` counts clients only).
 *
 *   pnpm --filter @x/core exec tsx bench/native-path.bench.ts
 *   BENCH_N=5000 BENCH_ROUNDS=5 pnpm --filter @x/core exec tsx bench/native-path.bench.ts
 *
 * Every candidate does what core's path must: collect the body bytes, decode them as UTF-8, `JSON.parse`.
 * A measurement, not a test: it prints a table and fails nothing.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Pool, request as undiciRequest } from 'undici';
import { drive, intEnv, median } from '../../../bench.tools.js';

const N = intEnv('BENCH_N', 2_000);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 16);
const WARMUP = intEnv('BENCH_WARMUP', 300);
const PATH = '/v1/transcripts/tr_01HZX3K9Q4M7V2B8N6C5D1E0FA';
const HEADERS = { accept: 'application/json', authorization: 'Bearer sk_bench_0123456789abcdef' };

type Call = () => Promise<{ id: string }>;
type Mode = 'sequential' | 'concurrent';

async function startServer(): Promise<{ child: ChildProcess; origin: string }> {
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), { stdio: 'inherit' });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}

function viaNodeHttp(origin: string): Call {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const url = new URL(PATH, origin);
  return () =>
    new Promise((resolve, reject) => {
      const req = httpRequest(url, { method: 'GET', headers: HEADERS, agent }, (res: IncomingMessage) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}`);
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error);
          }
        });
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end();
    });
}

function viaUndiciPool(origin: string): Call {
  const pool = new Pool(origin, { connections: 64 });
  return async () => {
    const { statusCode, body } = await pool.request({ method: 'GET', path: PATH, headers: HEADERS });
    const text = await body.text();
    if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
    return JSON.parse(text);
  };
}

function variants(origin: string): Array<{ key: string; label: string; call: Call }> {
  const url = origin + PATH;
  return [
    { key: 'node-http', label: 'node:http + keep-alive Agent', call: viaNodeHttp(origin) },
    { key: 'undici-pool', label: 'undici Pool.request', call: viaUndiciPool(origin) },
    {
      key: 'undici',
      label: 'undici.request (floor)',
      call: async () => {
        const { statusCode, body } = await undiciRequest(url, { method: 'GET', headers: HEADERS });
        if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
        return (await body.json()) as { id: string };
      },
    },
    {
      key: 'fetch',
      label: 'fetch + json()',
      call: async () => {
        const response = await fetch(url, { headers: HEADERS });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return (await response.json()) as { id: string };
      },
    },
  ];
}

async function measure(call: Call, mode: Mode): Promise<{ cpu: number; rps: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.cpuUsage();
  const t0 = performance.now();
  await drive(call, N, mode === 'sequential' ? 1 : CONCURRENCY);
  const wall = performance.now() - t0;
  const used = process.cpuUsage(before);
  return { cpu: (used.user + used.system) / N, rps: N / (wall / 1000) };
}

async function main(): Promise<void> {
  const load = loadavg();
  const { child, origin } = await startServer();
  const all = variants(origin);
  const modes: Mode[] = ['sequential', 'concurrent'];
  const samples = new Map<string, Array<{ cpu: number; rps: number }>>();
  try {
    for (const variant of all) {
      await drive(variant.call, WARMUP, 1);
      await drive(variant.call, WARMUP, CONCURRENCY);
    }
    for (let round = 0; round < ROUNDS; round++) {
      const order = all.map((_, i) => all[(i + round) % all.length]!);
      for (const mode of modes)
        for (const variant of round % 2 ? order.reverse() : order) {
          const key = `${variant.key}/${mode}`;
          samples.set(key, [...(samples.get(key) ?? []), await measure(variant.call, mode)]);
        }
    }
  } finally {
    child.send('close');
  }
  console.log(
    `\nNode-native path candidates: CPU per request, N=${N}, ${ROUNDS} rounds (median), concurrency ${CONCURRENCY}; ` +
      `Node ${process.version}, ${cpus().length} CPUs, load ${load.map((l) => l.toFixed(2)).join(' ')}\n`,
  );
  console.log(
    `${'client'.padEnd(32)}${'mode'.padEnd(12)}${'req/s'.padStart(8)}${'CPU µs/req'.padStart(12)}${'vs floor'.padStart(10)}`,
  );
  for (const mode of modes) {
    const floor = median(samples.get(`undici/${mode}`)!.map((s) => s.cpu));
    for (const variant of all) {
      const list = samples.get(`${variant.key}/${mode}`)!;
      const cpu = median(list.map((s) => s.cpu));
      console.log(
        `${variant.label.padEnd(32)}${(mode === 'sequential' ? 'sequential' : `conc ${CONCURRENCY}`).padEnd(12)}` +
          `${median(list.map((s) => s.rps))
            .toFixed(0)
            .padStart(8)}${cpu.toFixed(1).padStart(12)}${`${(cpu / floor).toFixed(2)}x`.padStart(10)}`,
      );
    }
  }
}

await main();
