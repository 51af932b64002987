/**
 * How many streaming recognisers keep up with real time: N sessions, each fed flite speech (sentences with
 * 700 ms of quiet noise between them, an utterance ended after each) in 100 ms writes at real-time pace, for
 * SECONDS. Per N: the recogniser lag (audio written minus audio the recogniser reports consumed; one report
 * every 500 ms of audio, so 500 ms is the floor), its growth from the first to the last third of the run,
 * how long a final takes after its endUtterance, and CPU seconds per second of audio per session (from
 * /proc). Real time holds while the lag stays bounded instead of growing with the run.
 *
 *   cd packages/sandbox && pnpm exec tsx bench/streaming.bench.ts   (BENCH_SESSIONS=1,2,4,6 BENCH_SECONDS=30)
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type StreamingRecognizer, startStreamingRecognizer } from '../src/transcription/engine/streaming.js';
import { synthesizeSpeech } from '../src/transcription/speech.js';

const run = promisify(execFile);
const SESSIONS = (process.env.BENCH_SESSIONS ?? '1,2,4,6').split(',').map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const CHUNK_MS = 100;
const BYTES_PER_MS = 32;
const TICKS_PER_SECOND = 100; // /proc/<pid>/stat clock ticks (USER_HZ)
const SENTENCES = [
  'i would like a refund please because the package arrived broken',
  'my order number is four five six',
  'can you send a replacement today',
  'i have been waiting for two weeks',
];

/** The sentences, each followed by 700 ms of low noise (a room, not digital silence), and where each ends. */
async function speechLoop(dir: string): Promise<{ audio: Buffer; turnEnds: number[] }> {
  const parts: Buffer[] = [];
  const turnEnds: number[] = [];
  let length = 0;
  for (const [i, sentence] of SENTENCES.entries()) {
    const wav = await synthesizeSpeech(sentence, { voice: 'slt', path: join(dir, `${i}.wav`) });
    const raw = join(dir, `${i}.raw`);
    await run('sox', [wav, '-t', 'raw', '-r', '16000', '-c', '1', '-b', '16', '-e', 'signed-integer', raw]);
    const quiet = Buffer.alloc(700 * BYTES_PER_MS);
    for (let j = 0; j < quiet.length; j += 2) quiet.writeInt16LE(Math.round((Math.random() - 0.5) * 60), j);
    for (const part of [await readFile(raw), quiet]) {
      parts.push(part);
      length += part.length;
    }
    turnEnds.push(length);
  }
  return { audio: Buffer.concat(parts), turnEnds };
}

async function cpuTicks(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]); // utime + stime
}

async function childPids(): Promise<number[]> {
  const { stdout } = await run('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)]);
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter(([pid, comm]) => pid && comm !== 'ps')
    .map(([pid]) => Number(pid));
}

interface Session {
  recognizer: StreamingRecognizer;
  written: number;
  /** [wall ms since start, lag ms] at each update. */
  lags: [number, number][];
  finalLatencies: number[];
  falseWrites: number;
}

async function measure(n: number, loop: { audio: Buffer; turnEnds: number[] }) {
  const before = new Set(await childPids());
  const sessions: Session[] = [];
  for (let i = 0; i < n; i++) {
    const recognizer = await startStreamingRecognizer({ maxQueuedMs: 2000 });
    sessions.push({ recognizer, written: 0, lags: [], finalLatencies: [], falseWrites: 0 });
  }
  const pids = (await childPids()).filter((pid) => !before.has(pid));
  const ticksBefore = await Promise.all(pids.map(cpuTicks));
  const started = performance.now();
  for (const s of sessions) {
    s.recognizer.onUpdate((u) =>
      s.lags.push([performance.now() - started, s.written / BYTES_PER_MS - u.audioMs]),
    );
    s.recognizer.onError((error) => console.error(`session failed: ${error.message}`));
  }
  const finals: Promise<void>[] = [];
  const totalBytes = SECONDS * 1000 * BYTES_PER_MS;
  // Each session starts at a different point of the loop, so they do not all speak at once.
  const offsets = sessions.map((_, i) => Math.floor((i * loop.audio.length) / n / 2) * 2);
  while (true) {
    const due = Math.min(totalBytes, Math.floor(((performance.now() - started) * BYTES_PER_MS) / 2) * 2);
    for (const [i, s] of sessions.entries()) {
      while (s.written < due) {
        const at = (offsets[i]! + s.written) % loop.audio.length;
        const nextTurnEnd = loop.turnEnds.find((end) => end > at) ?? loop.audio.length;
        const bytes = Math.min(due - s.written, CHUNK_MS * BYTES_PER_MS, nextTurnEnd - at);
        if (!s.recognizer.write(loop.audio.subarray(at, at + bytes))) s.falseWrites++;
        s.written += bytes;
        if (at + bytes === nextTurnEnd) {
          const asked = performance.now();
          finals.push(
            s.recognizer.endUtterance().then(() => void s.finalLatencies.push(performance.now() - asked)),
          );
        }
      }
    }
    if (due >= totalBytes) break;
    await new Promise((resolve) => setTimeout(resolve, CHUNK_MS));
  }
  const drainStarted = performance.now();
  for (const s of sessions) finals.push(s.recognizer.endUtterance().then(() => undefined));
  await Promise.all(finals);
  const drainMs = performance.now() - drainStarted;
  const ticksAfter = await Promise.all(pids.map(cpuTicks));
  for (const s of sessions) s.recognizer.close();

  const third = (SECONDS * 1000) / 3;
  const allLags = sessions.flatMap((s) => s.lags);
  const maxLag = (from: number, to: number) =>
    Math.max(0, ...allLags.filter(([t]) => t >= from && t < to).map(([, lag]) => lag));
  const latencies = sessions.flatMap((s) => s.finalLatencies).sort((a, b) => a - b);
  const cpuPerSession =
    ticksAfter.reduce((sum, t, i) => sum + t - ticksBefore[i]!, 0) / TICKS_PER_SECOND / n / SECONDS;
  return {
    sessions: n,
    maxLagMs: Math.round(maxLag(0, Infinity)),
    maxLagFirstThirdMs: Math.round(maxLag(0, third)),
    maxLagLastThirdMs: Math.round(maxLag(2 * third, Infinity)),
    finalP50Ms: Math.round(latencies[Math.floor(latencies.length / 2)] ?? 0),
    finalMaxMs: Math.round(latencies.at(-1) ?? 0),
    drainMs: Math.round(drainMs),
    falseWrites: sessions.reduce((sum, s) => sum + s.falseWrites, 0),
    cpuPerAudioSecond: Number(cpuPerSession.toFixed(3)),
  };
}

const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-streaming-bench-'));
try {
  const loop = await speechLoop(dir);
  console.log(
    `${cpus().length} cores, load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(
        ' ',
      )}; ${SECONDS} s per run, speech loop ${(loop.audio.length / BYTES_PER_MS / 1000).toFixed(1)} s`,
  );
  for (const n of SESSIONS) console.log(JSON.stringify(await measure(n, loop)));
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
