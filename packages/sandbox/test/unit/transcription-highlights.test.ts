/** Key phrases (auto_highlights_result) the transcription emulator ranks from recognised words. */
import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import { extractHighlights } from '../../src/transcription/intelligence/index.js';

function words(text: string): TranscriptWord[] {
  return text
    .split(' ')
    .map((word, i) => ({ text: word, start: i * 300, end: i * 300 + 250, confidence: 0.9, speaker: null }));
}

describe('extractHighlights', () => {
  const call = words(
    'Hello, this is Tom Baker. My coffee machine arrived broken. The coffee machine leaks water. I want a refund for the coffee machine. Please send a return label.',
  );

  it('ranks the phrase said most often first, with its count and the time of every mention', () => {
    const { status, results } = extractHighlights(call);
    expect(status).toBe('success');
    expect(results[0]).toEqual({
      count: 3,
      rank: 1,
      text: 'coffee machine',
      timestamps: [
        { start: 1800, end: 2350 },
        { start: 3300, end: 3850 },
        { start: 6300, end: 6850 },
      ],
    });
  });

  it('keeps ranks in 0..1 and descending, leaves stopwords and bare numbers out', () => {
    const { results } = extractHighlights(words('my order number 85 is the order 85 and it is late'));
    for (const [i, r] of results.entries()) {
      expect(r.rank).toBeGreaterThan(0);
      expect(r.rank).toBeLessThanOrEqual(1);
      if (i > 0) expect(r.rank).toBeLessThanOrEqual(results[i - 1]!.rank);
      expect(r.text).not.toMatch(/^(?:my|is|the|and|it|85)$/i);
      expect(r.count).toBe(r.timestamps.length);
    }
  });

  it('answers success with no results for nothing said', () => {
    expect(extractHighlights([])).toEqual({ status: 'success', results: [] });
  });
});
