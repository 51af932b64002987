/**
 * CPU per request of `@x/core` against bare ky (core's browser transport underneath), raw `fetch` and
 * `undici.request`, all talking to the same loopback server in ONE run. The server runs in a child
 * process, so `process.cpuUsage()` of this process counts the clients only.
 *
 *   pnpm --filter @x/core bench                       (this file, then upload.bench.ts, limiter.bench.ts)
 *   pnpm --filter @x/core exec tsx bench/transport.bench.ts
 *   BENCH_N=5000 BENCH_ROUNDS=5 pnpm --filter @x/core exec tsx bench/transport.bench.ts
 *   BENCH_ONLY=core+schema,undici pnpm --filter @x/core exec tsx bench/transport.bench.ts
 *
 * Rows: core with a zod/mini response schema (Node's default path), core with the same schema given
 * `fetch: globalThis.fetch` (the browser path: ky over that fetch, which is what browsers, workers, Deno and
 * Bun run; before issue 21's Node-native path lands it is the same path as the default row), core without
 * a schema, bare ky + `JSON.parse`, `fetch` + `json()`, and `undici.request` + `json()` (the floor).
 *
 * Goals (issue 21), sequential and at concurrency 16: core with a schema costs at most 1.5x the CPU per
 * request of `undici.request` and no more than `fetch` + `json()`; the browser path no slower than before
 * (its ratio to bare ky is printed next to issue 6's target of 1.15x, and issue 21's baseline figures).
 * Prints a table and verdicts; writes the figures to bench/results.json (not committed). No assertion
 * fails the process: this is a measurement, not a test.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import ky from 'ky';
import { request as undiciRequest } from 'undici';
import * as z from 'zod/mini';
import { drive, intEnv, median, writeResults } from '../../../bench.tools.js';
import { BaseClient, bearerAuth } from '../src/index.js';

const N = intEnv('BENCH_N', 2_000);
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 16);
const WARMUP = intEnv('BENCH_WARMUP', 300);
/** Comma-separated variant keys to run (e.g. `core+schema` under a profiler); default all. */
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
/** Issue 21: core (with schema) may cost at most this multiple of `undici.request`'s CPU per request... */
const TARGET_RATIO_VS_UNDICI = 1.5;
/** ...and at most this multiple of `fetch` + `json()`'s. */
const TARGET_RATIO_VS_FETCH = 1.0;
/** Issue 6: the browser path (core over ky) adds at most 15% to bare ky. */
const TARGET_RATIO_VS_KY = 1.15;
/** Issue 21's figures for core + schema at dd20f7e (before the Node path), µs of CPU per request. */
const BASELINE_US = { sequential: 833, concurrent: 512 } as const;
const TOKEN = 'sk_bench_0123456789abcdef';
const PATH = '/v1/transcripts/tr_01HZX3K9Q4M7V2B8N6C5D1E0FA';
const EXPECTED_ID = 'tr_01HZX3K9Q4M7V2B8N6C5D1E0FA';

/** A small transcript schema, loose like every response schema of the SDKs. */
const Transcript = z.looseObject({
  id: z.string(),
  object: z.literal('transcript'),
  status: z.string(),
  language: z.optional(z.string()),
  duration_ms: z.number(),
  created_at: z.string(),
  text: z.string(),
  confidence: z.number(),
  words: z.array(
    z.looseObject({ text: z.string(), start_ms: z.number(), end_ms: z.number(), confidence: z.number() }),
  ),
});

type Call = () => Promise<{ id: string }>;
interface Variant {
  key: string;
  label: string;
  /** Rows marked informational are not part of the brief's comparison. */
  info?: boolean;
  call: Call;
}
type Mode = 'sequential' | 'concurrent';
interface Sample {
  rps: number;
  cpuUsPerRequest: number;
  wallMs: number;
  serverCpuUsPerRequest: number;
}

async function startServer(): Promise<{ child: ChildProcess; baseURL: string; bytes: number }> {
  // `fork` reuses this process's execArgv, i.e. tsx's loader, so the server can be TypeScript too.
  const child = fork(fileURLToPath(new URL('./server.ts', import.meta.url)), { stdio: 'inherit' });
  const { port, bytes } = await new Promise<{ port: number; bytes: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number; bytes: number }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`bench server exited early (${code})`)));
  });
  return { child, baseURL: `http://127.0.0.1:${port}`, bytes };
}

function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (message) => {
      const { cpu } = message as { cpu: NodeJS.CpuUsage };
      resolve(cpu.user + cpu.system);
    });
    child.send('stats');
  });
}

async function measure(call: Call, mode: Mode, server: ChildProcess): Promise<Sample> {
  (globalThis as { gc?: () => void }).gc?.();
  const serverBefore = await serverCpu(server);
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  await drive(call, N, mode === 'sequential' ? 1 : CONCURRENCY);
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  const serverAfter = await serverCpu(server);
  return {
    rps: N / (wallMs / 1000),
    cpuUsPerRequest: (cpu.user + cpu.system) / N,
    wallMs,
    serverCpuUsPerRequest: (serverAfter - serverBefore) / N,
  };
}

