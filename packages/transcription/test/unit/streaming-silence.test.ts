import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { audioFormat } from '../../src/streaming/audio-format.js';
import { isSilent, pauseToKeepMs, SilenceSkipper, SkipTimeline } from '../../src/streaming/silence.js';
import { TurnTracker } from '../../src/streaming/turns.js';

const pcm = audioFormat(16000);
/** 16-bit samples per 10 ms at 16 kHz. */
const WINDOW = 160;

/** A frame of 16-bit PCM from 10 ms windows: each quiet (|sample| ≤ 50, -56 dBFS at most) or loud (RMS ≥ 60). */
const windows = fc.array(
  fc.oneof(
    fc.record({
      loud: fc.constant(false),
      samples: fc.array(fc.integer({ min: -50, max: 50 }), { minLength: WINDOW, maxLength: WINDOW }),
    }),
    fc.record({
      loud: fc.constant(true),
      level: fc.integer({ min: 60, max: 32767 }),
      at: fc.integer({ min: 0, max: WINDOW - 1 }),
    }),
  ),
  { minLength: 1, maxLength: 10 },
);

type Window = { loud: boolean; samples?: number[]; level?: number };

function frameOf(list: Window[]): Uint8Array {
  const samples = new Int16Array(list.length * WINDOW);
  list.forEach((w, i) => {
    // A loud window is one full-scale-ish constant stretch (RMS = level), its sign flipping halfway.
    for (let k = 0; k < WINDOW; k++) {
      samples[i * WINDOW + k] = w.loud ? (k < WINDOW / 2 ? w.level! : -w.level!) : w.samples![k]!;
    }
  });
  return new Uint8Array(samples.buffer);
}

describe('isSilent', () => {
  it('is silent exactly when every 10 ms window is below the level (one loud window keeps the frame)', () => {
    fc.assert(
      fc.property(windows, (list) => {
        expect(isSilent(frameOf(list), pcm)).toBe(list.every((w) => !w.loud));
      }),
      { numRuns: 300 },
    );
  });

  it('reads μ-law: its silence byte is silent, a loud byte is not', () => {
    const mulaw = audioFormat(8000, 'pcm_mulaw');
    expect(isSilent(new Uint8Array(800).fill(0xff), mulaw)).toBe(true);
    expect(isSilent(new Uint8Array(800).fill(0x7f), mulaw)).toBe(true);
    const frame = new Uint8Array(800).fill(0xff);
    frame[400] = 0x00; // the loudest negative value
    expect(isSilent(frame, mulaw)).toBe(false);
  });
});

describe('SilenceSkipper', () => {
  it('never skips a loud frame, keeps at least keepMs of every pause (its start), and skips the rest under a backlog', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ silent: fc.boolean(), backlog: fc.boolean() }), { maxLength: 200 }),
        fc.integer({ min: 50, max: 1000 }),
        fc.integer({ min: 0, max: 3000 }),
        (frames, frameMs, keepMs) => {
          const loud = frameOf([{ loud: true, level: 1000 }]);
          const quiet = new Uint8Array(loud.length);
          const skipper = new SilenceSkipper(pcm, () => keepMs);
          const skipped = frames.map((f) => skipper.skip(f.silent ? quiet : loud, frameMs, f.backlog));
          let kept = 0;
          for (const [i, f] of frames.entries()) {
            if (!f.silent) {
              expect(skipped[i]).toBe(false);
              kept = 0;
              continue;
            }
            // Skipped only under a backlog and once the pause has had keepMs sent; sent otherwise.
            expect(skipped[i]).toBe(f.backlog && kept >= keepMs);
            if (!skipped[i]) kept += frameMs;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps max_turn_silence and a margin of each pause', () => {
    expect(pauseToKeepMs(1000)).toBeGreaterThan(1000);
    expect(pauseToKeepMs(undefined)).toBeGreaterThan(1280);
  });
});

describe('SkipTimeline', () => {
  it('maps every frame sent back to its place in the stream, whatever was skipped around it', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(fc.record({ ms: fc.integer({ min: 1, max: 1000 }), skip: fc.boolean() }), {
          maxLength: 100,
        }),
        (base, frames) => {
          const timeline = new SkipTimeline(base);
          let stream = base;
          let session = 0;
          const sent: { session: number; stream: number }[] = [];
          for (const f of frames) {
            if (f.skip) timeline.add(session, f.ms);
            else {
              sent.push({ session, stream });
              session += f.ms;
            }
            stream += f.ms;
          }
          for (const s of sent) expect(timeline.toStream(s.session)).toBe(s.stream);
          expect(timeline.skippedMs).toBe(frames.filter((f) => f.skip).reduce((n, f) => n + f.ms, 0));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('is piecewise: a time after a skip point gets the skipped time added, a time before it does not', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ at: fc.integer({ min: 0, max: 10_000 }), ms: fc.integer({ min: 1, max: 5000 }) }),
          { maxLength: 30 },
        ),
        fc.array(fc.double({ min: 0, max: 12_000, noNaN: true }), { maxLength: 30 }),
        (skips, times) => {
          const sorted = [...skips].sort((a, b) => a.at - b.at);
          const timeline = new SkipTimeline(0);
          for (const s of sorted) timeline.add(s.at, s.ms);
          for (const t of times) {
            const added = sorted.filter((s) => s.at <= t).reduce((n, s) => n + s.ms, 0);
            expect(timeline.toStream(t)).toBe(t + added);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('moves whole words past a skip in the turns the tracker emits', () => {
    const timeline = new SkipTimeline(2000);
    timeline.add(1500, 3000);
    const tracker = new TurnTracker();
    tracker.startSession(timeline);
    const word = (text: string, start: number, end: number) => ({
      text,
      start,
      end,
      confidence: 1,
      word_is_final: true,
    });
    const turn = tracker.accept({
      type: 'Turn',
      turn_order: 0,
      turn_is_formatted: false,
      end_of_turn: true,
      transcript: 'before after',
      end_of_turn_confidence: 1,
      words: [word('before', 1000, 1400), word('after', 1500, 1900)],
    });
    expect(turn?.words.map((w) => [w.start, w.end])).toEqual([
      [3000, 3400],
      [6500, 6900],
    ]);
    expect(tracker.speechStarted({ type: 'SpeechStarted', timestamp: 1600 }).timestamp).toBe(6600);
  });
});
