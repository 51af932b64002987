import { readFile, stat, writeFile } from 'node:fs/promises';
import { toNativeWav } from '../engine/audio.js';
import { Executables } from '../engine/executables.js';

/** Bytes per millisecond of the native format (16 kHz, 16-bit mono). */
const BYTES_PER_MS = 32;

/**
 * The audio with every redacted word's span silenced, as `redact_pii_audio` asks. Written as the native WAV
 * whatever `redact_pii_audio_quality` says: the emulator has no MP3 encoder, and a WAV plays everywhere.
 */
export async function writeRedactedAudio(
  input: string,
  output: string,
  spans: readonly { start: number; end: number }[],
  signal: AbortSignal,
): Promise<void> {
  const native = await toNativeWav(input, { executables: new Executables(), signal, timeoutMs: 300_000 });
  try {
    const bytes = await readFile(native.path);
    const { size } = await stat(native.path);
    const dataBytes = Math.round(native.duration * 1000) * BYTES_PER_MS;
    // The data chunk is the file's last; its start is what precedes it.
    const dataStart = Math.max(0, size - dataBytes);
    for (const span of spans) {
      const from = dataStart + span.start * BYTES_PER_MS;
      const to = Math.min(bytes.length, dataStart + span.end * BYTES_PER_MS);
      if (to > from) bytes.fill(0, from, to);
    }
    await writeFile(output, bytes);
  } finally {
    await native.dispose();
  }
}
