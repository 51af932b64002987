/**
 * CPU and wall time per `GET /v2/transcript/{id}` of a completed transcript, in ONE run against the sandbox's
 * AssemblyAI emulator in its own process (this file, forked with BENCH_CALLS_ROLE=emulator, so its CPU is
 * not counted): `@x/transcription` `client.transcripts.get(id)` vs the official `assemblyai` SDK
 * `client.transcripts.get(id)` vs `fetch` + `json()`, sequential and at concurrency 16 (bench.shared.ts).
 *
 * Two transcripts, created before anything is measured: a long one (BENCH_WORDS words, default 1,000, about
 * seven minutes of speech: the realistic case, a ~100 KB body whose `words` array dominates) and a short
 * one (12 words). The emulator's speech engine is replaced in the child by one that returns a fixed script
 * of that many words (timed, with confidences), since recognising seven minutes of audio is not what is
 * being measured; everything after the engine (formatting, the stored record, the JSON answer) is the
 * emulator's own. `@x/transcription` runs with its defaults (response validation on) but `rateLimit: false`:
 * its default 60 requests a minute would pace the bench, and the official SDK has no limiter. The goal
 * (issue 21) is x-sdk's CPU per call <= the official SDK's.
 *
 *   pnpm --filter @x/transcription bench          (upload, jobs, streaming, then this file)
 *   pnpm --filter @x/transcription exec tsx bench/calls.bench.ts
 *   BENCH_GET_N=200 BENCH_ROUNDS=1 pnpm --filter @x/transcription exec tsx bench/calls.bench.ts
 *   BENCH_ONLY=x-transcription pnpm --filter @x/transcription exec node --cpu-prof --import tsx bench/calls.bench.ts
 *
 * Env: BENCH_GET_N (calls per measurement of the long transcript, default 500; the short one gets 4x),
 * BENCH_WORDS (1000), BENCH_ROUNDS (3), BENCH_CONCURRENCY (16), BENCH_WARMUP (50), BENCH_ONLY (variant keys:
 * x-transcription, assemblyai, fetch). Prints a table and verdicts; writes bench/results-calls.json (not
 * committed). A measurement: it never fails on a figure.
 */
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type Engine, type EngineWord, startSandbox } from '@x/sandbox';
import { AssemblyAI } from 'assemblyai';
import { callTable, callVerdicts, compareCalls } from '../../../bench.shared.js';
import { intEnv, machineLine, writeResults } from '../../../bench.tools.js';
import { TranscriptionClient } from '../src/index.js';

const GET_N = intEnv('BENCH_GET_N', 500);
const WORDS = intEnv('BENCH_WORDS', 1_000);
const SHORT_WORDS = 12;
const ROUNDS = intEnv('BENCH_ROUNDS', 3);
const CONCURRENCY = intEnv('BENCH_CONCURRENCY', 16);
const WARMUP = intEnv('BENCH_WARMUP', 50);

type Ready = { url: string; apiKey: string };

// ---- the emulator's side (child process) ----------------------------------------------------------------

const SCRIPT =
  'Thanks for calling support, this is Dana. I can see your order from Tuesday, the blue jacket in medium, ' +
  'and the tracking says it left our warehouse yesterday afternoon. It should arrive by Friday. If it does ' +
  'not, reply to the shipping email and we will send a replacement at no cost.';

/** `count` words of the script, back to back at a speaking pace of about 150 words a minute. */
function scriptWords(count: number): EngineWord[] {
  const vocabulary = SCRIPT.split(' ');
  return Array.from({ length: count }, (_, i) => ({
    text: vocabulary[i % vocabulary.length]!,
    start: i * 400,
    end: i * 400 + 340,
    confidence: 0.8 + ((i * 7) % 20) / 100,
  }));
}

/** The engine of the child: the jobs it is given are the short transcript, then the long one. */
function scriptEngine(): Engine {
  const lengths = [SHORT_WORDS, WORDS];
  let job = 0;
  return {
    name: 'bench-script',
    async transcribe() {
      const words = scriptWords(lengths[Math.min(job++, lengths.length - 1)]!);
      return { words, text: words.map((w) => w.text).join(' '), audio_duration: words.at(-1)!.end / 1000 };
    },
  };
}

