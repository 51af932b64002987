import type { Clock } from '@x/core/socket';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audioFormat, bytesToMs, msToBytes } from '../../src/streaming/audio-format.js';
import type { QueueItem } from '../../src/streaming/audio-queue.js';
import { AudioSender } from '../../src/streaming/sender.js';

/** A clock the test moves by hand. */
class ManualClock implements Clock {
  time = 0;
  #timers: { at: number; run: () => void; id: number }[] = [];
  #ids = 0;
  now = () => this.time;
  setTimeout = (run: () => void, ms: number) => {
    const id = ++this.#ids;
    this.#timers.push({ at: this.time + ms, run, id });
    return id;
  };
  clearTimeout = (id: unknown) => {
    this.#timers = this.#timers.filter((t) => t.id !== id);
  };
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.#timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!next) break;
      this.#timers = this.#timers.filter((t) => t !== next);
      this.time = next.at;
      next.run();
    }
    this.time = end;
  }
}

const format = audioFormat(16000);
const FRAME_MS = 100;
const FRAME = msToBytes(FRAME_MS, format);

type Op =
  | { offer: number; partial: boolean }
  | { tick: number }
  | { begin: true }
  | { drop: true }
  | { final: number }
  | { control: true };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ offer: fc.integer({ min: 0, max: 12_000 }), partial: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ tick: fc.integer({ min: 0, max: 700 }) }) },
  { weight: 1, arbitrary: fc.constant({ begin: true as const }) },
  { weight: 1, arbitrary: fc.constant({ drop: true as const }) },
  { weight: 2, arbitrary: fc.record({ final: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ control: true as const }) },
);

describe('AudioSender', () => {
  it('sends each session exactly the stream from its base, paced, within its bounds, and replays from the last final', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), fc.integer({ min: 0, max: 2000 }), (ops, lead) => {
        const clock = new ManualClock();
        let connected = false;
        let sessions: { base: number; startedAt: number; bytes: number[]; replayFloor?: number }[] = [];
        /** At the last drop: where the last final ended, if audio after it had been sent (bytes). */
        let replayFloor: number | undefined;
        const maxQueueMs = 3000;
        const sender = new AudioSender({
          format,
          frameMs: FRAME_MS,
          maxQueueMs,
          replayMs: 60_000,
          maxLeadMs: lead,
          maxBufferedBytes: 1 << 20,
          clock,
          transmit: (item: QueueItem) => {
            if (!connected) return false;
            const session = sessions[sessions.length - 1]!;
            if (typeof item !== 'string') {
              session.bytes.push(...item);
              // Pace: the audio sent so far in this session is never ahead of its clock by more than the lead.
              expect(bytesToMs(session.bytes.length, format)).toBeLessThanOrEqual(
                clock.time - session.startedAt + lead + 1e-6,
              );
            }
            return true;
          },
          buffered: () => 0,
          drained: () => {},
        });
        const input: number[] = [];
        let next = 0;
        let finalBytes = 0;
        for (const step of ops) {
          if ('offer' in step) {
            const bytes = Uint8Array.from({ length: step.offer }, () => next++ % 251);
            const before = sender.queuedMs;
            const taken = sender.offer(bytes, step.partial);
            if (!step.partial) expect(taken === 0 || taken === bytes.length).toBe(true);
            input.push(...bytes.subarray(0, taken));
            next -= step.offer - taken;
            // The bound holds for what is taken (a replay may put back more, bounded by the replay buffer).
            if (taken > 0) expect(sender.queuedMs).toBeLessThanOrEqual(Math.max(maxQueueMs, before) + 1e-6);
          } else if ('tick' in step) clock.advance(step.tick);
          else if ('begin' in step) {
            if (connected) continue;
            connected = true;
            sessions.push({ base: 0, startedAt: clock.time, bytes: [], replayFloor });
            sessions[sessions.length - 1]!.base = sender.sessionStarted();
            replayFloor = undefined;
          } else if ('drop' in step) {
            if (!connected) continue;
            connected = false;
            const sentTo = msToBytes(sender.offsetMs, format);
            replayFloor = sentTo > finalBytes ? finalBytes : undefined;
            sender.sessionLost();
          } else if ('final' in step) {
            if (!connected) continue;
            const sent = sessions[sessions.length - 1]!;
            const endMs = sent.base + bytesToMs(sent.bytes.length, format) * step.final;
            sender.finalCovered(endMs);
            finalBytes = Math.max(finalBytes, Math.floor((endMs * 16000) / 1000) * 2);
          } else sender.control('{"type":"ForceEndpoint"}');
        }
        for (const session of sessions) {
          const start = msToBytes(session.base, format);
          // The session's audio is the stream itself from its base: a replay is the same bytes again.
          expect(session.bytes).toEqual(input.slice(start, start + session.bytes.length));
        }
        // A new session starts on the frame that holds the last final turn's end: nothing after that final
        // is missing, and at most one frame before it is sent twice.
        for (const session of sessions.slice(1)) {
          const base = msToBytes(session.base, format);
          expect(base % FRAME).toBe(0);
          if (session.replayFloor !== undefined) {
            expect(base).toBeLessThanOrEqual(session.replayFloor);
            expect(session.replayFloor - base).toBeLessThan(FRAME);
          }
        }
        sessions = [];
      }),
      { numRuns: 300 },
    );
  });

  it('resolves waiters for room and for an empty queue, and rejects them when stopped', async () => {
    const clock = new ManualClock();
    let connected = false;
    const sender = new AudioSender({
      format,
      frameMs: FRAME_MS,
      maxQueueMs: 1000,
      replayMs: 0,
      maxLeadMs: Number.POSITIVE_INFINITY,
      maxBufferedBytes: 1 << 20,
      clock,
      transmit: () => connected,
      buffered: () => 0,
      drained: () => drains++,
    });
    let drains = 0;
    expect(sender.offer(new Uint8Array(msToBytes(1000, format)), false)).toBe(msToBytes(1000, format));
    expect(sender.offer(new Uint8Array(2), false)).toBe(0);
    const room = sender.wait(false);
    const empty = sender.wait(true);
    connected = true;
    sender.sessionStarted();
    await expect(room).resolves.toBeUndefined();
    await expect(empty).resolves.toBeUndefined();
    expect(drains).toBe(1);
    connected = false;
    sender.sessionLost();
    sender.offer(new Uint8Array(msToBytes(1000, format)), false);
    const stuck = sender.wait(true);
    sender.stop(new Error('closed'));
    await expect(stuck).rejects.toThrow('closed');
  });
});
