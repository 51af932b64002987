import { createReadStream } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { synthesizeSpeech } from '@x/sandbox';
import { readWav } from '@x/transcription/streaming';
import type { AudioSource } from '../../src/web/live-session.js';

const RATE = 16_000;

/** A 16 kHz mono 16-bit WAV file of `pcm`. */
function wav(pcm: Int16Array): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + pcm.byteLength, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(RATE, 24);
  header.writeUInt32LE(RATE * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(pcm.byteLength, 40);
  return Buffer.concat([header, Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength)]);
}

async function pcmOf(path: string): Promise<Int16Array[]> {
  const chunks: Int16Array[] = [];
  for await (const chunk of await readWav(createReadStream(path), {
    sampleRate: RATE,
    speed: Number.POSITIVE_INFINITY,
  })) {
    chunks.push(chunk);
  }
  return chunks;
}

/**
 * A caller speaking `sentences` (flite's 16 kHz voice) with `pauseMs` of silence after each, so each
 * becomes its own turn, and `tailMs` of silence at the end: the last turn settles before the audio ends
 * (Chromium loops a fake microphone's file).
 */
export async function spokenCall(
  sentences: readonly string[],
  { pauseMs = 1500, tailMs = 2000 }: { pauseMs?: number; tailMs?: number } = {},
): Promise<string> {
  const parts: Int16Array[] = [new Int16Array((RATE * 300) / 1000)];
  for (const [i, sentence] of sentences.entries()) {
    parts.push(...(await pcmOf(await synthesizeSpeech(sentence))));
    parts.push(new Int16Array((RATE * (i === sentences.length - 1 ? tailMs : pauseMs)) / 1000));
  }
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    pcm.set(part, at);
    at += part.length;
  }
  const path = join(await mkdtemp(join(tmpdir(), 'support-desk-live-')), 'call.wav');
  await writeFile(path, wav(pcm));
  return path;
}

/** A WAV file as a microphone: its audio once at real time, then silence until stopped. */
export function wavMicrophone(path: string): AudioSource & { done: Promise<void> } {
  let stopped = false;
  let finished!: () => void;
  const done = new Promise<void>((resolve) => {
    finished = resolve;
  });
  return {
    done,
    open: async () => {},
    async start(sampleRate, onAudio) {
      void (async () => {
        for await (const chunk of await readWav(createReadStream(path), { sampleRate })) {
          if (stopped) break;
          onAudio(chunk);
        }
        finished();
        while (!stopped) {
          onAudio(new Int16Array(sampleRate / 10));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
    },
    async stop() {
      stopped = true;
    },
  };
}
