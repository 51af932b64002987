/**
 * Profanity is a whole word (with its inflections and swearing's compounds), not a stem inside an innocent word;
 * sentiment negation stops at sentence and clause punctuation.
 */
import { describe, expect, it } from 'vitest';
import type { TranscriptWord } from '../../src/transcription/derive/types.js';
import {
  analyseContentSafety,
  analyseSentiment,
  countProfanity,
  isProfane,
} from '../../src/transcription/intelligence/index.js';
import { scoreSentence } from '../../src/transcription/intelligence/sentiment-score.js';
import { filterProfanity } from '../../src/transcription/model/word-rules.js';

const word = (text: string): TranscriptWord => ({ text, start: 0, end: 250, confidence: 0.9, speaker: null });
const sentence = (text: string) => ({ text, start: 0, end: 1000, confidence: 0.9, speaker: null });

describe('profanity is matched at word boundaries', () => {
  const INNOCENT = [
    'cockpit',
    'Cockpit.',
    'cockpits',
    'Penistone',
    'Scunthorpe',
    'assassin',
    'class',
    'shitake',
    'titter',
  ];
  const PROFANE = [
    'shit',
    'Shit!',
    'shitty',
    'bullshit',
    'fucking',
    'motherfucker',
    'asshole',
    'bitches',
    'dickhead',
    'cocksucker',
    'cock',
    'faggot',
    'cunts',
  ];

  it.each(INNOCENT)('%s is clean: not masked, no profanity label', (text) => {
    expect(isProfane(text)).toBe(false);
    expect(filterProfanity([word(text)])[0]!.text).toBe(text);
    expect(analyseContentSafety([sentence(`the ${text} was fine`)]).results).toEqual([]);
  });

  it.each(PROFANE)('%s is still profane, masked and labelled', (text) => {
    expect(isProfane(text)).toBe(true);
    expect(filterProfanity([word(text)])[0]!.text).toMatch(/^\w\*+[!.]?$/);
    const [result] = analyseContentSafety([sentence(`well ${text} happened`)]).results;
    expect(result!.labels.map((l) => l.label)).toContain('profanity');
  });

  it('counts each profane word of a sentence once, and none in "the cockpit of a cocktail bar"', () => {
    expect(countProfanity('shit, the fucking cockpit is bullshit')).toBe(3);
    expect(countProfanity('the cockpit of a cocktail bar')).toBe(0);
    expect(countProfanity('a s*** day')).toBe(1);
  });

  it.each(["fuck's", 'fuck’s', "fuckin'", "Shit's", 'shitfaced', 'fuckwit'])(
    '%s (an apostrophe ending or a swearing compound) is profane and masked',
    (text) => {
      expect(isProfane(text)).toBe(true);
      expect(filterProfanity([word(text)])[0]!.text).toMatch(/^\w\*+'?$/);
      expect(countProfanity(`oh for ${text} sake`)).toBe(1);
    },
  );

  it.each(['cumin', 'Cumin.', "cumin's", 'dickering', 'chinking'])(
    '%s (a stem and a tail that spell an innocent word) is clean',
    (text) => {
      expect(isProfane(text)).toBe(false);
      expect(filterProfanity([word(text)])[0]!.text).toBe(text);
      expect(countProfanity(`add the ${text} now`)).toBe(0);
    },
  );

  it.each([
    ['\u{1F92C}fuck!', '\u{1F92C}f***!'],
    ['"fuck"', '"f***"'],
    ["'shit',", "'s***',"],
    ['fuck\u{1F92C}', 'f***\u{1F92C}'],
  ])('masks %s as %s: its letters only, surrogate pairs whole, times kept', (text, expected) => {
    const said = { ...word(text), start: 1200, end: 1650, confidence: 0.71 };
    const [masked] = filterProfanity([said]);
    expect(masked!.text).toBe(expected);
    expect(masked!.text).not.toMatch(
      /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
    );
    expect({ ...masked, text: said.text }).toEqual(said);
  });
});

describe('sentiment negation stops at punctuation', () => {
  it('"not bad. terrible": "terrible" keeps its negative score', () => {
    const terrible = scoreSentence('terrible').score;
    const notBad = scoreSentence('not bad').score;
    expect(notBad).toBeGreaterThan(0);
    expect(scoreSentence('not bad. terrible').score).toBeCloseTo(notBad + terrible, 10);
    expect(scoreSentence('not bad, terrible').score).toBeLessThan(0);
    expect(scoreSentence('not bad; terrible!').score).toBeLessThan(0);
  });

  it('negation still works within a clause', () => {
    expect(scoreSentence('it was not terrible').score).toBeGreaterThan(0);
    expect(scoreSentence('the agent was not helpful').score).toBeLessThan(0);
    expect(scoreSentence("it wasn't good, it was awful").score).toBeLessThan(
      scoreSentence('it was awful').score,
    );
  });

  it('a sentence "Not bad. Terrible." scored as one text is NEGATIVE', () => {
    const [result] = analyseSentiment([{ ...sentence('Not bad. Terrible service.'), end: 2000 }]);
    expect(result!.sentiment).toBe('NEGATIVE');
  });
});
