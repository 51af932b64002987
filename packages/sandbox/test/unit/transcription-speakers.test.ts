/**
 * The speaker pieces on their own: stretches between pauses, one-word flips, first-appearance letters, the
 * count rules, multichannel labels and utterances. Voices are given as pitches here; the contract tests
 * (test/contract/speakers-diarization.test.ts) measure them from real speech.
 */
import { describe, expect, it } from 'vitest';
import { buildUtterances, type TranscriptWord } from '../../src/transcription/derive/index.js';
import type { WordVoice } from '../../src/transcription/engine/index.js';
import { diarize, TURN_PAUSE_MS } from '../../src/transcription/speakers/diarize.js';
import { labelWords } from '../../src/transcription/speakers/label.js';
import { speakerRange } from '../../src/transcription/speakers/options.js';

const OPEN = speakerRange({});

/** Words of 300 ms; `gaps[i]` ms of silence before word i. */
function timeline(gaps: number[]) {
  let at = 0;
  return gaps.map((gap) => {
    at += gap;
    const word = { start: at, end: at + 300 };
    at += 300;
    return word;
  });
}
const voice = (pitch_hz: number | null, voiced_frames = 12): WordVoice => ({
  pitch_hz,
  voiced_frames: pitch_hz === null ? 0 : voiced_frames,
  energy_db: -20,
});

describe('diarize', () => {
  it('a change of voice after a pause is a new speaker; letters follow first appearance', () => {
    const words = timeline([0, 10, 400, 10, 400, 10]);
    const voices = [200, 205, 100, 98, 201, 199].map((hz) => voice(hz));
    expect(diarize(words, voices, OPEN)).toEqual([0, 0, 1, 1, 0, 0]);
    // The low voice first: it is speaker 0 (A).
    expect(diarize(words, [...voices.slice(2, 4), ...voices.slice(0, 2), ...voices.slice(4)], OPEN)).toEqual([
      0, 0, 1, 1, 1, 1,
    ]);
  });

  it('no turn changes within a stretch without a pause, whatever the pitch does', () => {
    const words = timeline([0, 10, 10, 10]);
    expect(
      new Set(
        diarize(
          words,
          [200, 100, 200, 100].map((hz) => voice(hz)),
          OPEN,
        ),
      ).size,
    ).toBe(1);
  });

  it('a one-word stretch between two stretches of one speaker is smoothed into theirs', () => {
    const words = timeline([0, 10, TURN_PAUSE_MS, 10, TURN_PAUSE_MS, TURN_PAUSE_MS, 10]);
    // After A's stretch, B speaks; a one-word stretch of A's pitch sits between two of B's (a pitch error).
    const voices = [200, 200, 100, 100, 200, 100, 100].map((hz) => voice(hz, 30));
    expect(diarize(words, voices, { min: 2, max: 2, exact: true })).toEqual([0, 0, 1, 1, 1, 1, 1]);
  });

  it('but not when that word is the only one of its speaker', () => {
    const words = timeline([0, 10, TURN_PAUSE_MS, TURN_PAUSE_MS, 10]);
    const voices = [200, 200, 100, 200, 200].map((hz) => voice(hz, 30));
    expect(diarize(words, voices, { min: 2, max: 2, exact: true })).toEqual([0, 0, 1, 0, 0]);
  });

  it('speakers_expected 1 joins every voice; unvoiced stretches follow their neighbours', () => {
    const words = timeline([0, 400, 400, 400]);
    const voices = [voice(null), voice(200), voice(100), voice(null)];
    expect(diarize(words, voices, speakerRange({ speakers_expected: 1 }))).toEqual([0, 0, 0, 0]);
    expect(diarize(words, voices, OPEN)).toEqual([0, 0, 1, 1]);
  });
});

describe('speaker counts', () => {
  it('speakers_expected wins; the default range is 1 to 10; a minimum above 10 lifts the maximum', () => {
    expect(speakerRange({ speakers_expected: 3, speaker_options: { min_speakers_expected: 5 } })).toEqual({
      min: 3,
      max: 3,
      exact: true,
    });
    expect(speakerRange({})).toEqual({ min: 1, max: 10, exact: false });
    expect(speakerRange({ speaker_options: { min_speakers_expected: 12 } })).toEqual({
      min: 12,
      max: 12,
      exact: true,
    });
    expect(speakerRange({ speaker_options: { max_speakers_expected: 1_000 } })).toEqual({
      min: 1,
      max: 26,
      exact: false,
    });
  });
});

describe('labelWords and buildUtterances', () => {
  const track = (channel: number, starts: number[]) => ({
    channel,
    words: starts.map((start) => ({ text: `w${start}`, start, end: start + 100, confidence: 0.5 })),
  });

  it('multichannel: words merged in time order, channel as speaker, utterances per turn', () => {
    const words = labelWords(
      { multichannel: true },
      [track(1, [0, 200, 900]), track(2, [500, 700])],
      () => true,
    );
    expect(words.map((w) => [w.start, w.channel, w.speaker])).toEqual([
      [0, '1', '1'],
      [200, '1', '1'],
      [500, '2', '2'],
      [700, '2', '2'],
      [900, '1', '1'],
    ]);
    const utterances = buildUtterances(words);
    expect(utterances.map((u) => [u.speaker, u.channel, u.start, u.end, u.words.length])).toEqual([
      ['1', '1', 0, 300, 2],
      ['2', '2', 500, 800, 2],
      ['1', '1', 900, 1000, 1],
    ]);
  });

  it('multichannel with speaker_labels: {channel}{letter}; mono without labels: speaker null, no channel', () => {
    const both = labelWords(
      { multichannel: true, speaker_labels: true },
      [track(1, [0]), track(2, [500])],
      () => true,
    );
    expect(both.map((w) => w.speaker)).toEqual(['1A', '2A']);
    const plain = labelWords({}, [{ channel: null, words: track(1, [0]).words }], () => true);
    expect(plain).toEqual([{ text: 'w0', start: 0, end: 100, confidence: 0.5, speaker: null }]);
  });

  it('an utterance has its words, their text and span, and their mean confidence', () => {
    const words: TranscriptWord[] = [
      { text: 'Hi', start: 0, end: 100, confidence: 0.2, speaker: 'A' },
      { text: 'there.', start: 100, end: 300, confidence: 0.6, speaker: 'A' },
      { text: 'Yes.', start: 800, end: 900, confidence: 1, speaker: 'B' },
    ];
    expect(buildUtterances(words)).toEqual([
      { text: 'Hi there.', start: 0, end: 300, confidence: 0.4, speaker: 'A', words: words.slice(0, 2) },
      { text: 'Yes.', start: 800, end: 900, confidence: 1, speaker: 'B', words: words.slice(2) },
    ]);
  });
});
