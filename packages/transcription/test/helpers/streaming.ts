import { createReadStream } from 'node:fs';
import { synthesizeSpeech } from '@x/sandbox';
import { readWav, type StreamingTranscriber, type TurnEvent } from '../../src/streaming/index.js';

/** A sentence spoken by flite's 16 kHz `slt` voice, as a WAV path. */
export function speech(text: string): Promise<string> {
  return synthesizeSpeech(text, { voice: 'slt' });
}

/** Feeds a WAV's audio to the transcriber at `speed` × real time (as a microphone would at 1). */
export async function speak(transcriber: StreamingTranscriber, wav: string, speed = 1): Promise<void> {
  const reader = await readWav(createReadStream(wav), { sampleRate: 16000, speed });
  for await (const chunk of reader) {
    if (!transcriber.sendAudio(chunk)) throw new Error('the queue refused audio sent at real time');
  }
}

/** `ms` of 16 kHz silence, in 100 ms chunks at real time. */
export async function silence(transcriber: StreamingTranscriber, ms: number): Promise<void> {
  for (let sent = 0; sent < ms; sent += 100) {
    transcriber.sendAudio(new Int16Array(1600));
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Everything a transcriber emits, in order. */
export function record(transcriber: StreamingTranscriber) {
  const seen = {
    turns: [] as TurnEvent[],
    begins: 0,
    errors: [] as Error[],
    closes: [] as { code: number; reason: string }[],
    reconnected: [] as { gapMs: number; replayedMs: number; sessionId: string }[],
    order: [] as string[],
    get finals(): TurnEvent[] {
      return seen.turns.filter((t) => t.end_of_turn && !t.turn_is_formatted);
    },
    get partials(): TurnEvent[] {
      return seen.turns.filter((t) => !t.end_of_turn);
    },
    /** The final words of the conversation, in order. */
    get words() {
      return seen.finals.flatMap((t) => t.words);
    },
  };
  transcriber.on('turn', (t) => seen.turns.push(t));
  transcriber.on('begin', () => seen.begins++);
  transcriber.on('error', (e) => seen.errors.push(e));
  transcriber.on('close', (c) => seen.closes.push(c));
  transcriber.on('reconnected', (r) => seen.reconnected.push(r));
  for (const event of [
    'begin',
    'turn',
    'termination',
    'reconnecting',
    'reconnected',
    'error',
    'close',
  ] as const) {
    transcriber.on(event, () => seen.order.push(event));
  }
  return seen;
}

/** Waits until `check` holds, polling every 20 ms; gives up (throws) after `polls` polls. */
export async function until(check: () => boolean, what = 'condition', polls = 1000): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i >= polls) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
