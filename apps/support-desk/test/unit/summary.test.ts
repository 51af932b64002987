import { describe, expect, it } from 'vitest';
import {
  analyseSentiment,
  keySentence,
  orderNoteText,
  safetyFlags,
  summarise,
  type TranscriptInput,
} from '../../src/server/analysis/summary.js';
import { numberToWords, sampleCallScript } from '../../src/server/sample-call.js';

const s = (sentiment: string, text: string, start: number, end: number) => ({
  sentiment,
  text,
  start,
  end,
  confidence: 0.9,
});

// As the sandbox transcribed the unhappy sample call about order 88.
const unhappy: TranscriptInput = {
  id: 'tr_1',
  text: 'Hello. My name is jane smith. I am calling about order number 88. I am very unhappy. Thank you.',
  audio_duration: 15,
  sentiment_analysis_results: [
    s('NEUTRAL', 'Hello.', 220, 730),
    s('NEUTRAL', 'My name is jane smith.', 880, 2410),
    s('NEUTRAL', 'I am calling about order number 88.', 2630, 5280),
    s('NEUTRAL', 'The parcel arrived two weeks lead.', 5480, 7440),
    s('NEGATIVE', 'And the box was damaged.', 7610, 9020),
    s('NEGATIVE', 'I am very unhappy.', 9230, 10650),
    s('NEGATIVE', 'This is terrible service please send me your refund.', 10840, 14020),
    s('POSITIVE', 'Thank you.', 14240, 14900),
  ],
  content_safety_labels: { status: 'success', results: [] },
};

describe('analyseSentiment', () => {
  it('weights sentences by duration: a closing "Thank you." does not outweigh the complaint', () => {
    const a = analyseSentiment(unhappy);
    expect(a.overall).toBe('NEGATIVE');
    expect(a.counts).toEqual({ POSITIVE: 1, NEUTRAL: 4, NEGATIVE: 3 });
    expect(a.score).toBeLessThan(-0.15);
    expect(a.durationMs).toBe(15_000);
    expect(a.sentences).toHaveLength(8);
    expect(a.safetyFlags).toEqual([]);
  });

  it('calls a mostly neutral call neutral, and copes with no sentiment results', () => {
    const neutral = analyseSentiment({
      id: 't',
      sentiment_analysis_results: [s('NEUTRAL', 'a', 0, 5000), s('POSITIVE', 'b', 5000, 5500)],
    });
    expect(neutral.overall).toBe('NEUTRAL');
    const empty = analyseSentiment({ id: 't', text: null });
    expect(empty).toMatchObject({ overall: 'NEUTRAL', score: 0, sentences: [], text: '', durationMs: 0 });
  });

  it('reads unknown sentiment values as neutral (the service may add some)', () => {
    const a = analyseSentiment({ id: 't', sentiment_analysis_results: [s('MIXED', 'x', 0, 100)] });
    expect(a.sentences[0]!.sentiment).toBe('NEUTRAL');
  });
});

describe('safetyFlags', () => {
  it('keeps labels at or above 50% confidence, strongest first', () => {
    const flags = safetyFlags({
      id: 't',
      content_safety_labels: {
        results: [
          {
            text: 'a gun inside',
            labels: [
              { label: 'weapons', confidence: 0.58 },
              { label: 'crime', confidence: 0.2 },
            ],
          },
          { text: 'damn it', labels: [{ label: 'profanity', confidence: 0.9 }] },
        ],
      },
    });
    expect(flags).toEqual([
      { label: 'profanity', confidence: 0.9, text: 'damn it' },
      { label: 'weapons', confidence: 0.58, text: 'a gun inside' },
    ]);
  });
});

describe('summaries and notes', () => {
  const analysis = analyseSentiment(unhappy);

  it('quotes the longest sentence of the overall sentiment', () => {
    expect(keySentence(analysis)).toBe('This is terrible service please send me your refund.');
  });

  it('says who called about which order, for how long, and how they sounded', () => {
    expect(summarise(analysis, { orderNumbers: ['88'], customerName: 'Jane Smith' })).toBe(
      'Jane Smith called about order #88 (0:15); the caller sounded unhappy. Key line: "This is terrible service please send me your refund."',
    );
    expect(summarise({ ...analysis, overall: 'NEUTRAL' }, { orderNumbers: [], customerName: null })).toBe(
      'An unidentified caller called without naming an order (0:15); the caller sounded neutral.',
    );
  });

  it('writes the note with the summary, the sentiment and the content-safety flags', () => {
    const note = orderNoteText(
      { ...analysis, safetyFlags: [{ label: 'weapons', confidence: 0.5775, text: 'x' }] },
      'Summary text.',
    );
    expect(note).toBe(
      [
        'Support call analysed (transcript tr_1).',
        'Summary: Summary text.',
        'Overall sentiment: NEGATIVE (score -0.40; 3 negative, 4 neutral, 1 positive sentences).',
        'Content safety: weapons (58%).',
      ].join('\n'),
    );
    expect(orderNoteText(analysis, 'S')).toContain('Content safety: none.');
  });
});

describe('sample call script', () => {
  it('says numbers as words', () => {
    expect(numberToWords(0)).toBe('zero');
    expect(numberToWords(84)).toBe('eighty four');
    expect(numberToWords(90)).toBe('ninety');
    expect(numberToWords(1203)).toBe('one thousand two hundred three');
    expect(() => numberToWords(-1)).toThrow(RangeError);
  });

  it('names the caller and the order, and complains or thanks', () => {
    const script = sampleCallScript({
      orderNumber: '88',
      firstName: 'Jane',
      lastName: 'Smith',
      mood: 'unhappy',
    });
    expect(script).toContain('my name is Jane Smith.');
    expect(script).toContain('order number eighty eight.');
    expect(script).toContain('I am very unhappy.');
    expect(sampleCallScript({ orderNumber: 'A-12', firstName: '', lastName: '', mood: 'happy' })).toContain(
      'my name is a customer. I am calling about order number A-12. Everything arrived on time',
    );
  });
});
