/**
 * The audio of the streaming benchmarks: flite sentences (16 kHz `slt`, which the emulator's PocketSphinx
 * recognises), each followed by a pause of quiet noise, every block a whole number of 100 ms chunks. Where
 * each sentence's speech starts and ends is measured on the audio itself, so "end of speech" is a fact of
 * what is fed, not of what any recogniser reports.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { synthesizeSpeech } from '@x/sandbox';
import { readWav } from '../src/streaming/index.js';

export const SAMPLE_RATE = 16_000;
export const CHUNK_MS = 100;
export const BYTES_PER_MS = (SAMPLE_RATE * 2) / 1000;
export const CHUNK_BYTES = CHUNK_MS * BYTES_PER_MS;
/**
 * A 10 ms frame is speech when its RMS reaches -48 dBFS: the level at which the emulator's default
 * `vad_threshold` (0.4) counts a frame as speech. flite's own leading and trailing quiet is far below it.
 */
export const SPEECH_DBFS = -48;

/** One sentence and its pause, as bytes of the script's PCM. */
export interface Block {
  text: string;
  /** Where the block starts in the script's PCM. */
  offset: number;
  /** Its length, a whole number of chunks. */
  bytes: number;
  /** Where its speech starts and ends (exclusive), from the start of the block. */
  speechStart: number;
  speechEnd: number;
}

export interface Script {
  /** 16 kHz mono s16le of every block, one after the other. */
  pcmPath: string;
  blocks: Block[];
}

/** Customer-call sentences; distinct words mostly, so a word lost or said twice shows. */
export const SENTENCES = [
  'i would like a refund please',
  'my order number is four five six',
  'can you send a replacement today',
  'the package arrived broken',
  'i have been waiting for two weeks',
  'please cancel my subscription',
  'what is the status of my delivery',
  'the charger stopped working yesterday',
  'thank you for your help',
  'can i speak to a manager',
];

/** Where speech starts and ends in `pcm` (bytes), by 10 ms frames at or above SPEECH_DBFS. */
export function speechSpan(pcm: Int16Array): { start: number; end: number } {
  const frame = SAMPLE_RATE / 100;
  const floor = 32768 * 10 ** (SPEECH_DBFS / 20);
  let start = -1;
  let end = -1;
  for (let at = 0; at + frame <= pcm.length; at += frame) {
    let sum = 0;
    for (let i = at; i < at + frame; i++) sum += pcm[i]! * pcm[i]!;
    if (Math.sqrt(sum / frame) >= floor) {
      if (start < 0) start = at;
      end = at + frame;
    }
  }
  if (start < 0) throw new Error('no speech in the synthesized audio');
  return { start: start * 2, end: end * 2 };
}

/** Room noise well under the speech threshold (about -65 dBFS), the same on every run (a fixed LCG). */
function quiet(bytes: number, seed: number): Uint8Array {
  const samples = new Int16Array(bytes / 2);
  let state = seed >>> 0 || 1;
  for (let i = 0; i < samples.length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    samples[i] = Math.round((state / 2 ** 32 - 0.5) * 60);
  }
  return new Uint8Array(samples.buffer);
}

/** 16 kHz PCM of a WAV file, resampled by the client's own reader if need be. */
async function pcmOf(wav: string): Promise<Int16Array> {
  const parts: Int16Array[] = [];
  for await (const chunk of await readWav(await readFile(wav), {
    sampleRate: SAMPLE_RATE,
    speed: Infinity,
  })) {
    parts.push(chunk);
  }
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/**
 * Synthesizes the sentences into `dir` and writes the script: each sentence up to the end of its speech,
 * then at least `pauseMs` of quiet, rounded up to whole chunks.
 */
export async function buildScript(dir: string, pauseMs: number, sentences = SENTENCES): Promise<Script> {
  const parts: Uint8Array[] = [];
  const blocks: Block[] = [];
  let offset = 0;
  for (const [i, text] of sentences.entries()) {
    const pcm = await pcmOf(await synthesizeSpeech(text, { voice: 'slt', path: join(dir, `${i}.wav`) }));
    const span = speechSpan(pcm);
    const speech = new Uint8Array(pcm.buffer, pcm.byteOffset, span.end);
    const bytes = Math.ceil((span.end + pauseMs * BYTES_PER_MS) / CHUNK_BYTES) * CHUNK_BYTES;
    parts.push(speech, quiet(bytes - span.end, i + 1));
    blocks.push({ text, offset, bytes, speechStart: span.start, speechEnd: span.end });
    offset += bytes;
  }
  const pcmPath = join(dir, 'script.pcm');
  await writeFile(pcmPath, Buffer.concat(parts));
  return { pcmPath, blocks };
}
