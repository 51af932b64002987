import { describe, expect, it } from 'vitest';
import { classifySentence, lexiconScore } from '../../src/server/analysis/lexicon.js';
import { liveTranscriptInput, turnSentences } from '../../src/server/analysis/live.js';
import { analyseSentiment } from '../../src/server/analysis/summary.js';

const timed = (text: string, step = 300) =>
  text.split(' ').map((w, i) => ({ text: w, start: i * step, end: i * step + step - 50 }));

describe('sentence sentiment from the lexicon', () => {
  it('reads complaints as negative and thanks as positive, with negation and intensifiers', () => {
    expect(classifySentence('The box was damaged and I am very unhappy.').sentiment).toBe('NEGATIVE');
    expect(classifySentence('Thank you so much, I love it.').sentiment).toBe('POSITIVE');
    expect(classifySentence('I am calling about order number 88.').sentiment).toBe('NEUTRAL');
    expect(classifySentence('I am not happy.').sentiment).toBe('NEGATIVE');
    expect(classifySentence('No problem at all.').sentiment).toBe('POSITIVE');
    expect(lexiconScore('very unhappy')).toBeLessThan(lexiconScore('unhappy'));
    const weak = classifySentence('It was late.').confidence;
    expect(classifySentence('It was terrible, awful and late.').confidence).toBeGreaterThan(weak);
  });
});

describe('turnSentences', () => {
  it('splits a formatted turn at sentence ends, timed by its words', () => {
    const text = 'Hello, my name is Jane. I am unhappy!';
    expect(turnSentences({ text, words: timed(text) })).toEqual([
      { text: 'Hello, my name is Jane.', start: 0, end: 1450 },
      { text: 'I am unhappy!', start: 1500, end: 2350 },
    ]);
  });

  it('spreads the turn’s time by word count when the words do not line up with the text', () => {
    const sentences = turnSentences({ text: 'One two. Three four.', words: timed('one two three', 1000) });
    expect(sentences).toEqual([
      { text: 'One two.', start: 0, end: 1475 },
      { text: 'Three four.', start: 1475, end: 2950 },
    ]);
  });

  it('gives a turn without words zero times, and an empty turn no sentence', () => {
    expect(turnSentences({ text: 'Just this', words: [] })).toEqual([
      { text: 'Just this', start: 0, end: 0 },
    ]);
    expect(turnSentences({ text: '  ', words: [] })).toEqual([]);
  });
});

describe('liveTranscriptInput', () => {
  it('is what the uploaded calls’ analysis reads: text, duration, sentences with sentiment, no safety labels', () => {
    const turns = [
      { text: 'Hello, my name is Jane Smith.', words: timed('Hello, my name is Jane Smith.') },
      {
        text: 'The box was damaged and I am very unhappy.',
        words: timed('x x x x x x x x x', 400).map((w) => ({
          ...w,
          start: w.start + 3000,
          end: w.end + 3000,
        })),
      },
    ];
    const input = liveTranscriptInput('session-1', turns, 9.5);
    expect(input.text).toBe('Hello, my name is Jane Smith. The box was damaged and I am very unhappy.');
    expect(input.audio_duration).toBe(9.5);
    expect(input.content_safety_labels).toBeNull();
    const analysis = analyseSentiment(input);
    expect(analysis.transcriptId).toBe('session-1');
    expect(analysis.sentences.map((s) => s.sentiment)).toEqual(['NEUTRAL', 'NEGATIVE']);
    expect(analysis.overall).toBe('NEGATIVE');
    expect(analysis.durationMs).toBe(9500);
    expect(liveTranscriptInput('s', turns, undefined).audio_duration).toBe(6.55);
  });
});

describe('a live call about a broken order', () => {
  it('reads "my order number 85 arrived broken and I want a refund" as unhappy', () => {
    const input = liveTranscriptInput(
      'session',
      [
        {
          text: 'My order number 85 arrived broken and I want a refund.',
          words: [
            { text: 'My', start: 0, end: 300 },
            { text: 'refund.', start: 2600, end: 3000 },
          ],
        },
      ],
      3,
    );
    expect(input.sentiment_analysis_results?.[0]?.sentiment).toBe('NEGATIVE');
    expect(analyseSentiment(input).overall).toBe('NEGATIVE');
  });
});
