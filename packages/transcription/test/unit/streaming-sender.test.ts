import type { Clock } from '@x/core/socket';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audioFormat, bytesToMs, msToBytes } from '../../src/streaming/audio-format.js';
import type { QueueItem } from '../../src/streaming/audio-queue.js';
import { AudioSender } from '../../src/streaming/sender.js';
import { isSilent, type SkipTimeline } from '../../src/streaming/silence.js';

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
  | { offer: number; partial: boolean; quiet: boolean }
  | { tick: number }
  | { begin: true }
  | { drop: true }
  | { final: number }
  | { control: true };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      offer: fc.integer({ min: 0, max: 12_000 }),
      partial: fc.boolean(),
      // Digital silence, which the sender may skip while a backlog waits; the rest is loud.
      quiet: fc.boolean(),
    }),
  },
  { weight: 4, arbitrary: fc.record({ tick: fc.integer({ min: 0, max: 700 }) }) },
  { weight: 1, arbitrary: fc.constant({ begin: true as const }) },
  { weight: 1, arbitrary: fc.constant({ drop: true as const }) },
  { weight: 2, arbitrary: fc.record({ final: fc.double({ min: 0, max: 1, noNaN: true }) }) },
  { weight: 1, arbitrary: fc.constant({ control: true as const }) },
);

