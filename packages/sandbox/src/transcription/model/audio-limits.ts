import type { AudioHeader } from '../engine/index.js';

/**
 * Which audio a job refuses from its header alone, before any conversion or recognition runs. Why before:
 * both cost time in proportion to the audio's duration, and a header can declare any duration at all (2 KB
 * declaring 1 Hz is 2,000 s of audio for sox to write and PocketSphinx to read).
 */

/**
 * The lowest sample rate accepted. AssemblyAI documents no minimum; its pipeline converts everything to
 * 16 kHz (https://www.assemblyai.com/docs/faq/what-audio-and-video-file-types-are-supported-by-your-api), and
 * 8 kHz is telephone audio, the narrowest band speech is recorded in. A lower rate cannot hold speech (its
 * band ends below 4 kHz / 2), so such a header is a mistake or a trap, never a recording to transcribe.
 */
export const MIN_SAMPLE_RATE = 8_000;

/**
 * The fewest bytes any real encoding spends on a second of audio. The leanest codec sox reads, LPC-10, is
 * 2,400 bit/s (300 B/s); sox's FLAC and Vorbis of pure silence take about 2 KB/s. A header declaring more
 * seconds than `bytes / 100` describes audio the file cannot hold: it is corrupt (or hostile), and refusing it
 * bounds the work any input can cause by its size.
 */
export const MIN_BYTES_PER_SECOND = 100;

/** Why audio with this header is refused, as the transcript's `error`; null when it may be converted. */
export function audioRefusal(
  header: AudioHeader | undefined,
  fileBytes: number,
  maxSeconds: number,
): string | null {
  if (!header) return null;
  const seconds = header.seconds;
  if (seconds !== undefined && seconds > maxSeconds) {
    return `Audio duration of ${Math.round(seconds)} seconds exceeds the maximum of ${maxSeconds} seconds.`;
  }
  if (!(header.sampleRate >= MIN_SAMPLE_RATE)) {
    return `Transcoding failed. The audio's sample rate of ${header.sampleRate} Hz is below ${MIN_SAMPLE_RATE} Hz, too low to contain speech.`;
  }
  if (!(header.channels >= 1)) return 'Transcoding failed. The audio header declares no channels.';
  if (seconds !== undefined && seconds > fileBytes / MIN_BYTES_PER_SECOND) {
    return `Transcoding failed. The audio header declares ${Math.round(seconds)} seconds, more than a file of ${fileBytes} bytes can hold: the file appears to be corrupt.`;
  }
  return null;
}
