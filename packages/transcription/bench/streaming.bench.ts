/**
 * Streaming v3 against the sandbox's `/v3/ws` emulator (PocketSphinx behind it), ours vs the official
 * `assemblyai` 4.41.5 SDK in the same run. The SDK takes only `wss://`, so the sandbox serves HTTPS and each
 * client runs in a child Node (streaming-client.ts) trusting its certificate through NODE_EXTRA_CA_CERTS;
 * ours runs the same way over the same wss. Audio: ten flite sentences (streaming-audio.ts), each followed by
 * 2 s of quiet noise (longer than `max_turn_silence`, so every sentence is its own turn), sent at real-time
 * pace in 100 ms chunks; params `speech_model: universal-streaming-english`, `sample_rate: 16000`, API key.
 *
 *   latency   both clients at once, one session each, the ten sentences. End of speech: the moment the
 *             100 ms chunk holding a sentence's last speech sample (the last 10 ms at or above -48 dBFS,
 *             the emulator's default VAD level) is handed to `sendAudio`; latency: from then to the arrival
 *             of the first final `Turn` (`end_of_turn`) after it, taken first thing in the client's listener.
 *   drop      both clients at once: sentences 1–3, the session dropped by the sandbox's fault
 *             (`streaming.dropSessions(id)`: socket destroyed, the client sees 1006) half-way through the
 *             speech of sentence 2. Ours reconnects and replays the audio since the last final turn. The SDK
 *             loses its session: the row shows it with the reconnect an application must write (a new
 *             transcriber on close, live audio from then on; what it sent meanwhile is lost). Times from the
 *             client seeing the close; "later lag": sentence 3's final against its latency-run latency. Words
 *             are aligned with what was said (right, misheard, missing); missing beside the same client's
 *             for the same sentences in the latency run (the recogniser's own misses), lost = the difference.
 *             A third child, the control, runs ours without a drop fed from where our replay starts (after
 *             sentence 1's speech): what a fresh session of the emulator makes of that audio.
 *   capacity  ours only, N sessions in one child (N from BENCH_STREAMING_SESSIONS), each four sentences
 *             (rotated, starts staggered by 300 ms), up the list until the emulator falls behind: a final
 *             missing, a session error, or the lag of finals (latency minus the same sentence's latency in
 *             the latency run) over 500 ms at p95, the first sentence of each session apart (it competes
 *             with every recogniser starting; shown as "start lag"). CPU of the emulator: this process (the sandbox) and its
 *             recogniser processes, from /proc, connect to close, per session per second of audio.
 *   bundle    streaming-bundle.ts: each client's streaming entry for the browser, minified, gzip.
 *
 *   pnpm --filter @x/transcription bench                  (upload, jobs, then this file)
 *   pnpm --filter @x/transcription exec tsx bench/streaming.bench.ts
 *   BENCH_STREAMING_SESSIONS=4,6 BENCH_ONLY=capacity pnpm --filter @x/transcription exec tsx bench/streaming.bench.ts
 *
 * Env: BENCH_STREAMING_SESSIONS (default 4,6,7,8,10), BENCH_ONLY (latency, drop, capacity, bundle; capacity
 * and drop need latency's baseline and run it too). Needs flite and python3-pocketsphinx, and the built
 * dist (bundle). About 2 min (3 when every step keeps up). Prints tables; writes
 * bench/results-streaming.json (not committed). A measurement: never fails the process.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@x/sandbox';
import { machineLine, tableLine, writeResults } from '../../../bench.tools.js';
import { buildScript, CHUNK_BYTES, CHUNK_MS } from './streaming-audio.js';
import { type BundleSize, bundleSizes } from './streaming-bundle.js';
import type { ClientKind, SessionPlan } from './streaming-client.js';
import { fmt } from './streaming-measure.js';
import { capacityRow, dropRow, LABEL, type LatencyRow, latencyRow } from './streaming-rows.js';
import { type Box, runClients, runMeasured } from './streaming-run.js';

const PAUSE_MS = 2000;
const STEPS = (process.env.BENCH_STREAMING_SESSIONS ?? '4,6,7,8,10')
  .split(',')
  .map(Number)
  .filter((n) => n > 0);
const ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
const CAPACITY_BLOCKS = 4;
const LAG_BOUND_MS = 500;
const DROP_BLOCKS = [0, 1, 2];
const run = (phase: string) => !ONLY || ONLY.includes(phase);

async function main(): Promise<void> {
  const startedAt = performance.now();
  const loadAtStart = loadavg();
  const dir = await mkdtemp(join(tmpdir(), 'x-transcription-streaming-bench-'));
  const box = (await startSandbox({
    store: false,
    https: true,
    transcription: { rateLimit: false, streaming: { newSessionsPerMinute: false } },
  })) as Box;
  const figures: Record<string, unknown> = {};
  try {
    const caPath = join(dir, 'sandbox.pem');
    await writeFile(caPath, box.certificate!);
    const script = await buildScript(dir, PAUSE_MS);
    const { blocks } = script;
    const job = {
      httpsUrl: box.url,
      wssUrl: box.transcription.streaming.url,
      apiKey: box.transcription.apiKey,
      pcmPath: script.pcmPath,
      blocks,
      closeTimeoutMs: 30_000,
    };
    console.log(
      `\n@x/transcription streaming bench: sandbox /v3/ws over wss (PocketSphinx); ${machineLine(loadAtStart)}; ` +
        `${blocks.length} flite sentences, ${PAUSE_MS} ms pauses, 100 ms chunks at real time`,
    );

    let base: LatencyRow | undefined;
    if (run('latency') || run('drop') || run('capacity')) {
      const plan: SessionPlan = { blocks: blocks.map((_, i) => i), leadMs: 0 };
      const kinds: ClientKind[] = ['x', 'sdk'];
      const results = await runClients(
        kinds.map((kind) => ({ ...job, kind, sessions: [plan] })),
        caPath,
        box,
      );
      const rows = kinds.map((kind, i) => latencyRow(kind, results[i]!, plan, blocks));
      figures.latency = rows;
      base = rows[0];
      const ours = rows[0]?.ok ? rows[0] : undefined;
      const w = [24, 9, 9, 9, 9, 10];
      console.log('\nEnd of speech → final Turn (ms): both clients at once, one session each');
      console.log(tableLine(w, ['client', 'finals', 'p50', 'p95', 'max', 'p50 vs @x']));
      for (const r of rows) {
        if (!r.ok) {
          console.log(`${r.label.padEnd(w[0]!)}ERROR: ${r.error}`);
          continue;
        }
        const ratio = ours ? `${(r.p50 / ours.p50).toFixed(2)}x` : '-';
        console.log(
          tableLine(w, [r.label, `${r.finals}/${r.expected}`, fmt(r.p50), fmt(r.p95), fmt(r.max), ratio]),
        );
      }
    }

    if (run('drop')) {
      const plan: SessionPlan = { blocks: DROP_BLOCKS, leadMs: 0, dropAt: { position: 1, fraction: 0.5 } };
      // The control: ours without a drop, fed from the chunk after sentence 1's speech, about where our replay
      // starts (its last final turn ends there), so what a fresh session makes of that audio shows apart.
      const skipMs = Math.ceil(blocks[0]!.speechEnd / CHUNK_BYTES) * CHUNK_MS;
      const control: SessionPlan = { blocks: DROP_BLOCKS, leadMs: 0, skipMs };
      const results = await runClients(
        [
          { ...job, kind: 'x', sessions: [plan] },
          { ...job, kind: 'sdk', sessions: [plan] },
          { ...job, kind: 'x', sessions: [control] },
        ],
        caPath,
        box,
      );
      const latency = (figures.latency ?? []) as LatencyRow[];
      const rows = [
        dropRow('x', LABEL.x, results[0]!, plan, blocks, latency[0]),
        dropRow('sdk', LABEL.sdk, results[1]!, plan, blocks, latency[1]),
        dropRow('x', 'control: ours, no drop (1)', results[2]!, control, blocks, latency[0], 1),
      ];
      figures.drop = rows;
      const w = [28, 10, 11, 6, 9, 11, 10, 15, 8, 5, 6];
      console.log(
        '\nA drop half-way through sentence 2 of 3 (ms from the client seeing the close; words against what was said)',
      );
      console.log(
        tableLine(w, [
          'client',
          'next turn',
          'next final',
          'gap',
          'replayed',
          'audio lost',
          'later lag',
          'right/misheard',
          'missing',
          'lost',
          'extra',
        ]),
      );
      for (const r of rows) {
        if (!r.ok) {
          console.log(`${r.label.padEnd(w[0]!)}ERROR: ${r.error}`);
          continue;
        }
        console.log(
          tableLine(w, [
            r.label,
            fmt(r.nextTurnMs),
            fmt(r.nextFinalMs),
            fmt(r.gapMs),
            fmt(r.replayedMs),
            fmt(r.audioLostMs),
            fmt(r.laterLagMs),
            `${r.right}/${r.misheard} of ${r.said}`,
            `${r.missing} (${r.baselineMissing ?? '?'})`,
            String(r.lost ?? '?'),
            String(r.extra),
          ]),
        );
        if (r.kind === 'x') console.log(`  heard: ${r.heard}`);
        if (r.errors.length) console.log(`  ${r.label} errors: ${r.errors.join('; ')}`);
      }
      console.log(
        "  missing (base): words absent (the same client's for these sentences in the latency run); lost = missing − base;\n" +
          "  later lag: sentence 3's final vs its latency run. The SDK row includes the reconnect an app must\n" +
          '  write (a new transcriber on close, live audio from then on, nothing replayed). (1): sentences 2–3\n' +
          '  fed from where ours replays from, in a fresh session: what the recogniser makes of that audio.',
      );
    }

    if (run('capacity') && base?.ok) {
      const rows = [];
      const w = [10, 8, 7, 7, 7, 11, 9, 10, 14, 12, 10];
      console.log(
        `\nConcurrent real-time sessions (ours), ${CAPACITY_BLOCKS} sentences each; latency ms; lag = latency − the same sentence's in the latency run`,
      );
      console.log(
        tableLine(w, [
          'sessions',
          'finals',
          'p50',
          'p95',
          'max',
          'start lag',
          'lag p95',
          'last lag',
          'emulator CPU',
          'client CPU',
          'real time',
        ]),
      );
      for (const n of STEPS) {
        const sessions: SessionPlan[] = Array.from({ length: n }, (_, k) => ({
          blocks: Array.from({ length: CAPACITY_BLOCKS }, (_, j) => (k + j) % blocks.length),
          leadMs: (k * 300) % PAUSE_MS,
        }));
        const measured = await runMeasured({ ...job, kind: 'x', sessions }, caPath, box);
        const row = capacityRow(n, sessions, blocks, measured, base, LAG_BOUND_MS);
        rows.push(row);
        if (!row.ok) {
          console.log(`${String(n).padEnd(w[0]!)}ERROR: ${row.error}`);
          break;
        }
        console.log(
          tableLine(w, [
            String(n),
            `${row.finals}/${row.expected}`,
            fmt(row.p50),
            fmt(row.p95),
            fmt(row.max),
            fmt(row.startLagMax),
            fmt(row.lagP95),
            fmt(row.lastLagP50),
            `${(row.emulatorCpuPerSession * 100).toFixed(1)} %`,
            `${(row.clientCpuPerSession * 100).toFixed(1)} %`,
            row.keepsUp ? 'keeps up' : 'BEHIND',
          ]),
        );
        if (row.errors.length) console.log(`  errors: ${[...new Set(row.errors)].join('; ')}`);
        if (!row.keepsUp) break;
      }
      figures.capacity = rows;
      console.log(
        "  start lag: the first sentence's, worst session (every recogniser is starting then); lag p95: the later\n" +
          `  sentences'; last lag: the last sentence's, median. "keeps up": every final came, no error, lag p95 ≤ ${LAG_BOUND_MS} ms.\n` +
          '  CPU: % of one core per session while streaming: emulator = the sandbox process and its recogniser\n' +
          '  processes, connect to close; client = the child running every session.',
      );
    }

    if (run('bundle')) {
      const sizes: BundleSize[] = await bundleSizes();
      figures.bundle = sizes;
      const ours = sizes[0]!;
      const w = [30, 12, 14, 10];
      console.log(
        '\nBrowser bundle of the streaming entry (esbuild, platform browser, minified, ESM; gzip -9)',
      );
      console.log(tableLine(w, ['entry', 'min kB', 'min+gzip kB', 'vs @x']));
      for (const s of sizes) {
        console.log(
          tableLine(w, [
            s.label,
            (s.minBytes / 1000).toFixed(2),
            (s.gzipBytes / 1000).toFixed(2),
            `${(s.gzipBytes / ours.gzipBytes).toFixed(2)}x`,
          ]),
        );
        console.log(
          `  ${s.packages.map(([name, bytes]) => `${name} ${(bytes / 1000).toFixed(1)}`).join(', ')} (kB min)`,
        );
      }
    }
  } finally {
    await box.close();
    await rm(dir, { recursive: true, force: true });
  }
  const out = writeResults(new URL('./results-streaming.json', import.meta.url), loadAtStart, {
    config: { pauseMs: PAUSE_MS, steps: STEPS, capacityBlocks: CAPACITY_BLOCKS, lagBoundMs: LAG_BOUND_MS },
    ...figures,
  });
  console.log(
    `\n(results written to ${out}; total ${((performance.now() - startedAt) / 1000).toFixed(1)} s)`,
  );
}

main().catch((error: unknown) => {
  console.error('streaming bench did not complete:', error);
});
