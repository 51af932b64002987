/** Sentences, paragraphs, SRT/VTT captions and word search derived from a transcript's words. */
import { describe, expect, it } from 'vitest';
import {
  buildCaptions,
  formatSrtTimestamp,
  formatVttTimestamp,
  groupParagraphs,
  searchWords,
  splitSentences,
  type TranscriptWord,
  toSrt,
  toVtt,
} from '../../src/transcription/derive/index.js';

function word(text: string, start: number, end: number, confidence = 0.9, speaker: string | null = null) {
  return { text, start, end, confidence, speaker } satisfies TranscriptWord;
}

/** "Hello. My order number is 456." then, after a 1.4 s pause, "Thanks." */
const order: TranscriptWord[] = [
  word('Hello.', 240, 600, 0.8),
  word('My', 700, 800, 1),
  word('order', 850, 1100),
  word('number', 1150, 1500),
  word('is', 1550, 1650),
  word('456.', 1700, 2100, 0.6),
  word('Thanks.', 3500, 3900, 0.95),
];

/** Evenly spoken words: `count` words of 400 ms, 50 ms apart, from `from` ms. */
function steady(count: number, from = 0, speaker: string | null = null): TranscriptWord[] {
  return Array.from({ length: count }, (_, i) =>
    word(`w${i}`, from + i * 450, from + i * 450 + 400, 0.9, speaker),
  );
}

describe('splitSentences', () => {
  it('ends a sentence at final punctuation, with the first word as start and the last as end', () => {
    const sentences = splitSentences(order);
    expect(sentences.map((s) => s.text)).toEqual(['Hello.', 'My order number is 456.', 'Thanks.']);
    expect(sentences[1]).toMatchObject({ start: 700, end: 2100, speaker: null });
    expect(sentences[1]?.words.map((w) => w.text)).toEqual(['My', 'order', 'number', 'is', '456.']);
  });

  it("takes the sentence's confidence from its first word, as the service does", () => {
    const sentences = splitSentences(order);
    expect(sentences.map((s) => s.confidence)).toEqual([0.8, 1, 0.95]);
  });

  it('ends a sentence where the speaker changes, punctuated or not, and on ? and !', () => {
    const words = [
      word('Can', 0, 100, 0.9, 'A'),
      word('you', 120, 200, 0.9, 'A'),
      word('help', 220, 400, 0.9, 'A'),
      word('Sure', 900, 1200, 0.7, 'B'),
      word('thing!', 1250, 1500, 0.9, 'B'),
      word('Great?', 1600, 1900, 0.9, 'A'),
    ];
    const sentences = splitSentences(words);
    expect(sentences.map((s) => [s.text, s.speaker, s.start, s.end])).toEqual([
      ['Can you help', 'A', 0, 400],
      ['Sure thing!', 'B', 900, 1500],
      ['Great?', 'A', 1600, 1900],
    ]);
  });

  it('carries channel only on multichannel words, and splits where the channel changes', () => {
    const words = [
      { ...word('Yes', 0, 100), channel: '1' },
      { ...word('no.', 200, 300), channel: '2' },
    ];
    const sentences = splitSentences(words);
    expect(sentences.map((s) => s.channel)).toEqual(['1', '2']);
    expect('channel' in (splitSentences(order)[0] ?? {})).toBe(false);
  });

  it('returns nothing for no words and does not share word objects with the input', () => {
    expect(splitSentences([])).toEqual([]);
    const [sentence] = splitSentences(order);
    expect(sentence?.words[0]).toEqual(order[0]);
    expect(sentence?.words[0]).not.toBe(order[0]);
  });
});

describe('groupParagraphs', () => {
  it('breaks on a pause of 3 s or more between sentences but not on a shorter one', () => {
    const words = [
      word('One.', 0, 500, 0.5),
      word('Two.', 2070, 2500, 0.6), // 1,570 ms: the service keeps such a pause inside a paragraph
      word('Three.', 5500, 6000, 0.7), // 3,000 ms
    ];
    const paragraphs = groupParagraphs(words);
    expect(paragraphs.map((p) => [p.text, p.start, p.end, p.confidence])).toEqual([
      ['One. Two.', 0, 2500, 0.5],
      ['Three.', 5500, 6000, 0.7],
    ]);
    expect(Object.keys(paragraphs[0] ?? {}).sort()).toEqual(['confidence', 'end', 'start', 'text', 'words']);
  });

  it('closes a paragraph after the sentence that takes it to 26 s', () => {
    const long = steady(60); // one unpunctuated sentence of 26,950 ms
    long[59] = { ...long[59]!, text: 'end.' };
    const paragraphs = groupParagraphs([...long, word('Next.', 27_100, 27_500)]);
    expect(paragraphs.map((p) => [p.start, p.end, p.words.length])).toEqual([
      [0, 26_950, 60],
      [27_100, 27_500, 1],
    ]);
  });

  it('breaks where the speaker changes, and gives the same result from sentences as from words', () => {
    const words = [
      word('Hi.', 0, 300, 0.9, 'A'),
      word('Hello.', 400, 700, 0.9, 'B'),
      word('Bye.', 800, 900, 0.9, 'B'),
    ];
    expect(groupParagraphs(words).map((p) => p.text)).toEqual(['Hi.', 'Hello. Bye.']);
    expect(groupParagraphs(splitSentences(words))).toEqual(groupParagraphs(words));
    expect(groupParagraphs([])).toEqual([]);
  });
});