async function emulator(): Promise<void> {
  const box = await startSandbox({
    store: false,
    transcription: { engine: scriptEngine(), rateLimit: false },
  });
  const transcription = box.transcription!;
  process.on('message', (message) => {
    if (message === 'close') void box.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void box.close().finally(() => process.exit(0)));
  process.send?.({ url: transcription.url, apiKey: transcription.apiKey } satisfies Ready);
}

// ---- the clients' side --------------------------------------------------------------------------------

/** One second of 16 kHz mono silence as WAV: an upload the emulator accepts; the engine ignores it. */
function silentWav(): Uint8Array {
  const samples = 16_000;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(16_000, 24);
  wav.writeUInt32LE(32_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}

async function startEmulator(): Promise<Ready & { close(): Promise<void> }> {
  const child = fork(fileURLToPath(import.meta.url), {
    stdio: 'inherit',
    env: { ...process.env, BENCH_CALLS_ROLE: 'emulator' },
  });
  const ready = await new Promise<Ready>((resolve, reject) => {
    child.once('message', (message) => resolve(message as Ready));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`emulator process exited early (${code})`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    ...ready,
    close: async () => {
      child.send('close');
      await exited;
    },
  };
}

async function main(): Promise<void> {
  const loadAtStart = loadavg();
  const box = await startEmulator();
  try {
    const baseUrl = box.url;
    const ours = new TranscriptionClient({ apiKey: box.apiKey, baseUrl, rateLimit: false });
    const official = new AssemblyAI({ apiKey: box.apiKey, baseUrl });
    // Outside the measurement, one after the other: the child's engine answers the short job first.
    const { upload_url } = await ours.files.upload(silentWav());
    const ids: Record<'short' | 'long', string> = { short: '', long: '' };
    for (const which of ['short', 'long'] as const) {
      const transcript = await ours.transcripts.transcribe({
        audio_url: upload_url,
        speech_models: ['universal-2'],
      });
      if (transcript.status !== 'completed') throw new Error(`${which} transcript: ${transcript.error}`);
      ids[which] = transcript.id;
    }
    const fingerprint = (t: { id: string; words?: unknown[] | null }) => `${t.id}:${t.words?.length}`;
    const headers = { authorization: box.apiKey };
    const bytes: Record<string, number> = {};
    const groups = [];
    for (const which of ['long', 'short'] as const) {
      const id = ids[which];
      const body = await (await fetch(`${baseUrl}/v2/transcript/${id}`, { headers })).text();
      bytes[which] = Buffer.byteLength(body);
      const expect = fingerprint(JSON.parse(body) as { id: string; words: unknown[] });
      groups.push({
        name: `transcripts.get, ${which === 'long' ? WORDS : SHORT_WORDS} words`,
        n: which === 'long' ? GET_N : GET_N * 4,
        expect,
        variants: [
          {
            key: 'x-transcription',
            label: '@x/transcription',
            role: 'x-sdk' as const,
            call: () => ours.transcripts.get(id).then(fingerprint),
          },
          {
            key: 'assemblyai',
            label: 'assemblyai 4.41.5',
            role: 'official' as const,
            call: () => official.transcripts.get(id).then(fingerprint),
          },
          {
            key: 'fetch',
            label: 'fetch + json()',
            role: 'floor' as const,
            call: async () => {
              const response = await fetch(`${baseUrl}/v2/transcript/${id}`, { headers });
              if (!response.ok) throw new Error(`HTTP ${response.status}`);
              return fingerprint((await response.json()) as { id: string; words: unknown[] });
            },
          },
        ],
      });
    }
    const rows = await compareCalls(groups, { rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP });
    console.log(
      `\n@x/transcription calls bench — ${machineLine(loadAtStart)}\n` +
        `GET /v2/transcript/{id}: ${WORDS} words (${bytes.long} B) ${GET_N} calls, ${SHORT_WORDS} words ` +
        `(${bytes.short} B) ${GET_N * 4} calls; ${ROUNDS} rounds (medians); CPU of this process only\n`,
    );
    console.log(callTable(rows));
    const verdicts = callVerdicts(rows);
    console.log(`\n${verdicts.join('\n')}`);
    const out = writeResults(new URL('./results-calls.json', import.meta.url), loadAtStart, {
      settings: { getN: GET_N, words: WORDS, rounds: ROUNDS, concurrency: CONCURRENCY, warmup: WARMUP },
      bodyBytes: bytes,
      verdicts,
      rows,
    });
    console.log(`(results written to ${out}; load ${loadavg()[0]!.toFixed(2)} at end)`);
  } finally {
    await box.close();
  }
}

if (process.env.BENCH_CALLS_ROLE === 'emulator') await emulator();
else await main();
