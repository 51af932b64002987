/**
 * What crosses the pipes between a streaming session and its recogniser process: the frames Node writes and
 * the JSON lines it reads back, checked here so that a process writing anything else is a failure, never a
 * crash. The program's side is `streaming-program.ts`.
 */
import { FRAME_AUDIO, FRAME_END, FRAME_HEADER_BYTES, MAX_AUDIO_FRAME_BYTES } from './streaming-program.js';

/** One recognised word. Times are integer ms from the start of the session's audio. */
export interface StreamWord {
  text: string;
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
}

/** A word as the program reports it: the decoder's token, its times in ms, its posterior (see `toStreamWords`). */
export type RawWord = [token: string, startMs: number, endMs: number, posterior: number];

export type ProgramMessage =
  | { type: 'ready' }
  | { type: 'update'; words: RawWord[]; audioMs: number; inSpeech: boolean }
  | { type: 'final'; words: RawWord[]; audioMs: number }
  | { type: 'error'; kind: 'unavailable' | 'failed'; message: string };

/** The end-utterance command. */
export const END_FRAME: Buffer = frameHeader(FRAME_END, 0);

function frameHeader(type: number, length: number): Buffer {
  const header = Buffer.allocUnsafe(FRAME_HEADER_BYTES);
  header.writeUInt8(type, 0);
  header.writeUInt32BE(length, 1);
  return header;
}

/**
 * Audio frames for `pcm` (whole samples only, each frame at most `MAX_AUDIO_FRAME_BYTES`), in one new buffer:
 * the caller may reuse its own buffer as soon as `write` returns, while the pipe still holds ours.
 */
export function audioFrames(pcm: Uint8Array): Buffer {
  const frames: Uint8Array[] = [];
  for (let offset = 0; offset < pcm.length; offset += MAX_AUDIO_FRAME_BYTES) {
    const payload = pcm.subarray(offset, Math.min(pcm.length, offset + MAX_AUDIO_FRAME_BYTES));
    frames.push(frameHeader(FRAME_AUDIO, payload.length), payload);
  }
  return Buffer.concat(frames);
}

/**
 * Splits a byte stream into lines without holding more than `maxLineBytes` of any line, so a process that
 * writes without newlines costs bounded memory and is reported instead of growing a string without end.
 */
export class LineReader {
  readonly #maxLineBytes: number;
  #parts: Buffer[] = [];
  #size = 0;

  constructor(maxLineBytes: number) {
    this.#maxLineBytes = maxLineBytes;
  }

  /** The lines `chunk` completes; undefined once a line is longer than the bound (the stream is then useless). */
  push(chunk: Buffer): string[] | undefined {
    const lines: string[] = [];
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      const tail = chunk.subarray(start, newline);
      if (this.#size + tail.length > this.#maxLineBytes) return undefined;
      lines.push(Buffer.concat([...this.#parts, tail]).toString('utf8'));
      this.#parts = [];
      this.#size = 0;
      start = newline + 1;
    }
    const rest = chunk.subarray(start);
    this.#size += rest.length;
    if (this.#size > this.#maxLineBytes) return undefined;
    if (rest.length > 0) this.#parts.push(rest);
    return lines;
  }
}

/** A line of the program's output, or undefined when it is not one the program writes. */
export function parseMessage(line: string): ProgramMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'update':
      if (!isRawWords(m.words) || !isAudioMs(m.audioMs) || typeof m.inSpeech !== 'boolean') return undefined;
      return { type: 'update', words: m.words, audioMs: m.audioMs, inSpeech: m.inSpeech };
    case 'final':
      if (!isRawWords(m.words) || !isAudioMs(m.audioMs)) return undefined;
      return { type: 'final', words: m.words, audioMs: m.audioMs };
    case 'error':
      if ((m.kind !== 'unavailable' && m.kind !== 'failed') || typeof m.message !== 'string')
        return undefined;
      return { type: 'error', kind: m.kind, message: m.message };
    default:
      return undefined;
  }
}

function isAudioMs(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isRawWords(value: unknown): value is RawWord[] {
  return (
    Array.isArray(value) &&
    value.every(
      (w) =>
        Array.isArray(w) &&
        w.length === 4 &&
        typeof w[0] === 'string' &&
        Number.isSafeInteger(w[1]) &&
        Number.isSafeInteger(w[2]) &&
        typeof w[3] === 'number',
    )
  );
}

/** `<s>`, `</s>`, `<sil>`, `[NOISE]`, `++BREATH++`: segments that are not words (as in `pocketsphinx.ts`). */
const NOT_A_WORD = /^(<.*>|\[.*\]|\+\+.*\+\+)$/;

/**
 * The words of one utterance as the session reports them: fillers dropped, the alternate-pronunciation suffix
 * (`package(2)`) stripped, times clamped into the audio the utterance covers (`fromMs`..`toMs`; the decoder
 * can start an utterance ended mid-speech a little early, and this keeps times increasing across utterances).
 *
 * Confidence is the decoder's posterior: `logmath.exp(seg.prob)` = 1.0001^prob (prob is a log posterior in
 * the decoder's 1.0001 log base), clamped to 0..1 (rounding gives 1.0001). The decoder computes it from the
 * lattice when a stretch of speech ends; words still being heard carry 1 until then.
 */
export function toStreamWords(raw: readonly RawWord[], fromMs: number, toMs: number): StreamWord[] {
  const words: StreamWord[] = [];
  for (const [token, startMs, endMs, posterior] of raw) {
    if (NOT_A_WORD.test(token)) continue;
    const start = Math.min(Math.max(startMs, fromMs), toMs);
    words.push({
      text: token.replace(/\(\d+\)$/, ''),
      start,
      end: Math.min(Math.max(endMs, start), toMs),
      confidence: posterior >= 0 ? Math.min(posterior, 1) : 0,
    });
  }
  return words;
}