describe('SRT and VTT captions', () => {
  it('writes SRT with the default (no character limit): a new caption only after the pause', () => {
    expect(toSrt(order)).toBe(
      '1\n00:00:00,240 --> 00:00:02,100\nHello. My order number is 456.\n\n' +
        '2\n00:00:03,500 --> 00:00:03,900\nThanks.\n',
    );
  });

  it('writes VTT with the default, MM:SS.mmm under an hour', () => {
    expect(toVtt(order)).toBe(
      'WEBVTT\n\n00:00.240 --> 00:02.100\nHello. My order number is 456.\n\n00:03.500 --> 00:03.900\nThanks.\n',
    );
  });

  it('keeps each caption within chars_per_caption, the limit itself included', () => {
    const expected = [
      ['00:00:00,240 --> 00:00:00,800', 'Hello. My'],
      ['00:00:00,850 --> 00:00:01,500', 'order number'],
      ['00:00:01,550 --> 00:00:02,100', 'is 456.'],
      ['00:00:03,500 --> 00:00:03,900', 'Thanks.'],
    ];
    expect(toSrt(order, { chars_per_caption: 12 })).toBe(
      expected.map(([time, text], i) => `${i + 1}\n${time}\n${text}`).join('\n\n') + '\n',
    );
    expect(toVtt(order, { chars_per_caption: 12 })).toBe(
      'WEBVTT\n\n' +
        '00:00.240 --> 00:00.800\nHello. My\n\n' +
        '00:00.850 --> 00:01.500\norder number\n\n' +
        '00:01.550 --> 00:02.100\nis 456.\n\n' +
        '00:03.500 --> 00:03.900\nThanks.\n',
    );
  });

  it('puts a word longer than the limit in a caption of its own, and ignores a limit of 0 or null', () => {
    const words = [word('a', 0, 100), word('Supercalifragilistic', 150, 900), word('b', 950, 1000)];
    expect(buildCaptions(words, { chars_per_caption: 4 }).map((c) => c.text)).toEqual([
      'a',
      'Supercalifragilistic',
      'b',
    ]);
    expect(toSrt(order, { chars_per_caption: 0 })).toBe(toSrt(order));
    expect(toSrt(order, { chars_per_caption: null })).toBe(toSrt(order));
  });

  it('closes a caption once it spans 3 s, so long speech is not one caption', () => {
    const captions = buildCaptions(steady(16));
    expect(captions.map((c) => [c.start, c.end])).toEqual([
      [0, 3100],
      [3150, 6250],
      [6300, 7150],
    ]);
  });

  it('writes hours in timestamps from an hour on', () => {
    expect(formatSrtTimestamp(3_723_456)).toBe('01:02:03,456');
    expect(formatVttTimestamp(3_723_456)).toBe('01:02:03.456');
    expect(formatVttTimestamp(3_599_999)).toBe('59:59.999');
    expect(formatSrtTimestamp(0)).toBe('00:00:00,000');
    expect(formatSrtTimestamp(360_000_000)).toBe('100:00:00,000');
    const late = [word('Still', 3_599_500, 3_599_900), word('here.', 3_600_000, 3_600_400)];
    expect(toSrt(late)).toBe('1\n00:59:59,500 --> 01:00:00,400\nStill here.\n');
    expect(toVtt(late)).toBe('WEBVTT\n\n59:59.500 --> 01:00:00.400\nStill here.\n');
  });

  it('writes an empty SRT and a header-only VTT for no words', () => {
    expect(toSrt([])).toBe('');
    expect(toVtt([])).toBe('WEBVTT\n\n');
  });
});

describe('searchWords', () => {
  it('finds a word wherever it is, with its timestamps and word indexes', () => {
    const words = [...order, word('My', 4000, 4100), word('order.', 4150, 4500)];
    expect(searchWords(words, ['order'])).toEqual({
      total_count: 2,
      matches: [
        {
          text: 'order',
          count: 2,
          timestamps: [
            [850, 1100],
            [4150, 4500],
          ],
          indexes: [2, 8],
        },
      ],
    });
  });

  it('finds a phrase, spanning its first to its last word', () => {
    expect(searchWords(order, ['order number is']).matches).toEqual([
      { text: 'order number is', count: 1, timestamps: [[850, 1650]], indexes: [2] },
    ]);
  });

  it('finds a number written with a final period', () => {
    expect(searchWords(order, ['456']).matches).toEqual([
      { text: '456', count: 1, timestamps: [[1700, 2100]], indexes: [5] },
    ]);
  });

  it('ignores case and reports the query in lower case', () => {
    expect(searchWords(order, ['HELLO', 'my Order'])).toEqual({
      total_count: 2,
      matches: [
        { text: 'hello', count: 1, timestamps: [[240, 600]], indexes: [0] },
        { text: 'my order', count: 1, timestamps: [[700, 1100]], indexes: [1] },
      ],
    });
  });

  it('leaves out a query with no match, keeps the order asked, and sums total_count', () => {
    expect(searchWords(order, ['refund', 'thanks', 'hello', 'Thanks', ' '])).toEqual({
      total_count: 2,
      matches: [
        { text: 'thanks', count: 1, timestamps: [[3500, 3900]], indexes: [6] },
        { text: 'hello', count: 1, timestamps: [[240, 600]], indexes: [0] },
      ],
    });
    expect(searchWords(order, ['refund'])).toEqual({ total_count: 0, matches: [] });
    expect(searchWords([], ['hello'])).toEqual({ total_count: 0, matches: [] });
  });
});
