import { sleepUnlessAborted, ValidationError } from '@x/core';
import { float32ToPcm16 } from './pcm.js';
import { LinearResampler } from './resample.js';

/** What a WAV file's `fmt ` chunk says. */
export interface WavInfo {
  sampleRate: number;
  channels: number;
  bitsPerSample: number;
  /** Integer PCM or IEEE float samples. */
  sampleFormat: 'pcm' | 'float';
  /** Bytes of audio the `data` chunk declares; undefined when unknown (a WAV written to a pipe). */
  dataBytes: number | undefined;
}

/** Bytes, or a stream of them: a Node `fs.createReadStream(path)`, a `fetch` body, a `Blob.stream()`. */
export type WavSource =
  | ArrayBuffer
  | ArrayBufferView
  | AsyncIterable<Uint8Array>
  | ReadableStream<Uint8Array>;

export interface ReadWavOptions {
  /** Resample to this rate (the session's `sample_rate`); default the file's own. */
  sampleRate?: number;
  /** Milliseconds of audio per chunk yielded (default 100). */
  chunkMs?: number;
  /**
   * Pace relative to real time: 1 (default) yields each chunk when its audio would have been spoken, as a
   * live source would; 2 twice as fast; `Infinity` as fast as the consumer takes them, which through the
   * transcriber's `stream()` means as fast as the transcriber's queue lets it (it never sends faster than
   * the service allows).
   */
  speed?: number;
  signal?: AbortSignal;
}

/** A WAV file's audio as 16-bit mono PCM chunks at `sampleRate`; iterate it once. */
export interface WavReader extends AsyncIterable<Int16Array> {
  /** The file's own format. */
  readonly info: WavInfo;
  /** The rate of the chunks yielded. */
  readonly sampleRate: number;
}

/** How many bytes may come before the `data` chunk (`LIST` metadata, say) before the file is refused. */
const MAX_HEADER_BYTES = 1 << 20;

const invalid = (message: string) => new ValidationError('WAV audio', [{ path: '', message }]);

/**
 * Reads a WAV file's header, then streams its audio as 16-bit mono PCM: channels averaged, 8/16/24/32-bit
 * integer or 32/64-bit float samples converted, resampled linearly when `sampleRate` differs, cut into
 * `chunkMs` chunks and paced by `speed`. Runs anywhere (Node, browsers, workers): it reads bytes, not paths.
 */
export async function readWav(source: WavSource, options: ReadWavOptions = {}): Promise<WavReader> {
  const chunkMs = options.chunkMs ?? 100;
  const speed = options.speed ?? 1;
  if (!(chunkMs > 0) || !Number.isFinite(chunkMs)) throw invalid(`chunkMs must be a positive number`);
  if (!(speed > 0)) throw invalid('speed must be a positive number (Infinity for no pacing)');
  const bytes = byteStream(source);
  let head: Uint8Array = new Uint8Array(0);
  let found: { info: WavInfo; dataOffset: number } | undefined;
  while (!found) {
    const next = await bytes.next();
    if (next.done) throw invalid(`ended after ${head.length} bytes, before its "data" chunk`);
    head = concat(head, next.value);
    found = parseWavHeader(head);
    if (!found && head.length > MAX_HEADER_BYTES) throw invalid('no "data" chunk in its first 1 MB');
  }
  const { info, dataOffset } = found;
  const rate = options.sampleRate ?? info.sampleRate;
  if (!Number.isInteger(rate) || rate <= 0) throw invalid('sampleRate must be a positive integer');
  const first = head.subarray(dataOffset);
  let used = false;
  return {
    info,
    sampleRate: rate,
    [Symbol.asyncIterator]() {
      if (used) throw invalid('a WavReader can be iterated once');
      used = true;
      return pcmChunks(first, bytes, info, rate, chunkMs, speed, options.signal);
    },
  };
}

/**
 * The format and where the audio starts, once `bytes` holds everything up to the `data` chunk's header;
 * undefined while more bytes are needed. Throws a `ValidationError` for what is not a readable WAV.
 */
export function parseWavHeader(bytes: Uint8Array): { info: WavInfo; dataOffset: number } | undefined {
  if (bytes.length < 12) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') throw invalid('not a RIFF/WAVE file');
  let fmt: Omit<WavInfo, 'dataBytes'> | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = tag(at);
    const size = view.getUint32(at + 4, true);
    if (id === 'data') {
      if (!fmt) throw invalid('its "data" chunk comes before a "fmt " chunk');
      const unknown = size === 0 || size === 0xffffffff;
      return { info: { ...fmt, dataBytes: unknown ? undefined : size }, dataOffset: at + 8 };
    }
    if (at + 8 + size > bytes.length) return undefined;
    if (id === 'fmt ') fmt = readFmt(view, at + 8, size);
    // Chunks are padded to an even size.
    at += 8 + size + (size % 2);
  }
  return undefined;
}

