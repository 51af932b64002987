import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/index.js';
import { parseWavHeader, readWav } from '../../src/streaming/audio/wav.js';

/** A WAV file in memory: `samples` interleaved per channel, written in the given sample format. */
function wav(
  samples: number[],
  options: {
    rate?: number;
    channels?: number;
    bits?: number;
    float?: boolean;
    list?: number;
    extensible?: boolean;
  } = {},
): Uint8Array {
  const rate = options.rate ?? 16000;
  const channels = options.channels ?? 1;
  const bits = options.bits ?? 16;
  const width = bits / 8;
  const list = options.list ?? 0;
  const fmtSize = options.extensible ? 40 : 16;
  const dataBytes = samples.length * width;
  const out = new Uint8Array(12 + 8 + fmtSize + (list ? 8 + list + (list % 2) : 0) + 8 + dataBytes);
  const view = new DataView(out.buffer);
  const text = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) view.setUint8(at + i, s.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, out.length - 8, true);
  text(8, 'WAVE');
  let at = 12;
  text(at, 'fmt ');
  view.setUint32(at + 4, fmtSize, true);
  const tag = options.float ? 3 : 1;
  view.setUint16(at + 8, options.extensible ? 0xfffe : tag, true);
  view.setUint16(at + 10, channels, true);
  view.setUint32(at + 12, rate, true);
  view.setUint32(at + 16, rate * channels * width, true);
  view.setUint16(at + 20, channels * width, true);
  view.setUint16(at + 22, bits, true);
  if (options.extensible) view.setUint16(at + 8 + 24, tag, true);
  at += 8 + fmtSize;
  if (list) {
    text(at, 'LIST');
    view.setUint32(at + 4, list, true);
    at += 8 + list + (list % 2);
  }
  text(at, 'data');
  view.setUint32(at + 4, dataBytes, true);
  at += 8;
  for (const s of samples) {
    if (options.float) view.setFloat32(at, s, true);
    else if (bits === 16) view.setInt16(at, s, true);
    else if (bits === 8) view.setUint8(at, s);
    else if (bits === 24) {
      view.setUint8(at, s & 0xff);
      view.setUint8(at + 1, (s >> 8) & 0xff);
      view.setInt8(at + 2, s >> 16);
    } else view.setInt32(at, s, true);
    at += width;
  }
  return out;
}

async function all(reader: AsyncIterable<Int16Array>): Promise<Int16Array[]> {
  const chunks: Int16Array[] = [];
  for await (const chunk of reader) chunks.push(chunk);
  return chunks;
}

const unpaced = { speed: Number.POSITIVE_INFINITY };

describe('readWav', () => {
  it('yields a 16-bit mono file sample for sample, in chunks of chunkMs, from any split of the bytes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 4000 }),
        fc.array(fc.integer({ min: 1, max: 700 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 0, max: 300 }),
        async (samples, cuts, list) => {
          const bytes = wav(samples, { list });
          const pieces: Uint8Array[] = [];
          for (let at = 0, i = 0; at < bytes.length; i++) {
            const n = cuts[i % cuts.length]!;
            pieces.push(bytes.slice(at, at + n));
            at += n;
          }
          const reader = await readWav(Readable.from(pieces), { ...unpaced, chunkMs: 20 });
          expect(reader.info).toMatchObject({ sampleRate: 16000, channels: 1, bitsPerSample: 16 });
          const chunks = await all(reader);
          expect(chunks.slice(0, -1).every((c) => c.length === 320)).toBe(true);
          expect(chunks.flatMap((c) => [...c])).toEqual(samples);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('averages channels and converts 8, 24 and 32-bit integer and float samples to 16-bit', async () => {
    const stereo = await all(await readWav(wav([1000, 3000, -2000, -4000], { channels: 2 }), unpaced));
    expect([...stereo[0]!]).toEqual([2000, -3000]);
    const eight = await all(await readWav(wav([128, 255, 0], { bits: 8 }), unpaced));
    expect([...eight[0]!]).toEqual([0, Math.round((127 / 128) * 32767), -32768]);
    const twentyFour = await all(await readWav(wav([0x400000, -0x800000], { bits: 24 }), unpaced));
    expect([...twentyFour[0]!]).toEqual([16384, -32768]);
    const float = await all(
      await readWav(wav([0.5, -1, 2], { float: true, bits: 32, extensible: true }), unpaced),
    );
    expect([...float[0]!]).toEqual([16384, -32768, 32767]);
  });

  it('resamples to the session rate', async () => {
    const samples = Array.from({ length: 4800 }, (_, i) => Math.round(Math.sin(i / 10) * 10000));
    const reader = await readWav(wav(samples, { rate: 48000 }), { ...unpaced, sampleRate: 16000 });
    expect(reader.sampleRate).toBe(16000);
    const out = (await all(reader)).flatMap((c) => [...c]);
    expect(out.length).toBe(Math.floor((4799 * 16000) / 48000) + 1);
    // Every third input sample is an output sample exactly.
    expect(out.slice(0, 50)).toEqual(samples.filter((_, i) => i % 3 === 0).slice(0, 50));
  });

  it('stops at the declared data length and ignores what follows', async () => {
    const bytes = wav([1, 2, 3]);
    const trailing = new Uint8Array(bytes.length + 12);
    trailing.set(bytes);
    trailing.set([0x4c, 0x49, 0x53, 0x54, 4, 0, 0, 0, 9, 9, 9, 9], bytes.length);
    expect((await all(await readWav(trailing, unpaced))).flatMap((c) => [...c])).toEqual([1, 2, 3]);
  });

  it('refuses what is not a readable WAV with a ValidationError', async () => {
    const cases: Uint8Array[] = [
      new TextEncoder().encode('ID3 this is an mp3 file, not a wave'),
      wav([], { bits: 12 }),
      wav([1]).slice(0, 30),
    ];
    for (const bytes of cases) await expect(readWav(bytes, unpaced)).rejects.toBeInstanceOf(ValidationError);
    expect(parseWavHeader(wav([1]).slice(0, 20))).toBeUndefined();
  });

  it('never throws anything but a ValidationError on random bytes, and never hangs', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 200 }), fc.boolean(), async (noise, riff) => {
        const bytes = riff
          ? new Uint8Array([...new TextEncoder().encode('RIFF\0\0\0\0WAVE'), ...noise])
          : noise;
        try {
          await all(await readWav(bytes, unpaced));
        } catch (error) {
          expect(error).toBeInstanceOf(ValidationError);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('paces chunks at real time when asked, and stops when aborted', async () => {
    const controller = new AbortController();
    const reader = await readWav(wav(new Array(16000).fill(0)), { chunkMs: 100, signal: controller.signal });
    const iterator = reader[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort(new Error('stop'));
    await expect(iterator.next()).rejects.toThrow('stop');
  });
});
