import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** flite's 16 kHz voices: PocketSphinx recognises these; the default 8 kHz `kal` comes out as noise. */
export const SPEECH_VOICES = ['kal16', 'slt', 'rms', 'awb'] as const;
export type SpeechVoice = (typeof SPEECH_VOICES)[number] | (string & {});

export interface SynthesizeOptions {
  /** Default `kal16`. */
  voice?: SpeechVoice;
  /** Where to write the WAV; default a new file in a new temp directory. */
  path?: string;
}

/**
 * Speaks `text` into a WAV file with flite (Debian package `flite`), for tests and demos that need real
 * speech without committing audio. Rejects with a message naming the package when flite is missing.
 */
export async function synthesizeSpeech(text: string, options: SynthesizeOptions = {}): Promise<string> {
  const path = options.path ?? join(await mkdtemp(join(tmpdir(), 'x-sandbox-speech-')), 'speech.wav');
  try {
    await run('flite', ['-voice', options.voice ?? 'kal16', '-t', text, '-o', path]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        'flite is not installed: install it with apt-get install flite (or pass your own audio)',
      );
    }
    throw error;
  }
  return path;
}

/** Lowercase words without punctuation, numbers kept as written, for comparing transcripts. */
export function normaliseWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9'\s]/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

/**
 * Word error rate: (substitutions + deletions + insertions) / reference words, by Levenshtein distance over
 * words, the standard measure of recognition accuracy.
 */
export function wordErrorRate(reference: string, hypothesis: string): number {
  const ref = normaliseWords(reference);
  const hyp = normaliseWords(hypothesis);
  if (ref.length === 0) return hyp.length === 0 ? 0 : 1;
  let row = Array.from({ length: hyp.length + 1 }, (_, j) => j);
  for (let i = 1; i <= ref.length; i++) {
    const next = [i];
    for (let j = 1; j <= hyp.length; j++) {
      const substitution = row[j - 1]! + (ref[i - 1] === hyp[j - 1] ? 0 : 1);
      next.push(Math.min(substitution, row[j]! + 1, next[j - 1]! + 1));
    }
    row = next;
  }
  return row[hyp.length]! / ref.length;
}
