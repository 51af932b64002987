/**
 * Memory and throughput of a large streamed upload: `@x/core` (`streamBody` of a generator, and
 * `fileBody` of a temp file) against `fetch` with a `ReadableStream` body (`duplex: 'half'`), all to the
 * same loopback sink in a child process (`upload-sink.ts`), which reads, discards and answers with the
 * byte count (checked against what was sent). Each client runs in a fresh child process of its own, so
 * one cannot leave memory behind for the next; it samples its RSS every 20 ms during the upload and
 * reports the peak growth over its baseline (taken after a small warm-up upload and a GC).
 *
 *   pnpm --filter @x/core bench                       (transport.bench.ts, then this file)
 *   pnpm --filter @x/core exec tsx bench/upload.bench.ts
 *   BENCH_UPLOAD_MB=128 pnpm --filter @x/core exec tsx bench/upload.bench.ts
 *
 * Env: BENCH_UPLOAD_MB (default 1024), BENCH_FILE_MB (size of the fileBody temp file, default
 * min(256, BENCH_UPLOAD_MB); 0 skips it), BENCH_ONLY (comma-separated variant keys),
 * BENCH_UPLOAD_TIMEOUT_S (per variant, default 120). MB here are MiB (2^20 bytes).
 *
 * The generator yields a new 64 KiB chunk each time (copied from one template), as a file or socket
 * stream does: a client that keeps the chunks it has sent then shows it in RSS. The two "reused buffer"
 * rows yield the same buffer over and over, which hides such retention; they are for information, as is
 * the `node:http` row (a bare `http.request` with backpressure): the floor for this source, since freed
 * 64 KiB chunks wait for a GC and part of the peak is theirs, not the client's.
 *
 * Goal (issue 6): core's peak RSS growth stays under 64 MB for a 1 GB upload. Prints a table and a
 * verdict; writes bench/results-upload.json (not committed). Never fails the process: a measurement.
 */

import { type ChildProcess, fork } from 'node:child_process';
import { createWriteStream, existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { intEnv, writeResults } from '../../../bench.tools.js';

const _MiB = 2 ** 20;
const CHUNK = 64 * 1024;
const UPLOAD_MB = intEnv('BENCH_UPLOAD_MB', 1024);
const FILE_MB = intEnv('BENCH_FILE_MB', Math.min(256, UPLOAD_MB), { min: 0 });
const TIMEOUT_S = intEnv('BENCH_UPLOAD_TIMEOUT_S', 120);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const WARMUP_BYTES = 8 * MiB;
const SAMPLE_MS = 20;
const GOAL_MB = 64;

import { generate, type Job, MiB, type Outcome, type Variant } from './upload-client.js';

const VARIANTS: Variant[] = [
  { key: 'core-stream', label: '@x/core streamBody(generator)', client: 'core', source: 'generator' },
  { key: 'core-file', label: '@x/core fileBody(temp file)', client: 'core', source: 'file' },
  {
    key: 'node-http',
    label: 'node:http request, no core',
    client: 'node-http',
    source: 'generator',
    info: true,
  },
  {
    key: 'fetch-stream',
    label: 'fetch ReadableStream, duplex',
    client: 'fetch',
    source: 'generator',
    info: true,
  },
  {
    key: 'core-stream-reused',
    label: '@x/core streamBody, reused buffer',
    client: 'core',
    source: 'generator-reused',
    info: true,
  },
  {
    key: 'fetch-stream-reused',
    label: 'fetch ReadableStream, reused buf',
    client: 'fetch',
    source: 'generator-reused',
    info: true,
  },
];

// ---------------------------------------------------------------------------------------------------
// Parent: sink child, temp file, one client child per variant, table.

async function startSink(): Promise<{ child: ChildProcess; baseURL: string }> {
  const child = fork(fileURLToPath(new URL('./upload-sink.ts', import.meta.url)), { stdio: 'inherit' });
  const { port } = await new Promise<{ port: number }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { port: number }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`upload sink exited early (${code})`)));
  });
  return { child, baseURL: `http://127.0.0.1:${port}` };
}

async function writeTempFile(bytes: number): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'x-core-upload-bench-'));
  const file = join(dir, 'upload.bin');
  await pipeline(Readable.from(generate(bytes, true)), createWriteStream(file));
  return { dir, file };
}

