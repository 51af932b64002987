import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { float32ToPcm16, pcm16ToFloat32 } from '../../src/streaming/audio/pcm.js';
import { LinearResampler, resampleLinear } from '../../src/streaming/audio/resample.js';
import { audioFormat, bytesToMs, msToBytes } from '../../src/streaming/audio-format.js';
import { AudioQueue } from '../../src/streaming/audio-queue.js';
import { chunkBytes, Framer } from '../../src/streaming/framer.js';
import { ReplayBuffer } from '../../src/streaming/replay.js';

const rates = fc.constantFrom(8000, 11025, 16000, 22050, 24000, 32000, 44100, 48000);
const encodings = fc.constantFrom('pcm_s16le' as const, 'pcm_mulaw' as const);

describe('float32ToPcm16', () => {
  it('clamps, keeps the sign and the order of samples, and maps ±1 to the ends of the range', () => {
    fc.assert(
      fc.property(fc.float32Array({ maxLength: 200 }), (input) => {
        const out = float32ToPcm16(input);
        expect(out.length).toBe(input.length);
        for (let i = 0; i < input.length; i++) {
          const s = input[i]!;
          const v = out[i]!;
          if (Number.isNaN(s)) expect(v).toBe(0);
          else if (s >= 1) expect(v).toBe(32767);
          else if (s <= -1) expect(v).toBe(-32768);
          else expect(Math.sign(v) === Math.sign(s) || v === 0).toBe(true);
        }
        const sorted = [...input].filter((s) => !Number.isNaN(s)).sort((a, b) => a - b);
        const converted = [...float32ToPcm16(Float32Array.from(sorted))];
        for (let i = 1; i < converted.length; i++)
          expect(converted[i]).toBeGreaterThanOrEqual(converted[i - 1]!);
      }),
    );
  });

  it('is the exact inverse of pcm16ToFloat32 for every 16-bit sample', () => {
    const all = new Int16Array(65536);
    for (let i = 0; i < all.length; i++) all[i] = i - 32768;
    expect(float32ToPcm16(pcm16ToFloat32(all))).toEqual(all);
  });
});

describe('LinearResampler', () => {
  const signal = fc.float32Array({ noNaN: true, noDefaultInfinity: true, min: -1, max: 1, maxLength: 400 });

  it('gives the same samples whether the signal comes whole or in chunks of any size', () => {
    fc.assert(
      fc.property(signal, rates, rates, fc.array(fc.nat(50), { maxLength: 20 }), (input, from, to, cuts) => {
        const whole = resampleLinear(input, from, to);
        const resampler = new LinearResampler(from, to);
        const parts: number[] = [];
        let at = 0;
        for (const cut of [...cuts, input.length]) {
          const end = Math.min(input.length, at + cut);
          parts.push(...resampler.process(input.subarray(at, end)));
          at = end;
        }
        parts.push(...resampler.process(input.subarray(at)));
        expect(parts).toEqual([...whole]);
      }),
    );
  });

  it('produces floor((n-1)·to/from)+1 samples, each within the range of its neighbours', () => {
    fc.assert(
      fc.property(
        signal.filter((s) => s.length > 0),
        rates,
        rates,
        (input, from, to) => {
          const out = resampleLinear(input, from, to);
          expect(out.length).toBe(Math.floor(((input.length - 1) * to) / from) + 1);
          const min = Math.min(...input);
          const max = Math.max(...input);
          for (const s of out) {
            expect(s).toBeGreaterThanOrEqual(min - 1e-6);
            expect(s).toBeLessThanOrEqual(max + 1e-6);
          }
          expect(out[0]).toBe(input[0]);
        },
      ),
    );
  });

  it('keeps a constant signal constant and refuses rates that are not positive integers', () => {
    const out = resampleLinear(new Float32Array(480).fill(0.25), 48000, 16000);
    expect(out.every((s) => s === 0.25)).toBe(true);
    expect(() => new LinearResampler(0, 16000)).toThrow(RangeError);
    expect(() => new LinearResampler(44100.5, 16000)).toThrow(RangeError);
  });
});

