/**
 * Fuzzing speaker diarization's inputs (fast-check): the clustering over arbitrary pitches and weights (NaN,
 * infinities, negatives, duplicates), the per-word diarization over arbitrary word times and voices, the pitch
 * tracker over arbitrary 16-bit samples, and speakers_expected / speaker_options of any JSON shape. Nothing may
 * throw; the answers must hold: one label per input, within the allowed count, letters in order of first
 * appearance; and voices that are far apart in pitch are always told apart.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { voiceOf } from '../../src/transcription/engine/index.js';
import { clusterVoices } from '../../src/transcription/speakers/cluster.js';
import { diarize } from '../../src/transcription/speakers/diarize.js';
import {
  MAX_SPEAKERS,
  type SpeakerRange,
  speakerOptionsProblem,
  speakerRange,
} from '../../src/transcription/speakers/options.js';

const anyNumber = fc.oneof(
  fc.double(),
  fc.integer({ min: -5, max: 40 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0, -0),
);
const range: fc.Arbitrary<SpeakerRange> = fc
  .tuple(fc.integer({ min: 1, max: MAX_SPEAKERS }), fc.integer({ min: 1, max: MAX_SPEAKERS }), fc.boolean())
  .map(([a, b, exact]) => {
    const min = Math.min(a, b);
    return exact ? { min, max: min, exact } : { min, max: Math.max(a, b), exact: false };
  });
const unit = fc.record({ pitch: fc.oneof(anyNumber, fc.constant(null)), weight: anyNumber });

/** Labels are 0, then each new one the next number: letters in order of first appearance. */
function expectFirstAppearanceOrder(labels: readonly number[]): void {
  let next = 0;
  for (const label of labels) {
    expect(label).toBeLessThanOrEqual(next);
    if (label === next) next++;
  }
}

describe('speaker clustering', () => {
  for (const run of fuzzRuns(400)) {
    it(`clusterVoices never throws and labels every unit within the range, ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(fc.array(unit, { maxLength: 120 }), range, (units, r) => {
          n++;
          const labels = clusterVoices(units, r);
          expect(labels).toHaveLength(units.length);
          for (const label of labels) {
            expect(Number.isInteger(label)).toBe(true);
            expect(label).toBeGreaterThanOrEqual(0);
            expect(label).toBeLessThan(r.max);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speaker clustering units', run, n);
    });

    it(`voices far apart in pitch are told apart, with the count open or given, ${run.label}`, () => {
      let n = 0;
      const groups = fc.integer({ min: 1, max: 5 }).chain((k) =>
        fc.tuple(
          fc.constant(k),
          // Each unit: its voice and a wobble of at most 1 semitone; voices are 8 semitones apart.
          fc.array(
            fc.tuple(fc.integer({ min: 0, max: k - 1 }), fc.double({ min: -1, max: 1, noNaN: true })),
            {
              minLength: k,
              maxLength: 60,
            },
          ),
          fc.boolean(),
        ),
      );
      fc.assert(
        fc.property(groups, ([k, draws, exact]) => {
          // Every voice speaks at least once, with enough voice to count as a speaker.
          const voices = [...Array.from({ length: k }, (_, v) => v), ...draws.map(([v]) => v)];
          const units = voices.map((v, i) => ({ pitch: 20 + 8 * v + (draws[i - k]?.[1] ?? 0), weight: 12 }));
          const labels = clusterVoices(
            units,
            exact ? { min: k, max: k, exact: true } : { min: 1, max: 10, exact: false },
          );
          n++;
          const byVoice = new Map<number, number>();
          voices.forEach((v, i) => {
            if (!byVoice.has(v)) byVoice.set(v, labels[i]!);
            expect(labels[i]).toBe(byVoice.get(v));
          });
          expect(new Set(byVoice.values()).size).toBe(k);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speaker clustering separable voices', run, n);
    });

    it(`diarize never throws; one speaker per word, in order of first appearance, ${run.label}`, () => {
      let n = 0;
      const word = fc.record({ start: anyNumber, end: anyNumber });
      const voice = fc.record({
        pitch_hz: fc.oneof(anyNumber, fc.constant(null)),
        voiced_frames: anyNumber,
        energy_db: fc.oneof(anyNumber, fc.constant(null)),
      });
      fc.assert(
        fc.property(
          fc.array(fc.tuple(word, voice), { maxLength: 80 }),
          range,
          fc.boolean(),
          (pairs, r, withVoices) => {
            n++;
            const words = pairs.map(([w]) => w);
            const speakers = diarize(words, withVoices ? pairs.map(([, v]) => v) : undefined, r);
            expect(speakers).toHaveLength(words.length);
            expectFirstAppearanceOrder(speakers);
            expect(new Set(speakers).size).toBeLessThanOrEqual(r.max);
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speaker diarization words', run, n);
    });
  }
});

describe('pitch tracking', () => {
  for (const run of fuzzRuns(60)) {
    it(`voiceOf takes any 16-bit samples: pitch within 60-400 Hz or none, ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(fc.array(fc.integer({ min: -32768, max: 32767 }), { maxLength: 4000 }), (ints) => {
          n++;
          const voice = voiceOf(Float64Array.from(ints, (x) => x / 32768));
          if (voice.pitch_hz !== null) {
            expect(voice.pitch_hz).toBeGreaterThanOrEqual(55);
            expect(voice.pitch_hz).toBeLessThanOrEqual(420);
            expect(voice.voiced_frames).toBeGreaterThan(0);
          }
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('pitch tracker samples', run, n);
    });

    it(`a pure tone's pitch is found within a semitone, ${run.label}`, () => {
      let n = 0;
      fc.assert(
        fc.property(
          fc.double({ min: 70, max: 380, noNaN: true }),
          fc.double({ min: 0.05, max: 0.9, noNaN: true }),
          (hz, amp) => {
            n++;
            const samples = Float64Array.from(
              { length: 4000 },
              (_, i) => amp * Math.sin((2 * Math.PI * hz * i) / 8000),
            );
            const voice = voiceOf(samples);
            expect(voice.pitch_hz).not.toBeNull();
            expect(Math.abs(12 * Math.log2(voice.pitch_hz! / hz))).toBeLessThan(1);
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('pitch tracker tones', run, n);
    });
  }
});

describe('speaker options', () => {
  for (const run of fuzzRuns(500)) {
    it(`any speakers_expected / speaker_options: a field-naming refusal or a range within 1-${MAX_SPEAKERS}, ${run.label}`, () => {
      let n = 0;
      const value = fc.oneof(fc.jsonValue(), anyNumber, fc.constant(undefined));
      const options = fc.oneof(
        value,
        fc.record({ min_speakers_expected: value, max_speakers_expected: value }, { requiredKeys: [] }),
      );
      fc.assert(
        fc.property(value, options, (speakers_expected, speaker_options) => {
          n++;
          const params = { speakers_expected, speaker_options };
          const problem = speakerOptionsProblem(params);
          if (problem !== null) expect(problem).toMatch(/^speaker_options/);
          const r = speakerRange(params);
          expect(Number.isInteger(r.min) && Number.isInteger(r.max)).toBe(true);
          expect(1 <= r.min && r.min <= r.max && r.max <= MAX_SPEAKERS).toBe(true);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('speaker options', run, n);
    });
  }
});