function readFmt(view: DataView, at: number, size: number): Omit<WavInfo, 'dataBytes'> {
  if (size < 16) throw invalid('its "fmt " chunk is too short');
  let tagValue = view.getUint16(at, true);
  // WAVE_FORMAT_EXTENSIBLE: the real format is the first two bytes of the sub-format GUID.
  if (tagValue === 0xfffe && size >= 26) tagValue = view.getUint16(at + 24, true);
  const channels = view.getUint16(at + 2, true);
  const sampleRate = view.getUint32(at + 4, true);
  const bitsPerSample = view.getUint16(at + 14, true);
  const sampleFormat = tagValue === 1 ? 'pcm' : tagValue === 3 ? 'float' : undefined;
  if (!sampleFormat) {
    throw invalid(`format tag ${tagValue} is not supported (integer PCM and IEEE float are)`);
  }
  const widths = sampleFormat === 'pcm' ? [8, 16, 24, 32] : [32, 64];
  if (!widths.includes(bitsPerSample)) {
    throw invalid(`${bitsPerSample}-bit ${sampleFormat} samples are not supported`);
  }
  if (channels < 1 || sampleRate < 1) throw invalid('it declares no channels or no sample rate');
  return { sampleRate, channels, bitsPerSample, sampleFormat };
}

async function* pcmChunks(
  first: Uint8Array,
  rest: AsyncIterator<Uint8Array>,
  info: WavInfo,
  rate: number,
  chunkMs: number,
  speed: number,
  signal: AbortSignal | undefined,
): AsyncGenerator<Int16Array> {
  const frameBytes = (info.bitsPerSample / 8) * info.channels;
  const resampler = rate === info.sampleRate ? undefined : new LinearResampler(info.sampleRate, rate);
  const chunkSamples = Math.max(1, Math.round((rate * chunkMs) / 1000));
  let remaining = info.dataBytes ?? Number.POSITIVE_INFINITY;
  let carry = new Uint8Array(0);
  let out = new Int16Array(chunkSamples);
  let filled = 0;
  let yielded = 0;
  const started = Date.now();
  const pace = async () => {
    signal?.throwIfAborted();
    if (!Number.isFinite(speed)) return;
    const due = started + (yielded * 1000) / rate / speed;
    const wait = due - Date.now();
    if (wait > 0) await sleepUnlessAborted(wait, signal, () => signal?.reason);
  };
  try {
    let input: Uint8Array | undefined = first;
    while (input && remaining > 0) {
      const take = input.subarray(0, Math.min(input.length, remaining));
      remaining -= take.length;
      const bytes = carry.length ? concat(carry, take) : take;
      const whole = bytes.length - (bytes.length % frameBytes);
      carry = bytes.slice(whole);
      let mono = decodeMono(bytes.subarray(0, whole), info);
      if (resampler) mono = resampler.process(mono);
      const pcm = float32ToPcm16(mono);
      for (let i = 0; i < pcm.length; ) {
        const n = Math.min(chunkSamples - filled, pcm.length - i);
        out.set(pcm.subarray(i, i + n), filled);
        filled += n;
        i += n;
        if (filled === chunkSamples) {
          await pace();
          yielded += chunkSamples;
          yield out;
          out = new Int16Array(chunkSamples);
          filled = 0;
        }
      }
      if (remaining <= 0) break;
      const next = await rest.next();
      input = next.done ? undefined : next.value;
    }
    if (filled > 0) {
      await pace();
      yield out.slice(0, filled);
    }
  } finally {
    await rest.return?.();
  }
}

/** Interleaved samples of any supported width to one Float32 channel (the average of all channels). */
function decodeMono(bytes: Uint8Array, info: WavInfo): Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const width = info.bitsPerSample / 8;
  const frames = bytes.length / (width * info.channels);
  const out = new Float32Array(frames);
  let at = 0;
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let c = 0; c < info.channels; c++, at += width) sum += sampleAt(view, at, info);
    out[f] = sum / info.channels;
  }
  return out;
}

function sampleAt(view: DataView, at: number, info: WavInfo): number {
  if (info.sampleFormat === 'float') {
    return info.bitsPerSample === 32 ? view.getFloat32(at, true) : view.getFloat64(at, true);
  }
  switch (info.bitsPerSample) {
    case 8:
      return (view.getUint8(at) - 128) / 128;
    case 16: {
      // The inverse of float32ToPcm16's scale, so 16-bit audio comes out with the same samples.
      const value = view.getInt16(at, true);
      return value < 0 ? value / 0x8000 : value / 0x7fff;
    }
    case 24: {
      const value = view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16);
      return value / 8388608;
    }
    default:
      return view.getInt32(at, true) / 2147483648;
  }
}

function byteStream(source: WavSource): AsyncIterator<Uint8Array> {
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    const bytes =
      source instanceof ArrayBuffer
        ? new Uint8Array(source)
        : new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
    return (async function* () {
      yield bytes;
    })();
  }
  if (typeof (source as ReadableStream).getReader === 'function') {
    const reader = (source as ReadableStream<Uint8Array>).getReader();
    return {
      next: () => reader.read() as Promise<IteratorResult<Uint8Array>>,
      return: async () => {
        await reader.cancel().catch(() => {});
        return { done: true, value: undefined };
      },
    };
  }
  const iterator = (source as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  return {
    next: async () => {
      const next = await iterator.next();
      // A Node stream yields Buffers (Uint8Arrays); a string chunk means the stream has an encoding set.
      if (!next.done && !(next.value instanceof Uint8Array)) {
        throw invalid('the stream yielded text, not bytes (create it without an encoding)');
      }
      return next;
    },
    return: async () => (await iterator.return?.()) ?? { done: true, value: undefined },
  };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