describe('Framer', () => {
  it('cuts any chunking into frames of exactly frameMs, in order, losing and adding nothing', () => {
    fc.assert(
      fc.property(
        rates,
        encodings,
        fc.integer({ min: 50, max: 1000 }),
        fc.array(fc.uint8Array({ maxLength: 5000 }), { maxLength: 12 }),
        (rate, encoding, frameMs, chunks) => {
          const format = audioFormat(rate, encoding);
          const framer = new Framer(format, frameMs);
          const frames = chunks.flatMap((c) => framer.push(c));
          for (const frame of frames) {
            expect(frame.length).toBe(framer.frameBytes);
            expect(bytesToMs(frame.length, format)).toBeGreaterThanOrEqual(frameMs);
            expect(bytesToMs(frame.length, format)).toBeLessThan(frameMs + 1000 / rate + 1e-9);
          }
          const tail = framer.flush();
          const input = chunks.flatMap((c) => [...c]);
          const output = [...frames, ...(tail ? [tail] : [])].flatMap((f) => [...f]);
          expect(output.slice(0, input.length)).toEqual(input);
          if (tail) {
            expect(bytesToMs(tail.length, format)).toBeGreaterThanOrEqual(50);
            expect(bytesToMs(tail.length, format)).toBeLessThanOrEqual(1000);
            expect(tail.length % format.bytesPerSample).toBe(0);
            expect(output.slice(input.length).every((b) => b === format.silence)).toBe(true);
          }
          expect(framer.pendingBytes).toBe(0);
        },
      ),
    );
  });

  it('copies: a caller reusing its buffer does not change frames already cut', () => {
    const framer = new Framer(audioFormat(16000), 50);
    const buffer = new Uint8Array(1600).fill(7);
    const [frame] = framer.push(buffer);
    buffer.fill(9);
    expect(frame!.every((b) => b === 7)).toBe(true);
  });

  it('reads every kind of audio chunk as bytes, without copying', () => {
    const samples = Int16Array.from([1, -2, 3]);
    const bytes = chunkBytes(samples)!;
    expect(bytes.length).toBe(6);
    expect(bytes.buffer).toBe(samples.buffer);
    expect(chunkBytes(samples.buffer)!.length).toBe(6);
    expect(chunkBytes(new DataView(samples.buffer, 2, 2))!.length).toBe(2);
    expect(chunkBytes('audio')).toBeUndefined();
    expect(chunkBytes([1, 2])).toBeUndefined();
  });

  it('rounds frame sizes up to whole samples, so no frame is shorter than asked', () => {
    fc.assert(
      fc.property(rates, encodings, fc.integer({ min: 1, max: 2000 }), (rate, encoding, ms) => {
        const format = audioFormat(rate, encoding);
        const bytes = msToBytes(ms, format);
        expect(bytes % format.bytesPerSample).toBe(0);
        expect(bytesToMs(bytes, format)).toBeGreaterThanOrEqual(ms - 1e-9);
        expect(bytesToMs(bytes - format.bytesPerSample, format)).toBeLessThan(ms);
      }),
    );
  });
});

describe('AudioQueue', () => {
  it('is FIFO, counts bytes exactly and says when a frame would pass the bound', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.nat(300).map((n) => ({ push: n })),
            fc.constant({ shift: true }),
          ),
          {
            maxLength: 300,
          },
        ),
        (ops) => {
          const queue = new AudioQueue(2000);
          const model: Uint8Array[] = [];
          let id = 0;
          for (const op of ops) {
            if ('push' in op) {
              const frame = new Uint8Array(op.push).fill(id++ % 256);
              const fits = model.reduce((n, f) => n + f.length, 0) + frame.length <= 2000;
              expect(queue.fits(frame.length)).toBe(fits);
              if (fits) {
                queue.push(frame);
                model.push(frame);
              }
            } else {
              expect(queue.shift()).toBe(model.shift());
            }
            expect(queue.bytes).toBe(model.reduce((n, f) => n + f.length, 0));
            expect(queue.length).toBe(model.length);
            expect(queue.bytes).toBeLessThanOrEqual(2000);
          }
        },
      ),
    );
  });

  it('puts replayed frames back in front of the waiting ones', () => {
    const queue = new AudioQueue(100);
    const [a, b, c] = [new Uint8Array(1), new Uint8Array(2), new Uint8Array(3)];
    queue.push(c);
    queue.unshift([a, b]);
    expect([queue.shift(), queue.shift(), queue.shift(), queue.shift()]).toEqual([a, b, c, undefined]);
  });
});

describe('ReplayBuffer', () => {
  it('keeps exactly the frames not yet covered by a final turn, within its bound', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.integer({ min: 1, max: 400 }).map((n) => ({ send: n })),
            fc.nat(1).map(() => ({ final: true })),
          ),
          { maxLength: 200 },
        ),
        fc.integer({ min: 0, max: 3000 }),
        (ops, bound) => {
          const ring = new ReplayBuffer(bound);
          let offset = 0;
          let sent: { start: number; length: number }[] = [];
          let dropped = 0;
          for (const op of ops) {
            if ('send' in op) {
              ring.record(offset, new Uint8Array(op.send));
              if (bound > 0) sent.push({ start: offset, length: op.send });
              offset += op.send;
              while (sent.reduce((n, f) => n + f.length, 0) > bound) dropped += sent.shift()!.length;
            } else {
              // A final turn ending somewhere in the audio sent so far.
              const end = Math.floor(offset * 0.7);
              ring.trimBefore(end);
              sent = sent.filter((f) => f.start + f.length > end);
            }
            expect(ring.bytes).toBe(sent.reduce((n, f) => n + f.length, 0));
            expect(ring.bytes).toBeLessThanOrEqual(bound);
            expect(ring.droppedBytes).toBe(dropped);
            expect(ring.start).toBe(sent[0]?.start);
          }
          const taken = ring.take();
          expect(taken?.start).toBe(sent[0]?.start);
          expect(taken?.frames.map((f) => f.length) ?? []).toEqual(sent.map((f) => f.length));
          expect(ring.bytes).toBe(0);
        },
      ),
    );
  });
});