function runChild(job: Job): Promise<Outcome> {
  // `fork` reuses this process's execArgv (tsx's loader); --expose-gc lets the child settle its baseline.
  const child = fork(fileURLToPath(new URL('./upload-client.ts', import.meta.url)), [], {
    stdio: 'inherit',
    execArgv: [...process.execArgv, '--expose-gc'],
  });
  return new Promise<Outcome>((resolve) => {
    let outcome: Outcome | undefined;
    const timer = setTimeout(() => {
      outcome ??= { ok: false, error: `timed out after ${TIMEOUT_S} s` };
      child.kill('SIGKILL');
    }, TIMEOUT_S * 1000);
    child.on('message', (message) => {
      outcome ??= message as Outcome;
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(outcome ?? { ok: false, error: `client exited (${signal ?? code}) without a result` });
    });
    child.send(job);
  });
}

const mb = (bytes: number) => bytes / MiB;

/**
 * `#transfer` goes through package.json "imports", i.e. the built dist/ (turbo's bench task builds
 * first). Says so when that file is missing or older than its source, since the bench would then
 * measure something other than src.
 */
function checkTransferBuild(): string | undefined {
  const resolved = fileURLToPath(import.meta.resolve('#transfer'));
  const source = fileURLToPath(new URL('../src/internal/transfer-node.ts', import.meta.url));
  if (!existsSync(resolved))
    throw new Error(`#transfer resolves to ${resolved}, which is missing: run pnpm --filter @x/core build`);
  if (resolved !== source && statSync(resolved).mtimeMs < statSync(source).mtimeMs)
    return `WARNING: ${relative(process.cwd(), resolved)} is older than src/internal/transfer-node.ts; run pnpm --filter @x/core build and bench again.`;
  return undefined;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const loadAtStart = loadavg();
  const staleBuild = checkTransferBuild();
  const bytes = UPLOAD_MB * MiB;
  const selected = VARIANTS.filter(
    (v) => (!ONLY || ONLY.includes(v.key)) && (v.source !== 'file' || FILE_MB > 0),
  );
  if (selected.length === 0) throw new Error(`BENCH_ONLY=${ONLY} matches no variant`);
  const { child: sink, baseURL } = await startSink();
  let temp: { dir: string; file: string } | undefined;
  const results: { variant: Variant; bytes: number; outcome: Outcome }[] = [];
  try {
    if (selected.some((v) => v.source === 'file')) temp = await writeTempFile(FILE_MB * MiB);
    for (const variant of selected) {
      const size = variant.source === 'file' ? FILE_MB * MiB : bytes;
      const outcome = await runChild({ variant, baseURL, bytes: size, file: temp?.file });
      results.push({ variant, bytes: size, outcome });
      process.stderr.write(`${variant.key}: ${outcome.ok ? 'done' : outcome.error}\n`);
    }
  } finally {
    sink.send('close');
    if (temp) await rm(temp.dir, { recursive: true, force: true });
  }

  const rows = results.map(({ variant, bytes: size, outcome }) => {
    if (!outcome.ok)
      return { key: variant.key, label: variant.label, info: Boolean(variant.info), error: outcome.error };
    const m = outcome.measurement;
    return {
      key: variant.key,
      label: variant.label,
      info: Boolean(variant.info),
      client: variant.client,
      source: variant.source,
      sizeMB: mb(size),
      via: m.reply.via,
      framing: m.reply.framing,
      mbPerSecond: mb(size) / (m.wallMs / 1000),
      clientCpuSeconds: m.cpuMs / 1000,
      baselineRssMB: mb(m.baselineRss),
      peakRssGrowthMB: mb(m.peakRss - m.baselineRss),
      maxRssGrowthMB: mb(m.maxRss - m.baselineRss),
      rssSamples: m.samples,
      transferModule: m.transferModule,
    };
  });

  const columns: [string, number][] = [
    ['client', 38],
    ['MB', 6],
    ['sent via', 11],
    ['framing', 16],
    ['MB/s', 7],
    ['CPU s', 7],
    ['base RSS', 10],
    ['peak growth', 13],
    ['maxRSS growth', 15],
  ];
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i === 0 || i === 2 || i === 3 ? ` ${cell}`.padEnd(columns[i]![1]) : cell.padStart(columns[i]![1]),
      )
      .join('')
      .trimStart();
  console.log(
    `\n@x/core upload bench: ${UPLOAD_MB} MB generated per stream upload, fileBody ${FILE_MB || 'skipped'}` +
      `${FILE_MB ? ' MB' : ''}, 64 KiB chunks; each client in a fresh child process, sink in another; ` +
      `RSS sampled every ${SAMPLE_MS} ms (MB = MiB); Node ${process.version}, ${cpus().length} CPUs, ` +
      `load ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start\n`,
  );
  console.log(line(columns.map(([title]) => title)));
  for (const row of rows) {
    if ('error' in row) {
      console.log(`${row.label.padEnd(37)} ERROR: ${row.error}`);
      continue;
    }
    console.log(
      line([
        `${row.label}${row.info ? ' *' : ''}`,
        row.sizeMB.toFixed(0),
        row.via,
        row.framing,
        row.mbPerSecond.toFixed(0),
        row.clientCpuSeconds.toFixed(2),
        row.baselineRssMB.toFixed(1),
        row.peakRssGrowthMB.toFixed(1),
        row.maxRssGrowthMB.toFixed(1),
      ]),
    );
  }
  const modules = [...new Set(rows.flatMap((r) => ('transferModule' in r ? [r.transferModule] : [])))];
  console.log(
    '(* for comparison, outside the goal. "peak growth": highest sampled RSS minus the baseline after warm-up;\n' +
      ' "maxRSS growth": getrusage peak minus the same baseline, which also catches spikes between samples.\n' +
      ` "sent via": what the sink saw; #transfer resolved to ${modules.join(', ') || '?'} in the clients.)`,
  );

  const coreRows = rows.filter((r) => !r.info && r.key.startsWith('core-'));
  const problems: string[] = [];
  for (const row of coreRows) {
    if ('error' in row) problems.push(`${row.key} failed: ${row.error}`);
    else if (row.via !== 'node:http')
      problems.push(`${row.key} was sent via ${row.via}, not the Node streaming path (#transfer)`);
  }
  const measured = coreRows.filter((r) => !('error' in r)) as Extract<
    (typeof rows)[number],
    { via: string }
  >[];
  const worst = measured.length > 0 ? Math.max(...measured.map((r) => r.peakRssGrowthMB)) : Number.NaN;
  const pass = problems.length === 0 && worst < GOAL_MB;
  const verdict = Number.isNaN(worst)
    ? `No verdict: ${problems.join('; ') || 'no core variant ran'}.`
    : `${pass ? 'PASS' : 'FAIL'}: peak RSS growth of @x/core ` +
      measured.map((r) => `${r.peakRssGrowthMB.toFixed(1)} MB (${r.key}, ${r.sizeMB} MB)`).join(', ') +
      `; goal < ${GOAL_MB} MB.${problems.length ? ` ${problems.join('; ')}.` : ''}` +
      (UPLOAD_MB < 1024 ? ' (Uploads under 1024 MB: the goal is stated for 1 GB.)' : '');
  const growthOf = (key: string) => {
    const growth = (rows.find((r) => r.key === key) as { peakRssGrowthMB?: number } | undefined)
      ?.peakRssGrowthMB;
    return growth === undefined ? undefined : `${growth.toFixed(1)} MB`;
  };
  const context = [
    growthOf('node-http') && `bare node:http with the same generator ${growthOf('node-http')}`,
    growthOf('core-stream-reused') && `core with one reused buffer ${growthOf('core-stream-reused')}`,
    growthOf('fetch-stream') && `fetch ${growthOf('fetch-stream')}`,
  ].filter(Boolean);
  const note =
    context.length > 0
      ? `For comparison: ${context.join(', ')}. What core and bare node:http share is freed chunks waiting ` +
        'for a GC, not chunks held by the client.'
      : '';
  console.log(`\n${verdict}${note ? `\n${note}` : ''}${staleBuild ? `\n${staleBuild}` : ''}`);

  const out = writeResults(new URL('./results-upload.json', import.meta.url), loadAtStart, {
    config: {
      uploadMB: UPLOAD_MB,
      fileMB: FILE_MB,
      chunkBytes: CHUNK,
      sampleMs: SAMPLE_MS,
      warmupBytes: WARMUP_BYTES,
    },
    goal: { maxPeakRssGrowthMB: GOAL_MB, pass, worstGrowthMB: Number.isNaN(worst) ? null : worst },
    verdict,
    note,
    warning: staleBuild ?? null,
    rows,
  });
  console.log(`(results written to ${out}; total ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`);
}

await main();
