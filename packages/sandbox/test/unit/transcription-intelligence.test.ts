/** Sentiment and content-safety results the transcription emulator derives from sentences (AssemblyAI shapes). */
import { describe, expect, it } from 'vitest';
import {
  type AnalysisSentence,
  analyseContentSafety,
  analyseSentiment,
  type ContentSafetyLabelsResult,
  classifySentiment,
} from '../../src/transcription/intelligence/index.js';
import { scoreSentence } from '../../src/transcription/intelligence/sentiment-score.js';
import labelled from '../fixtures/sentiment-sentences.json' with { type: 'json' };

/** Sentences 1 s apart, 900 ms long, so timestamps are easy to predict. */
function sentences(texts: readonly string[], extra: Partial<AnalysisSentence> = {}): AnalysisSentence[] {
  return texts.map((text, i) => ({
    text,
    start: 250 + i * 1000,
    end: 1150 + i * 1000,
    confidence: 0.9,
    speaker: null,
    ...extra,
  }));
}

function expectSeveritySumsToOne(result: ContentSafetyLabelsResult): void {
  for (const { low, medium, high } of Object.values(result.severity_score_summary)) {
    for (const share of [low, medium, high]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(1);
    }
    expect(low + medium + high).toBeCloseTo(1, 6);
  }
}

describe('analyseSentiment', () => {
  it.each([
    ['I am very angry, this is the worst service and I want a refund.', 'NEGATIVE'],
    ['Thank you so much, you were wonderful and very helpful.', 'POSITIVE'],
    ['My order number is 456.', 'NEUTRAL'],
    ['thank you so much you were wonderful', 'POSITIVE'],
    ['THIS IS TERRIBLE', 'NEGATIVE'],
    ['my order number is four five six', 'NEUTRAL'],
  ])('%s → %s', (text, sentiment) => {
    const [result] = analyseSentiment(sentences([text]));
    expect(result?.sentiment).toBe(sentiment);
    expect(result?.confidence).toBeGreaterThan(0.5);
    expect(result?.confidence).toBeLessThan(1);
  });

  it('keeps one result per sentence with text, times and speaker; channel only when the sentence has one', () => {
    const input = sentences(['Great.', 'Awful.'], { speaker: 'A' });
    const results = analyseSentiment(input);
    expect(results).toHaveLength(2);
    expect(results[0]).toEqual({
      text: 'Great.',
      start: 250,
      end: 1150,
      sentiment: 'POSITIVE',
      confidence: expect.any(Number),
      speaker: 'A',
    });
    expect(results[0]).not.toHaveProperty('channel');
    const [withChannel] = analyseSentiment(sentences(['Great.'], { channel: '2' }));
    expect(withChannel?.channel).toBe('2');
  });

  it('is deterministic and gives stronger wording more confidence', () => {
    const input = sentences(['This is bad.', 'This is bad, awful, horrible and terrible.']);
    const first = analyseSentiment(input);
    expect(analyseSentiment(input)).toEqual(first);
    expect(first[1]!.confidence).toBeGreaterThan(first[0]!.confidence);
  });

  it('returns nothing for no sentences', () => {
    expect(analyseSentiment([])).toEqual([]);
  });

  it.each([
    ['this is Tom Baker, my order number 85 arrived broken and I want a refund', 'NEGATIVE'],
    ['The package never arrived.', 'NEGATIVE'],
    ['You sent me the wrong item.', 'NEGATIVE'],
    ['I want to change my delivery address.', 'NEUTRAL'],
    ['I would like to check the status of my order.', 'NEUTRAL'],
    ['Please send the invoice to my email.', 'NEUTRAL'],
    ['I am not happy with this.', 'NEGATIVE'],
    ['No problem at all.', 'POSITIVE'],
    ['It was good but the box was damaged.', 'NEGATIVE'],
  ])('reads support-call wording: %s → %s', (text, sentiment) => {
    expect(classifySentiment(text).sentiment).toBe(sentiment);
  });

  it('an intensifier strengthens and a negation flips the same word', () => {
    const plain = scoreSentence('the agent was helpful');
    expect(scoreSentence('the agent was very helpful').score).toBeGreaterThan(plain.score);
    expect(scoreSentence('the agent was not helpful').score).toBeLessThan(0);
  });

  it('labels the hand-labelled support sentences (test/fixtures) as labelled, bar at most a tenth', () => {
    const { sentences: set } = labelled as { sentences: { text: string; label: string }[] };
    expect(set.length).toBeGreaterThanOrEqual(60);
    const wrong = set.filter((s) => classifySentiment(s.text).sentiment !== s.label);
    expect(wrong.length).toBeLessThanOrEqual(Math.floor(set.length / 10));
  });
});