describe('AudioSender', () => {
  it('sends each session exactly the stream from its base less skipped silence, paced, within its bounds, and replays from the last final', () => {
    let skipping = 0;
    let cut = 0;
    fc.assert(
      // A short lead makes a backlog (and so skipping) common.
      fc.property(
        fc.array(op, { maxLength: 120, size: 'medium' }),
        fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 2000 })),
        (ops, lead) => {
          const clock = new ManualClock();
          let connected = false;
          let sessions: {
            timeline: SkipTimeline | undefined;
            startedAt: number;
            bytes: number[];
            /** Session byte offset of each frame sent. */
            frames: number[];
            replayFloor?: number;
            replayCut: boolean;
          }[] = [];
          let replayCut = false;
          let droppedAtBegin = 0;
          /** At the last drop: where the last final ended, if audio after it had been sent (bytes). */
          let replayFloor: number | undefined;
          const maxQueueMs = 3000;
          const sender = new AudioSender({
            format,
            frameMs: FRAME_MS,
            maxQueueMs,
            replayMs: 60_000,
            keepSilenceMs: () => 300,
            maxLeadMs: lead,
            maxBufferedBytes: 1 << 20,
            clock,
            transmit: (item: QueueItem) => {
              if (!connected) return false;
              const session = sessions[sessions.length - 1]!;
              if (typeof item !== 'string') {
                session.frames.push(session.bytes.length);
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
              const bytes = Uint8Array.from({ length: step.offer }, () =>
                step.quiet ? 0 : 1 + (next++ % 250),
              );
              const before = sender.queuedMs;
              const taken = sender.offer(bytes, step.partial);
              if (!step.partial) expect(taken === 0 || taken === bytes.length).toBe(true);
              input.push(...bytes.subarray(0, taken));
              if (!step.quiet) next -= step.offer - taken;
              if (taken > 0) expect(sender.queuedMs).toBeLessThanOrEqual(Math.max(maxQueueMs, before) + 1e-6);
            } else if ('tick' in step) clock.advance(step.tick);
            else if ('begin' in step) {
              if (connected) continue;
              connected = true;
              sessions.push({
                timeline: undefined,
                startedAt: clock.time,
                bytes: [],
                frames: [],
                replayFloor,
                replayCut,
              });
              droppedAtBegin = sender.droppedMs;
              sessions[sessions.length - 1]!.timeline = sender.sessionStarted();
              replayFloor = undefined;
            } else if ('drop' in step) {
              if (!connected) continue;
              connected = false;
              const sentTo = msToBytes(sender.offsetMs, format);
              replayFloor = sentTo > finalBytes ? finalBytes : undefined;
              sender.sessionLost();
              // The replay's bound, or the room in the queue, let go of audio the last final did not cover: the
              // replays start later until a final turn comes.
              replayCut ||= sender.droppedMs > droppedAtBegin;
            } else if ('final' in step) {
              if (!connected) continue;
              const sent = sessions[sessions.length - 1]!;
              const endMs = sent.timeline!.toStream(bytesToMs(sent.bytes.length, format) * step.final);
              sender.finalCovered(endMs);
              finalBytes = Math.max(finalBytes, Math.floor((endMs * 16000) / 1000) * 2);
              replayCut = false;
            } else sender.control('{"type":"ForceEndpoint"}');
            // A replay never takes the queue past its bound: live audio keeps its room.
            expect(sender.queuedMs).toBeLessThanOrEqual(maxQueueMs + 1e-6);
          }
          const streamByte = (timeline: SkipTimeline, sessionByte: number) =>
            Math.round((timeline.toStream(bytesToMs(sessionByte, format)) * 16000) / 1000) * 2;
          for (const session of sessions) {
            const timeline = session.timeline!;
            // Each frame is the stream's own audio at the time its timeline names (a replay is the same bytes
            // again), and whatever lies between two frames sent was skipped: silence only, as the sender
            // defines it (below -55 dBFS in every 10 ms; a lone quiet sample at a frame's edge is silence).
            let streamAt = streamByte(timeline, 0);
            for (const [i, at] of session.frames.entries()) {
              const end = session.frames[i + 1] ?? session.bytes.length;
              const from = streamByte(timeline, at);
              expect(from).toBeGreaterThanOrEqual(streamAt);
              expect(isSilent(Uint8Array.from(input.slice(streamAt, from)), format)).toBe(true);
              // Compared by hand: toEqual on long arrays would make the property slow.
              const frame = session.bytes.slice(at, end);
              expect(frame.every((b, k) => b === input[from + k])).toBe(true);
              expect(from + frame.length).toBeLessThanOrEqual(input.length);
              streamAt = from + end - at;
            }
          }
          // A new session starts on the frame that holds the last final turn's end: nothing after that final
          // is missing, and at most one frame before it is sent twice (unless the queue had no room for all).
          for (const session of sessions.slice(1)) {
            const base = msToBytes(session.timeline!.baseMs, format);
            expect(base % FRAME).toBe(0);
            if (session.replayFloor !== undefined && !session.replayCut) {
              expect(base).toBeLessThanOrEqual(session.replayFloor);
              expect(session.replayFloor - base).toBeLessThan(FRAME);
            }
          }
          if (sender.skippedMs > 0) skipping++;
          if (sessions.some((x) => x.replayCut)) cut++;
          sessions = [];
        },
      ),
      {
        numRuns: 200,
        examples: [
          // CI's seed for f2ba3f3: the frame before the speech ends in one quiet sample (513, far below
          // -55 dBFS over its 10 ms), which the sender rightly skipped as silence and the property took for sound.
          [
            [
              { offer: 9600, partial: false, quiet: true },
              { offer: 3196, partial: false, quiet: true },
              { begin: true },
              { offer: 2, partial: false, quiet: true },
              { offer: 4, partial: false, quiet: false },
              { offer: 3188, partial: false, quiet: false },
              { tick: 338 },
              { tick: 62 },
              { offer: 8, partial: false, quiet: false },
              { offer: 2, partial: false, quiet: false },
            ],
            0,
          ],
        ],
      },
    );
    // The runs did skip silence and cut replays, so the properties above were tested on both.
    expect(
      [skipping, cut].every((n) => n > 0),
      `${skipping} runs skipped, ${cut} cut a replay`,
    ).toBe(true);
  });

  it('resolves waiters for room and for an empty queue, and rejects them when stopped', async () => {
    const clock = new ManualClock();
    let connected = false;
    const sender = new AudioSender({
      format,
      frameMs: FRAME_MS,
      maxQueueMs: 1000,
      replayMs: 0,
      keepSilenceMs: () => 1000,
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
