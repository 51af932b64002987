import { describe, expect, it } from 'vitest';
import {
  analyseSentiment,
  keySentence,
  MAX_NOTE_BYTES,
  orderNoteText,
  safetyFlags,
  summarise,
  type TranscriptInput,
} from '../../src/server/analysis/summary.js';
import { numberToWords, sampleCallScript, scriptText } from '../../src/server/sample-call.js';

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

  const known = { spoken: 'Jane Smith', onRecord: 'Jane Smith', orderNumber: '88', matches: true };
  const unknown = { spoken: null, onRecord: null, orderNumber: null, matches: null };
  const mismatch = { spoken: 'Tom Baker', onRecord: 'Amara Okafor', orderNumber: '85', matches: false };

  it('says who called about which order, for how long, and how they sounded', () => {
    expect(summarise(analysis, { orderNumbers: ['88'], identity: known })).toBe(
      'Jane Smith called about order #88 (0:15); the customer sounded unhappy. Key line: "This is terrible service please send me your refund."',
    );
    expect(summarise({ ...analysis, overall: 'NEUTRAL' }, { orderNumbers: [], identity: unknown })).toBe(
      'An unidentified caller called without naming an order (0:15); the customer sounded neutral.',
    );
  });

  it("names both the caller and the order's customer when they differ, preferring neither", () => {
    const summary = summarise(analysis, { orderNumbers: ['85'], identity: mismatch });
    expect(summary).toContain('A caller giving the name Tom Baker called about order #85');
    expect(summary).toContain('Check who called: caller said Tom Baker; order #85 belongs to Amara Okafor.');
    expect(orderNoteText(analysis, summary, mismatch)).toContain(
      '\nCaller identity: caller said Tom Baker; order #85 belongs to Amara Okafor.\n',
    );
    expect(orderNoteText(analysis, 'S', known)).not.toContain('Caller identity');
  });

  it("writes the note with the summary, the sentiment, the service's summary, action items, entities and flags", () => {
    const note = orderNoteText(
      {
        ...analysis,
        safetyFlags: [{ label: 'weapons', confidence: 0.5775, text: 'x' }],
        serviceSummary: 'Refund request: the parcel arrived damaged.',
        actionItems: ['Send Jane a refund.', 'Check the courier.'],
        entities: [
          { entity_type: 'person_name', text: 'Jane Smith' },
          { entity_type: 'order_number', text: '88' },
        ],
      },
      'Summary text.',
      known,
    );
    expect(note).toBe(
      [
        'Support call analysed (transcript tr_1).',
        'Summary: Summary text.',
        'Overall sentiment: NEGATIVE (all sentences; score -0.40; 3 negative, 4 neutral, 1 positive).',
        'Call summary: Refund request: the parcel arrived damaged.',
        'Action items:',
        '- Send Jane a refund.',
        '- Check the courier.',
        'Entities: Jane Smith (person_name), 88 (order_number).',
        'Content safety: weapons (58%).',
      ].join('\n'),
    );
    const bare = orderNoteText(analysis, 'S', unknown);
    expect(bare).toContain('Call summary: none from the transcription service.');
    expect(bare).toContain('Action items: none.');
    expect(bare).toContain('Entities: none.');
    expect(bare).toContain('Content safety: none.');
  });

  it("keeps the note within WooCommerce's 65,535 bytes, cutting the service's parts first", () => {
    const huge = {
      ...analysis,
      safetyFlags: [{ label: 'profanity', confidence: 0.9, text: 'x' }],
      serviceSummary: 'é'.repeat(40_000),
      actionItems: Array.from({ length: 300 }, (_, i) => `${i} ${'x'.repeat(500)}`),
      entities: [{ entity_type: 'person_name', text: '😀'.repeat(5_000) }],
    };
    const note = orderNoteText(huge, 'Summary text.', known);
    expect(Buffer.byteLength(note, 'utf8')).toBeLessThanOrEqual(MAX_NOTE_BYTES);
    expect(note).toMatch(/^Support call analysed \(transcript tr_1\)\.\nSummary: Summary text\.\n/);
    expect(note).toContain('\n[cut to fit the store]\nContent safety: profanity (90%).');
    expect(note).not.toContain('\uFFFD');
    // A desk summary too long on its own (a key line of a long sentence) cuts the note's end.
    const long = orderNoteText(analysis, `${'ü'.repeat(40_000)}`, known);
    expect(Buffer.byteLength(long, 'utf8')).toBeLessThanOrEqual(MAX_NOTE_BYTES);
    expect(long).toMatch(/\n\[cut to fit the store\]$/);
    // A note that fits is not touched.
    expect(orderNoteText(analysis, 'S', known)).not.toContain('cut to fit');
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

  it('is an agent and a customer taking turns: the customer names themself and the order', () => {
    const lines = sampleCallScript({
      orderNumber: '85',
      firstName: 'Amara',
      lastName: 'Okafor',
      mood: 'unhappy',
    });
    expect(lines[0]).toEqual({
      speaker: 'agent',
      text: 'Thank you for calling the support desk. How can I help you?',
    });
    const customer = lines
      .filter((l) => l.speaker === 'customer')
      .map((l) => l.text)
      .join(' ');
    const agent = lines
      .filter((l) => l.speaker === 'agent')
      .map((l) => l.text)
      .join(' ');
    expect(customer).toContain('my name is Amara Okafor.');
    expect(customer).toContain('My order number eighty five arrived broken, and I want a refund.');
    expect(agent).not.toContain('eighty five');
    expect(scriptText(lines)).toMatch(/^Thank you for calling/);
    const other = sampleCallScript({
      orderNumber: '85',
      firstName: 'Amara',
      lastName: 'Okafor',
      mood: 'happy',
      callerName: 'Tom Baker',
    });
    expect(scriptText(other)).toContain('my name is Tom Baker. I am calling about order number eighty five.');
    expect(
      scriptText(sampleCallScript({ orderNumber: 'A-12', firstName: '', lastName: '', mood: 'happy' })),
    ).toContain('my name is a customer. I am calling about order number A-12. Everything arrived on time');
  });
});