describe('analyseContentSafety', () => {
  it('returns the empty success shape for no sentences', () => {
    expect(analyseContentSafety([], { confidenceThreshold: 50 })).toEqual({
      status: 'success',
      results: [],
      summary: {},
      severity_score_summary: {},
    });
  });

  it('labels a profane sentence `profanity` with confidence and severity in range', () => {
    const result = analyseContentSafety(sentences(['What the fuck is this shit?']));
    expect(result.status).toBe('success');
    expect(result.results).toHaveLength(1);
    const label = result.results[0]!.labels.find((l) => l.label === 'profanity');
    expect(label).toBeDefined();
    expect(label!.confidence).toBeGreaterThanOrEqual(0.5);
    expect(label!.confidence).toBeLessThan(1);
    expect(label!.severity).toBeGreaterThan(0);
    expect(label!.severity).toBeLessThan(1);
    expect(result.summary.profanity).toBeGreaterThanOrEqual(label!.confidence);
    expectSeveritySumsToOne(result);
  });

  it.each([
    'The damn driver left the box outside.',
    'What the hell happened to my parcel?',
    'This crap is broken.',
  ])('labels mild swearing `profanity` at a low severity: %s', (text) => {
    const [section] = analyseContentSafety(sentences([text])).results;
    const label = section?.labels.find((l) => l.label === 'profanity');
    expect(label?.confidence).toBeGreaterThanOrEqual(0.5);
    expect(label?.severity).toBeLessThan(0.45);
  });

  it('counts the censored form filter_profanity produces', () => {
    const result = analyseContentSafety(sentences(['well s*** happens']));
    expect(result.results[0]?.labels.map((l) => l.label)).toEqual(['profanity']);
  });

  it('gives clean sentences no labels, including words that merely contain a flagged stem', () => {
    const result = analyseContentSafety(
      sentences([
        'Hello, how are you today?',
        'The class assessment in Scunthorpe went well.',
        'Her method was heroic and the skill was stable.',
        'Hello, the shell of the damask chair is scrappy.',
      ]),
    );
    expect(result).toEqual({ status: 'success', results: [], summary: {}, severity_score_summary: {} });
  });

  it('reports only labels whose confidence reaches the threshold', () => {
    const input = sentences(['What the fuck is this shit? We drank beer.']);
    const atDefault = analyseContentSafety(input);
    const labels = atDefault.results[0]!.labels;
    expect(labels.map((l) => l.label).sort()).toEqual(['alcohol', 'profanity']);
    const alcohol = labels.find((l) => l.label === 'alcohol')!;
    const profanity = labels.find((l) => l.label === 'profanity')!;
    expect(alcohol.confidence).toBeLessThan(profanity.confidence);

    const between = Math.ceil(alcohol.confidence * 100 + 1);
    const strict = analyseContentSafety(input, { confidenceThreshold: between });
    expect(strict.results[0]!.labels.map((l) => l.label)).toEqual(['profanity']);
    expect(Object.keys(strict.summary)).toEqual(['profanity']);

    const max = analyseContentSafety(input, { confidenceThreshold: 100 });
    expect(max).toEqual({ status: 'success', results: [], summary: {}, severity_score_summary: {} });
  });

  it('groups consecutive flagged sentences into one section with their index range and times', () => {
    const input = sentences([
      'Good morning everyone.',
      'He bought a gun last week.',
      'Then he tried to kill his neighbour.',
      'The weather is nice today.',
      'We spent the night at the casino.',
    ]);
    const { results } = analyseContentSafety(input);
    expect(results).toHaveLength(2);
    expect(results[0]).toMatchObject({
      text: 'He bought a gun last week. Then he tried to kill his neighbour.',
      sentences_idx_start: 1,
      sentences_idx_end: 2,
      timestamp: { start: 1250, end: 3150 },
    });
    expect(results[0]!.labels.map((l) => l.label).sort()).toEqual(['crime_violence', 'weapons']);
    expect(results[1]).toMatchObject({
      text: 'We spent the night at the casino.',
      sentences_idx_start: 4,
      sentences_idx_end: 4,
      timestamp: { start: 4250, end: 5150 },
    });
    expect(results[1]!.labels.map((l) => l.label)).toEqual(['gambling']);
  });

  it('summarises per label over the whole file, with severity shares summing to 1', () => {
    const input = sentences([
      'This shit is broken.',
      'Nothing to report here.',
      'Damn it, this fucking shit again.',
      'We drank wine and beer and vodka.',
    ]);
    const result = analyseContentSafety(input);
    const profanity = result.results.flatMap((r) => r.labels).filter((l) => l.label === 'profanity');
    expect(profanity.length).toBeGreaterThanOrEqual(2);
    // Two separate profane passages make the file-level confidence higher than either alone.
    expect(result.summary.profanity).toBeGreaterThan(Math.max(...profanity.map((l) => l.confidence)));
    expect(result.summary.profanity).toBeLessThan(1);
    expect(Object.keys(result.summary).sort()).toEqual(['alcohol', 'profanity']);
    expect(Object.keys(result.severity_score_summary).sort()).toEqual(['alcohol', 'profanity']);
    expectSeveritySumsToOne(result);
    expect(analyseContentSafety(input)).toEqual(result);
  });

  it('gives labels without a documented severity null severity and no severity summary', () => {
    const result = analyseContentSafety(sentences(['Quarterly revenue and earnings beat the forecast.']));
    expect(result.results[0]?.labels).toEqual([
      { label: 'financials', confidence: expect.any(Number), severity: null },
    ]);
    expect(result.summary.financials).toBeGreaterThan(0.5);
    expect(result.severity_score_summary).toEqual({});
  });
});
