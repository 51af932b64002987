/** The transcription engine's pure parts: spoken numbers, `format_text`/`punctuate`, PocketSphinx output, WAV headers. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isNative, readWavFormat, wavDuration } from '../../src/transcription/engine/audio.js';
import {
  createEngine,
  digitise,
  formatWords,
  joinWords,
  parseWordTimes,
  SENTENCE_PAUSE_MS,
} from '../../src/transcription/engine/index.js';
import type { EngineWord } from '../../src/transcription/engine/types.js';

describe('digitise (spoken numbers as the service writes them)', () => {
  it.each([
    ['order number four five six', 'order number 456'],
    ['twenty three', '23'],
    ['it cost twenty three dollars', 'it cost 23 dollars'],
    ['one hundred and twenty', '120'],
    ['three hundred five', '305'],
    ['two thousand and five', '2005'],
    ['nineteen ninety nine', '1999'],
    ['twenty twenty three', '2023'],
    ['zero one two', '012'],
    ['one million two hundred thousand', '1200000'],
    ['three hundred thousand', '300000'],
    ['the tracking number is seven eight nine', 'the tracking number is 789'],
    ['ten items', '10 items'],
    ['number five please', 'number 5 please'],
  ])('%s -> %s', (spoken, written) => {
    expect(digitise(spoken)).toBe(written);
  });

  it.each(['one of them arrived', 'thank you for your help', 'a hundred times', 'four and five', 'and one'])(
    'leaves "%s" as words (a lone small number, or no number)',
    (spoken) => {
      expect(digitise(spoken)).toBe(spoken);
    },
  );

  it('does not let "and" join what is not one number', () => {
    expect(digitise('one hundred and')).toBe('100 and');
    expect(digitise('twenty and three')).toBe('20 and three');
  });
});

const word = (text: string, start: number, end: number, confidence = 0.9): EngineWord => ({
  text,
  start,
  end,
  confidence,
});

describe('formatWords', () => {
  const spoken = [
    word('my', 190, 480),
    word('order', 490, 760),
    word('number', 770, 1120),
    word('is', 1130, 1250),
    word('four', 1260, 1460, 0.08),
    word('five', 1470, 1750),
    word('six', 1760, 2100),
  ];

  it('gives sentence case, a final period and digits by default, and merges number words with their times', () => {
    const words = formatWords(spoken);
    expect(joinWords(words)).toBe('My order number is 456.');
    expect(words.at(-1)).toEqual({ text: '456.', start: 1260, end: 2100, confidence: 0.08 });
    expect(spoken[0]?.text).toBe('my'); // the input is not modified
  });

  it('format_text: false keeps the words as recognised; punctuate: false adds no period', () => {
    expect(joinWords(formatWords(spoken, { format_text: false }))).toBe('my order number is four five six.');
    expect(joinWords(formatWords(spoken, { punctuate: false }))).toBe('My order number is 456');
    expect(formatWords(spoken, { format_text: false, punctuate: false })).toEqual(spoken);
  });

  it('capitalises the pronoun I and its contractions', () => {
    const words = formatWords([
      word('yes', 0, 100),
      word('i', 100, 200),
      word("i'm", 200, 300),
      word('in', 300, 400),
    ]);
    expect(joinWords(words)).toBe("Yes I I'm in.");
  });

  it('formats nothing into nothing', () => {
    expect(formatWords([])).toEqual([]);
  });
});

describe('formatWords: sentences from pauses', () => {
  const timed = (texts: string[], gaps: number[]) => {
    let t = 0;
    return texts.map((text, i) => {
      t += i === 0 ? 0 : (gaps[i - 1] ?? 10);
      const w = word(text, t, t + 300);
      t += 300;
      return w;
    });
  };

  it('a pause of SENTENCE_PAUSE_MS or more ends a sentence; the next one starts with a capital', () => {
    const words = timed(['this', 'is', 'terrible', 'i', 'am', 'angry'], [10, 10, SENTENCE_PAUSE_MS, 10, 10]);
    expect(joinWords(formatWords(words))).toBe('This is terrible. I am angry.');
  });

  it('a shorter pause does not, and punctuate: false adds no stops at all', () => {
    const words = timed(['where', 'is', 'my', 'delivery'], [10, SENTENCE_PAUSE_MS - 1, 10]);
    expect(joinWords(formatWords(words))).toBe('Where is my delivery.');
    const long = timed(['this', 'is', 'it', 'ok'], [10, 500, 10]);
    expect(joinWords(formatWords(long, { punctuate: false }))).toBe('This is it ok');
  });
});

describe('parseWordTimes (pocketsphinx_continuous -time yes)', () => {
  const output = [
    'the package arrived broken',
    '<s> 0.000 0.140 0.999900',
    'the 0.150 0.270 0.924494',
    'package(2) 0.280 0.710 0.520391',
    '<sil> 1.670 1.800 0.896271',
    '[NOISE] 1.800 1.900 0.5',
    'broken 1.090 1.660 1.000100',
    '</s> 3.430 3.490 1.000000',
  ].join('\n');

  it('keeps words with ms times, drops fillers and pronunciation suffixes, clamps confidence and ends', () => {
    expect(parseWordTimes(output, 1.5)).toEqual([
      { text: 'the', start: 150, end: 270, confidence: 0.924494 },
      { text: 'package', start: 280, end: 710, confidence: 0.520391 },
      { text: 'broken', start: 1090, end: 1500, confidence: 1 },
    ]);
  });

  it('reads nothing from a log or an empty run', () => {
    expect(parseWordTimes('', 1)).toEqual([]);
    expect(
      parseWordTimes('INFO: continuous.c(307): pocketsphinx_continuous COMPILED ON: Sep 28 2022\n', 1),
    ).toEqual([]);
  });
});

describe('readWavFormat', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'transcription-wav-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function wav(
    rate: number,
    channels: number,
    bits: number,
    dataBytes: number,
    extra = Buffer.alloc(0),
  ): Buffer {
    const fmt = Buffer.alloc(24);
    fmt.write('fmt ', 0, 'latin1');
    fmt.writeUInt32LE(16, 4);
    fmt.writeUInt16LE(1, 8);
    fmt.writeUInt16LE(channels, 10);
    fmt.writeUInt32LE(rate, 12);
    fmt.writeUInt32LE((rate * channels * bits) / 8, 16);
    fmt.writeUInt16LE((channels * bits) / 8, 20);
    fmt.writeUInt16LE(bits, 22);
    const data = Buffer.alloc(8 + dataBytes);
    data.write('data', 0, 'latin1');
    data.writeUInt32LE(dataBytes, 4);
    const head = Buffer.alloc(12);
    head.write('RIFF', 0, 'latin1');
    head.writeUInt32LE(4 + extra.length + fmt.length + data.length, 4);
    head.write('WAVE', 8, 'latin1');
    return Buffer.concat([head, extra, fmt, data]);
  }

  it('reads a native file (after a metadata chunk) and its duration', async () => {
    const list = Buffer.alloc(8 + 3 + 1);
    list.write('LIST', 0, 'latin1');
    list.writeUInt32LE(3, 4); // odd length: padded to an even one
    await writeFile(join(dir, 'native.wav'), wav(16_000, 1, 16, 16_000, list));
    const format = await readWavFormat(join(dir, 'native.wav'));
    expect(format).toEqual({
      formatTag: 1,
      channels: 1,
      sampleRate: 16_000,
      bitsPerSample: 16,
      dataBytes: 16_000,
      // RIFF header 12 + fmt chunk 8 + 16 + the padded LIST chunk 12 + the data chunk's header 8.
      dataOffset: 56,
    });
    expect(format && isNative(format)).toBe(true);
    expect(format && wavDuration(format)).toBe(0.5);
  });

  it('tells stereo 44.1 kHz and non-WAV files apart from native ones', async () => {
    await writeFile(join(dir, 'stereo.wav'), wav(44_100, 2, 16, 400));
    expect(isNative(await readWavFormat(join(dir, 'stereo.wav')))).toBe(false);
    await writeFile(join(dir, 'notes.txt'), 'not audio');
    expect(await readWavFormat(join(dir, 'notes.txt'))).toBeUndefined();
  });
});

describe('createEngine', () => {
  it('builds the configured engine without looking for its tools', () => {
    expect(createEngine({ engine: 'pocketsphinx', path: '' }).name).toBe('pocketsphinx');
    expect(() => createEngine({ engine: 'nope' } as never)).toThrow(/Unknown transcription engine "nope"/);
  });
});
