import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Executables } from './executables.js';
import { runTool } from './process.js';
import { type AudioHeader, EngineError, INSTALL_HINT } from './types.js';

/** What the recognisers read natively: 16 kHz, mono, 16-bit signed PCM in a WAV file. */
export const NATIVE_RATE = 16_000;

export interface WavFormat {
  /** WAV format tag: 1 is integer PCM; 0xFFFE (extensible) and others are converted. */
  formatTag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  /** Bytes of sample data (the `data` chunk, or what the file holds when a streaming writer left it unset). */
  dataBytes: number;
  /** Where the sample data starts in the file. */
  dataOffset: number;
}

/** How many RIFF chunks are walked looking for `fmt ` and `data`; real files have a handful. */
const MAX_CHUNKS = 1024;

/**
 * The format of a RIFF/WAVE file from its header, or undefined when it is not one (left to sox to identify).
 * Read here rather than with `soxi` so native files need no sox at all and no extra process. The chunks are
 * walked by seeking from one chunk header to the next (8 bytes read each), so metadata of any size before
 * `data` (a 70 KB `junk` chunk) hides nothing, and a file of any size costs a bounded number of small reads.
 */
export async function readWavFormat(path: string): Promise<WavFormat | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const read = async (at: number, length: number) => {
      const buffer = Buffer.alloc(length);
      const { bytesRead } = await file.read(buffer, 0, length, at);
      return buffer.subarray(0, bytesRead);
    };
    const head = await read(0, 12);
    if (
      head.length < 12 ||
      head.toString('latin1', 0, 4) !== 'RIFF' ||
      head.toString('latin1', 8, 12) !== 'WAVE'
    ) {
      return undefined;
    }
    let fmt: Omit<WavFormat, 'dataBytes' | 'dataOffset'> | undefined;
    let at = 12;
    for (let chunk = 0; chunk < MAX_CHUNKS && at + 8 <= size; chunk++) {
      const header = await read(at, 8);
      if (header.length < 8) break;
      const id = header.toString('latin1', 0, 4);
      const length = header.readUInt32LE(4);
      const body = at + 8;
      if (id === 'fmt ') {
        const f = await read(body, 16);
        if (f.length < 16) return undefined;
        fmt = {
          formatTag: f.readUInt16LE(0),
          channels: f.readUInt16LE(2),
          sampleRate: f.readUInt32LE(4),
          bitsPerSample: f.readUInt16LE(14),
        };
      } else if (id === 'data') {
        if (!fmt) return undefined;
        return { ...fmt, dataBytes: Math.min(length, size - body), dataOffset: body };
      }
      at = body + length + (length % 2); // chunks are padded to an even length
    }
    return undefined;
  } finally {
    await file.close();
  }
}

export function isNative(format: WavFormat | undefined): boolean {
  return (
    format !== undefined &&
    format.formatTag === 1 &&
    format.channels === 1 &&
    format.sampleRate === NATIVE_RATE &&
    format.bitsPerSample === 16
  );
}

/** Seconds of audio in a WAV file of this format. */
export function wavDuration(format: WavFormat): number {
  const bytesPerSecond = format.sampleRate * format.channels * (format.bitsPerSample / 8);
  return bytesPerSecond > 0 ? format.dataBytes / bytesPerSecond : 0;
}

/** WAV encodings whose duration follows from their byte count; others (GSM, ADPCM in WAV) are asked of sox. */
const LINEAR_WAV_TAGS = new Set([1, 3, 6, 7, 0xfffe]);

/**
 * What an audio file's header declares (rate, channels, duration), read without decoding the audio: WAV here,
 * any other format sox reads with `sox --i`, which reads only the header (or, for a format without a length
 * field, estimates from the file size). Undefined when neither can tell: sox then fails on it in its own words.
 */
export async function probeAudio(
  path: string,
  options: { executables: Executables; signal?: AbortSignal; timeoutMs: number },
): Promise<AudioHeader | undefined> {
  const wav = await readWavFormat(path).catch(() => undefined);
  if (wav && LINEAR_WAV_TAGS.has(wav.formatTag) && wav.bitsPerSample >= 8) {
    return { sampleRate: wav.sampleRate, channels: wav.channels, seconds: wavDuration(wav) };
  }
  const sox = await options.executables.find('sox');
  if (!sox) return wav && { sampleRate: wav.sampleRate, channels: wav.channels, seconds: undefined };
  try {
    const { stdout } = await runTool(sox, ['--i', path], {
      signal: options.signal,
      timeoutMs: options.timeoutMs,
      path: options.executables.path,
      label: 'sox',
    });
    return parseSoxInfo(stdout);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return undefined; // not audio sox knows: the conversion says so, as before
  }
}

