/**
 * The client side of streaming.bench.ts, in a child Node process started with NODE_EXTRA_CA_CERTS naming
 * the sandbox's certificate: the official SDK accepts only `wss://` and has no CA option, and Node reads that
 * variable only at start, so both clients run this way, over the same wss. It runs one or more sessions of
 * one client (ours, `client.streaming.transcriber()`, or the SDK's `client.streaming.transcriber()`), all
 * fed by one clock at real-time pace in 100 ms chunks, and logs on this process's clock when each block's
 * last speech chunk was handed to `sendAudio` and when each turn arrived. Started by the bench only.
 *
 * Parent → child: the job, then `exit` once the parent has read its CPU figures (so this process is not
 * reaped, and counted as the emulator's, before that). Child → parent: `drop` (drop my session now),
 * then the result.
 */
import { readFile } from 'node:fs/promises';
import { AssemblyAI } from 'assemblyai';
import { TranscriptionClient } from '../src/index.js';
import { type Block, CHUNK_BYTES, CHUNK_MS } from './streaming-audio.js';

export type ClientKind = 'x' | 'sdk';

export interface SessionPlan {
  /** Indices into the script's blocks, spoken in this order. */
  blocks: number[];
  /** Quiet before the first block, a whole number of chunks (staggers concurrent sessions). */
  leadMs: number;
  /** Ask the parent to drop the session once this share of that block's speech has been sent. */
  dropAt?: { position: number; fraction: number };
  /** Start this far into that audio (whole chunks), as a new session does that a replay begins there. */
  skipMs?: number;
}

export interface ClientJob {
  kind: ClientKind;
  httpsUrl: string;
  wssUrl: string;
  apiKey: string;
  pcmPath: string;
  blocks: Block[];
  sessions: SessionPlan[];
  closeTimeoutMs: number;
}

export interface TurnLog {
  /** Arrival, ms on this process's clock. */
  t: number;
  final: boolean;
  /** The words of a final turn (partials carry none here). */
  words?: string[];
  /** A final's last word's end, ms into the session plan's audio (lead and skipped audio included). */
  endMs?: number;
}

export interface SessionLog {
  /** Per block position: when the chunk holding its first / last speech sample was handed to sendAudio. */
  speechStarts: number[];
  speechEnds: number[];
  turns: TurnLog[];
  /** When the drop was asked for, seen by the client (`reconnecting` / `close`), and a session ran again. */
  dropAskedAt?: number;
  droppedAt?: number;
  resumedAt?: number;
  /** Ours: audio sent again to the new session. */
  replayedMs?: number;
  /** Audio `sendAudio` could not take (the SDK without a session), ms. */
  lostAudioMs: number;
  begins: number;
  errors: string[];
}

/** `cpuMs`: this process while streaming; `audioMs`: the audio of all its sessions together. */
export type ClientResult =
  | { ok: true; sessions: SessionLog[]; cpuMs: number; audioMs: number }
  | { ok: false; error: string };

/** What the pacing loop needs of a session, whichever client runs it. */
interface Session {
  id(): string | undefined;
  /** `atMs`: where the chunk starts in the plan's audio. */
  send(chunk: Uint8Array, atMs: number): void;
  close(): Promise<void>;
}

const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16_000 } as const;
const now = () => performance.now();
const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Logs a turn on arrival. Word times count from the session's first audio, so `offsetMs` (where the
 * audio of the session that sent it began) places a final in the plan's audio.
 */
function logTurn(
  log: SessionLog,
  turn: { end_of_turn: boolean; turn_is_formatted: boolean; words: { text: string; end: number }[] },
  offsetMs: number,
): void {
  const t = now();
  if (!turn.end_of_turn || turn.turn_is_formatted) {
    log.turns.push({ t, final: false });
    return;
  }
  const last = turn.words.at(-1);
  log.turns.push({
    t,
    final: true,
    words: turn.words.map((w) => w.text),
    ...(last ? { endMs: offsetMs + last.end } : {}),
  });
}

function newLog(): SessionLog {
  return { speechStarts: [], speechEnds: [], turns: [], lostAudioMs: 0, begins: 0, errors: [] };
}

/** Ours: the Node transcriber with the API key; it reconnects and replays by itself. */
async function ourSession(job: ClientJob, client: TranscriptionClient, log: SessionLog): Promise<Session> {
  const transcriber = client.streaming.transcriber(PARAMS);
  // Ours continues word times across reconnects: they count from the first chunk it was given.
  let offsetMs: number | undefined;
  transcriber.on('turn', (turn) => logTurn(log, turn, offsetMs ?? 0));
  transcriber.on('begin', () => void log.begins++);
  transcriber.on('reconnecting', () => {
    log.droppedAt ??= now();
  });
  transcriber.on('reconnected', ({ replayedMs }) => {
    log.resumedAt ??= now();
    log.replayedMs = replayedMs;
  });
  transcriber.on('error', (error) => void log.errors.push(message(error)));
  await transcriber.connect();
  return {
    id: () => transcriber.sessionId,
    send: (chunk, atMs) => {
      offsetMs ??= atMs;
      if (!transcriber.sendAudio(chunk)) log.lostAudioMs += CHUNK_MS;
    },
    close: async () => {
      await transcriber.close({ timeoutMs: job.closeTimeoutMs });
    },
  };
}

/**
 * The SDK's transcriber, with the reconnect an application has to write itself: on an unexpected close, a
 * new transcriber (a dropped one cannot connect again) and live audio from then on. Audio while no session
 * is open is lost, as `sendAudio` throws then; nothing is replayed.
 */
