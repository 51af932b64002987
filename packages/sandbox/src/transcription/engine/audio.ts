import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Executables } from './executables.js';
import { runTool } from './process.js';
import { EngineError, INSTALL_HINT } from './types.js';

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
}

/** How much of a file is searched for the `fmt ` and `data` chunks; metadata chunks before them are small. */
const HEADER_SCAN_BYTES = 64 * 1024;

/**
 * The format of a RIFF/WAVE file from its header, or undefined when it is not one (left to sox to identify).
 * Read here rather than with `soxi` so native files need no sox at all and no extra process.
 */
export async function readWavFormat(path: string): Promise<WavFormat | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const head = Buffer.alloc(Math.min(size, HEADER_SCAN_BYTES));
    await file.read(head, 0, head.length, 0);
    if (
      head.length < 12 ||
      head.toString('latin1', 0, 4) !== 'RIFF' ||
      head.toString('latin1', 8, 12) !== 'WAVE'
    ) {
      return undefined;
    }
    let fmt: Omit<WavFormat, 'dataBytes'> | undefined;
    for (let at = 12; at + 8 <= head.length; ) {
      const id = head.toString('latin1', at, at + 4);
      const length = head.readUInt32LE(at + 4);
      const body = at + 8;
      if (id === 'fmt ' && body + 16 <= head.length) {
        fmt = {
          formatTag: head.readUInt16LE(body),
          channels: head.readUInt16LE(body + 2),
          sampleRate: head.readUInt32LE(body + 4),
          bitsPerSample: head.readUInt16LE(body + 14),
        };
      } else if (id === 'data') {
        if (!fmt) return undefined;
        return { ...fmt, dataBytes: Math.min(length, size - body) };
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
  if (format && isNative(format))
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
    // sox adds the rate and channel (mixdown) effects itself when the output format asks for them.
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
    return { path: output, duration: wavDuration(converted), dispose };
  } catch (error) {
    await dispose();
    throw error;
  }
}