/** The header fields of `sox --i` output (`Sample Rate : 8000`, `Duration : 00:00:01.00 = 8000 samples …`). */
export function parseSoxInfo(text: string): AudioHeader | undefined {
  const field = (name: string) => new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm').exec(text)?.[1]?.trim();
  const sampleRate = Number(field('Sample Rate') ?? Number.NaN);
  const channels = Number(field('Channels') ?? Number.NaN);
  if (!Number.isFinite(sampleRate) || !Number.isFinite(channels)) return undefined;
  const samples = /=\s*(\d+) samples/.exec(field('Duration') ?? '');
  const seconds = samples && sampleRate > 0 ? Number(samples[1]) / sampleRate : undefined;
  return { sampleRate, channels, seconds };
}

export interface NativeAudio {
  path: string;
  /** Seconds. */
  duration: number;
  /** Removes the converted copy, if one was made. Never throws. */
  dispose(): Promise<void>;
}

export interface NormaliseOptions {
  executables: Executables;
  signal?: AbortSignal;
  timeoutMs: number;
  /** Where conversions are written (in a private subdirectory). Default: the OS temp directory. */
  tmpDir?: string;
  /** See `TranscribeOptions.maxSeconds`. */
  maxSeconds?: number;
  /** See `TranscribeOptions.channel`. */
  channel?: number;
}

/**
 * The audio as a native WAV: the file itself when it already is one, else a sox conversion into a private temp
 * directory that `dispose()` removes (also when the conversion fails or is aborted).
 */
export async function toNativeWav(input: string, options: NormaliseOptions): Promise<NativeAudio> {
  let format: WavFormat | undefined;
  try {
    format = await readWavFormat(input);
  } catch (error) {
    throw new EngineError('bad_audio', `Cannot read the audio file: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const channel = options.channel;
  // Channel 1 of a mono file is the file; any other channel asks sox to pick it out.
  if (format && isNative(format) && (channel === undefined || channel === 1))
    return { path: input, duration: wavDuration(format), dispose: async () => {} };

  const sox = await options.executables.find('sox');
  if (!sox) {
    const what = format
      ? `this file is ${format.sampleRate} Hz, ${format.channels} channel(s), ${format.bitsPerSample}-bit`
      : 'this file is not a WAV file';
    throw new EngineError(
      'unavailable',
      `sox is not installed: it is needed to convert audio that is not 16 kHz mono 16-bit WAV (${what}). Install it with: ${INSTALL_HINT}`,
    );
  }

  const dir = await mkdtemp(join(options.tmpDir ?? tmpdir(), 'x-sandbox-audio-'));
  const dispose = () => rm(dir, { recursive: true, force: true }).catch(() => {});
  const output = join(dir, 'audio.wav');
  try {
    // sox adds the rate and channel (mixdown) effects itself when the output format asks for them; `remix N`
    // keeps only channel N instead (the job asks only for channels the header declares).
    await runTool(
      sox,
      [
        '-q',
        input,
        '-t',
        'wav',
        '-r',
        String(NATIVE_RATE),
        '-c',
        '1',
        '-b',
        '16',
        '-e',
        'signed-integer',
        output,
        ...(channel === undefined ? [] : ['remix', String(channel)]),
        // One second past the limit, so audio that reaches it shows as longer than allowed below.
        ...(options.maxSeconds === undefined ? [] : ['trim', '0', String(Math.ceil(options.maxSeconds) + 1)]),
      ],
      {
        signal: options.signal,
        timeoutMs: options.timeoutMs,
        path: options.executables.path,
        label: 'sox',
      },
    ).catch((error: unknown) => {
      // sox's own complaint ("no handler for file extension", "can't open input file") names the audio problem.
      if (error instanceof EngineError && error.code === 'failed') {
        throw new EngineError('bad_audio', `The audio could not be converted: ${error.message}`, {
          cause: error,
        });
      }
      throw error;
    });
    const converted = await readWavFormat(output);
    if (!converted || !isNative(converted)) {
      throw new EngineError('failed', 'sox did not write a 16 kHz mono 16-bit WAV file.');
    }
    if (options.maxSeconds !== undefined && wavDuration(converted) > options.maxSeconds) {
      throw new EngineError(
        'failed',
        `The audio is longer than ${Math.floor(options.maxSeconds)} seconds, the most this file may hold (its header does not declare a duration).`,
      );
    }
    return { path: output, duration: wavDuration(converted), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