async function sdkSession(job: ClientJob, log: SessionLog): Promise<Session> {
  const client = new AssemblyAI({ apiKey: job.apiKey, streamingBaseUrl: job.httpsUrl });
  type Transcriber = ReturnType<typeof client.streaming.transcriber>;
  let current: Transcriber | undefined;
  let sessionId: string | undefined;
  let closing = false;
  /** Where the current transcriber's audio began: each new SDK session counts word times from 0 again. */
  let offsetMs: number | undefined;

  const open = async (): Promise<void> => {
    const transcriber = client.streaming.transcriber({
      websocketBaseUrl: job.wssUrl,
      speechModel: PARAMS.speech_model,
      sampleRate: PARAMS.sample_rate,
    });
    transcriber.on('turn', (turn) => logTurn(log, turn, offsetMs ?? 0));
    transcriber.on('error', (error) => void log.errors.push(error.message));
    transcriber.on('close', (code) => {
      if (closing || current !== transcriber || code === 1000) return;
      current = undefined;
      sessionId = undefined;
      log.droppedAt ??= now();
      reopen().catch((error: unknown) => log.errors.push(`reconnect failed: ${message(error)}`));
    });
    const begin = await transcriber.connect();
    offsetMs = undefined;
    current = transcriber;
    sessionId = begin.id;
    log.begins++;
  };
  const reopen = async () => {
    for (let attempt = 1; !closing; attempt++) {
      try {
        await open();
        log.resumedAt ??= now();
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    }
  };

  await open();
  return {
    id: () => sessionId,
    send: (chunk, atMs) => {
      try {
        if (!current) throw new Error('no session');
        offsetMs ??= atMs;
        current.sendAudio(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength));
      } catch {
        log.lostAudioMs += CHUNK_MS;
      }
    },
    close: async () => {
      closing = true;
      await current?.close(true, job.closeTimeoutMs);
    },
  };
}

/** A session's audio: lead quiet, then its blocks; and the chunk indices where each block's speech starts and ends. */
function sessionAudio(job: ClientJob, pcm: Buffer, plan: SessionPlan) {
  const lead = (plan.leadMs / CHUNK_MS) * CHUNK_BYTES;
  const parts: Uint8Array[] = [Buffer.alloc(lead)];
  const starts: number[] = [];
  const ends: number[] = [];
  let at = lead;
  let drop: number | undefined;
  for (const [position, index] of plan.blocks.entries()) {
    const block = job.blocks[index]!;
    parts.push(pcm.subarray(block.offset, block.offset + block.bytes));
    starts.push(Math.floor((at + block.speechStart) / CHUNK_BYTES));
    ends.push(Math.floor((at + block.speechEnd - 1) / CHUNK_BYTES));
    if (plan.dropAt?.position === position) {
      const speech = block.speechEnd - block.speechStart;
      drop = Math.floor((at + block.speechStart + speech * plan.dropAt.fraction) / CHUNK_BYTES);
    }
    at += block.bytes;
  }
  // Skipped chunks get negative indices, which the pacing loop never reaches.
  const skip = (plan.skipMs ?? 0) / CHUNK_MS;
  return {
    audio: Buffer.concat(parts).subarray(skip * CHUNK_BYTES),
    starts: starts.map((i) => i - skip),
    ends: ends.map((i) => i - skip),
    drop: drop === undefined ? undefined : drop - skip,
  };
}

async function run(job: ClientJob): Promise<ClientResult> {
  const pcm = await readFile(job.pcmPath);
  const ours =
    job.kind === 'x'
      ? new TranscriptionClient({
          apiKey: job.apiKey,
          baseUrl: job.httpsUrl,
          streamingBaseUrl: job.httpsUrl,
          rateLimit: false,
          logLevel: 'off',
        })
      : undefined;
  const logs = job.sessions.map(newLog);
  const sessions = await Promise.all(
    logs.map((log) => (ours ? ourSession(job, ours, log) : sdkSession(job, log))),
  );
  const audio = job.sessions.map((plan) => sessionAudio(job, pcm, plan));
  const chunks = Math.max(...audio.map((a) => a.audio.length / CHUNK_BYTES));

  const cpuBefore = process.cpuUsage();
  const started = now();
  // One clock for every session: chunk i of each goes out at start + i × 100 ms, as a microphone delivers.
  for (let i = 0; i < chunks; i++) {
    const wait = started + i * CHUNK_MS - now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    for (const [s, a] of audio.entries()) {
      if ((i + 1) * CHUNK_BYTES > a.audio.length) continue;
      const log = logs[s]!;
      const chunk = new Uint8Array(a.audio.subarray(i * CHUNK_BYTES, (i + 1) * CHUNK_BYTES));
      const t = now();
      for (const [position, chunkIndex] of a.starts.entries())
        if (chunkIndex === i) log.speechStarts[position] = t;
      for (const [position, chunkIndex] of a.ends.entries())
        if (chunkIndex === i) log.speechEnds[position] = t;
      sessions[s]!.send(chunk, (job.sessions[s]!.skipMs ?? 0) + i * CHUNK_MS);
      if (a.drop === i) {
        log.dropAskedAt = now();
        process.send!({ type: 'drop', id: sessions[s]!.id() });
      }
    }
  }
  await Promise.all(sessions.map((s) => s.close()));
  const cpu = process.cpuUsage(cpuBefore);
  return {
    ok: true,
    sessions: logs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    audioMs: audio.reduce((ms, a) => ms + (a.audio.length / CHUNK_BYTES) * CHUNK_MS, 0),
  };
}

process.on('message', (incoming: ClientJob | { type: 'exit' }) => {
  if ('type' in incoming) process.exit(0);
  run(incoming).then(
    (result) => process.send!(result),
    (error: unknown) => process.send!({ ok: false, error: message(error) } satisfies ClientResult),
  );
});