function variants(baseURL: string): Variant[] {
  const url = baseURL + PATH;
  // Every variant sends the same credential and accept header, so the bytes on the wire compare.
  const headers = { accept: 'application/json', authorization: `Bearer ${TOKEN}` };
  const adapter = { packageName: '@x/bench', packageVersion: '0.0.0' };
  const core = new BaseClient({ baseURL, auth: bearerAuth(TOKEN), rateLimit: false }, adapter);
  // A `fetch` of the caller's own keeps core on ky over that fetch in every runtime: the browser path.
  const browser = new BaseClient(
    { baseURL, auth: bearerAuth(TOKEN), rateLimit: false, fetch: globalThis.fetch },
    adapter,
  );
  return [
    {
      key: 'core+schema',
      label: '@x/core + zod/mini schema',
      call: () => core.request({ method: 'GET', path: PATH, schema: Transcript }).then((data) => data),
    },
    {
      key: 'core-browser',
      label: '@x/core + schema, ky over fetch',
      call: () => browser.request({ method: 'GET', path: PATH, schema: Transcript }).then((data) => data),
    },
    {
      key: 'core',
      label: '@x/core, no schema',
      call: () => core.request<{ id: string }>({ method: 'GET', path: PATH }).then((data) => data),
    },
    {
      key: 'ky',
      label: 'bare ky + text() + JSON.parse',
      call: async () => {
        const text = await ky(url, { headers, retry: 0, timeout: false, throwHttpErrors: false }).text();
        return JSON.parse(text) as { id: string };
      },
    },
    {
      key: 'fetch',
      label: 'fetch + response.json()',
      call: async () => {
        const response = await fetch(url, { headers });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return (await response.json()) as { id: string };
      },
    },
    {
      key: 'undici',
      label: 'undici.request + body.json()',
      call: async () => {
        const { statusCode, body } = await undiciRequest(url, { method: 'GET', headers });
        if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
        return (await body.json()) as { id: string };
      },
    },
  ];
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const loadAtStart = loadavg();
  const { child, baseURL, bytes } = await startServer();
  const all = variants(baseURL).filter((variant) => !ONLY || ONLY.includes(variant.key));
  if (all.length === 0) throw new Error(`BENCH_ONLY=${ONLY} matches no variant`);
  const modes: Mode[] = ['sequential', 'concurrent'];
  const samples = new Map<string, Sample[]>();

  try {
    for (const variant of all) {
      const data = await variant.call();
      if (data.id !== EXPECTED_ID) throw new Error(`${variant.key} read an unexpected body`);
      await drive(variant.call, WARMUP, 1);
      await drive(variant.call, WARMUP, CONCURRENCY);
    }

    for (let round = 0; round < ROUNDS; round++) {
      // Rotate the order each round (and reverse every other round) so no variant always runs first/last.
      const rotated = all.map((_, i) => all[(i + round) % all.length]!);
      const order = round % 2 ? rotated.reverse() : rotated;
      for (const mode of modes) {
        for (const variant of order) {
          const sample = await measure(variant.call, mode, child);
          const key = `${variant.key}/${mode}`;
          samples.set(key, [...(samples.get(key) ?? []), sample]);
        }
      }
      process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
    }
  } finally {
    child.send('close');
  }

  const summary = all.flatMap((variant) =>
    modes.map((mode) => {
      const list = samples.get(`${variant.key}/${mode}`)!;
      return {
        variant: variant.key,
        label: variant.label,
        informational: Boolean(variant.info),
        mode,
        rps: median(list.map((s) => s.rps)),
        cpuUsPerRequest: median(list.map((s) => s.cpuUsPerRequest)),
        serverCpuUsPerRequest: median(list.map((s) => s.serverCpuUsPerRequest)),
        samples: list,
      };
    }),
  );
  const rowOf = (key: string, mode: Mode) => summary.find((row) => row.variant === key && row.mode === mode);
  const rows = summary.map((row) => {
    const cpus = row.samples.map((s) => s.cpuUsPerRequest);
    return {
      ...row,
      /** (max - min) / median of the rounds' CPU per request: how far to trust the ratios. */
      cpuSpread: (Math.max(...cpus) - Math.min(...cpus)) / row.cpuUsPerRequest,
      cpuVsKy: row.cpuUsPerRequest / (rowOf('ky', row.mode)?.cpuUsPerRequest ?? Number.NaN),
      cpuVsFetch: row.cpuUsPerRequest / (rowOf('fetch', row.mode)?.cpuUsPerRequest ?? Number.NaN),
      cpuVsUndici: row.cpuUsPerRequest / (rowOf('undici', row.mode)?.cpuUsPerRequest ?? Number.NaN),
      rpsVsFetch: row.rps / (rowOf('fetch', row.mode)?.rps ?? Number.NaN),
    };
  });

  const ratio = (value: number) => (Number.isNaN(value) ? '-' : `${value.toFixed(2)}x`);
  const columns: [string, number][] = [
    ['client', 32],
    ['mode', 11],
    ['req/s', 8],
    ['CPU µs/req', 12],
    ['spread', 8],
    ['CPU vs ky', 11],
    ['CPU vs fetch', 14],
    ['CPU vs undici', 15],
    ['req/s vs fetch', 16],
    ['server µs/req', 15],
  ];
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i < 2 ? cell.padEnd(columns[i]![1]) : cell.padStart(columns[i]![1]))).join('');
  console.log(
    `\n@x/core transport bench: CPU per request of the client process. N=${N} requests per run, ${ROUNDS} rounds ` +
      `(median), concurrency ${CONCURRENCY}, ${bytes} B JSON body; Node ${process.version}, ${cpus().length} CPUs, ` +
      `load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ${loadavg()[0]!.toFixed(2)} at end\n`,
  );
  console.log(line(columns.map(([title]) => title)));
  for (const row of rows) {
    console.log(
      line([
        row.label,
        row.mode === 'sequential' ? 'sequential' : `conc ${CONCURRENCY}`,
        row.rps.toFixed(0),
        row.cpuUsPerRequest.toFixed(1),
        `±${((row.cpuSpread * 100) / 2).toFixed(0)}%`,
        ratio(row.cpuVsKy),
        ratio(row.cpuVsFetch),
        ratio(row.cpuVsUndici),
        ratio(row.rpsVsFetch),
        row.serverCpuUsPerRequest.toFixed(1),
      ]),
    );
  }
  console.log(
    '(spread: half the range of the rounds around the median; "server µs/req" is the server child, not counted)',
  );

  const modeName = (mode: Mode) => (mode === 'sequential' ? 'sequential' : `conc ${CONCURRENCY}`);
  const rowsOf = (key: string) => rows.filter((r) => r.variant === key);
  /** One goal over both modes: PASS only when every mode was measured and within `max`. */
  const goal = (key: string, against: string, pick: (r: (typeof rows)[number]) => number, max: number) => {
    const list = rowsOf(key).filter((r) => !Number.isNaN(pick(r)));
    const pass = list.length === modes.length && list.every((r) => pick(r) <= max);
    const figures = list.map((r) => `${ratio(pick(r))} (${modeName(r.mode)})`).join(', ');
    const line =
      list.length === 0
        ? `No verdict: the run did not include both ${key} and ${against}.`
        : `${pass ? 'PASS' : 'FAIL'}: ${key} costs ${figures} the CPU per request of ${against}; goal <= ${max.toFixed(2)}x.`;
    return { pass, line, worst: list.length > 0 ? Math.max(...list.map(pick)) : null };
  };
  const goals = {
    vsUndici: goal('core+schema', 'undici.request', (r) => r.cpuVsUndici, TARGET_RATIO_VS_UNDICI),
    vsFetch: goal('core+schema', 'fetch + json()', (r) => r.cpuVsFetch, TARGET_RATIO_VS_FETCH),
    browserVsKy: goal('core-browser', 'bare ky (issue 6)', (r) => r.cpuVsKy, TARGET_RATIO_VS_KY),
  };
  const baseline = rowsOf('core-browser')
    .map((r) => `${r.cpuUsPerRequest.toFixed(0)} µs vs ${BASELINE_US[r.mode]} µs (${modeName(r.mode)})`)
    .join(', ');
  const verdict = [goals.vsUndici.line, goals.vsFetch.line].join('\n');
  const note = [
    `Browser path: ${goals.browserVsKy.line}`,
    baseline
      ? `For information: the browser path ${baseline} for core + schema at dd20f7e (issue 21, another run, so indicative only).`
      : '',
    ...rowsOf('core').map(
      (r) =>
        `For information: @x/core without a schema costs ${ratio(r.cpuVsKy)} of bare ky (${modeName(r.mode)}).`,
    ),
  ]
    .filter(Boolean)
    .join('\n');
  console.log(`\nGoals (issue 21), core + schema on the default path:\n${verdict}\n${note}`);

  const out = writeResults(new URL('./results.json', import.meta.url), loadAtStart, {
    config: { n: N, rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP, bodyBytes: bytes },
    target: {
      maxCpuRatioVsUndici: TARGET_RATIO_VS_UNDICI,
      maxCpuRatioVsFetch: TARGET_RATIO_VS_FETCH,
      browserMaxCpuRatioVsKy: TARGET_RATIO_VS_KY,
      baselineUs: BASELINE_US,
      goals,
    },
    verdict,
    note,
    rows,
  });
  console.log(`(results written to ${out}; total ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

await main();
