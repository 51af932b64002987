/**
 * Strong profanity: obscenity's English dataset, held to word ends. obscenity matches stems inside longer
 * words, so "cockpit" and "Penistone" were flagged (and masked by `filter_profanity`); a hit now counts only
 * when the rest of its word is an inflection or one of the compounds swearing is made of ("fucking",
 * "shithead", "bullshit"), so innocent words that merely start with a stem stay clean.
 */
import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

/** What may follow a matched stem inside the same word for the word to be the swear word itself. */
const TAILS: ReadonlySet<string> = new Set([
  '',
  's',
  'es',
  'd',
  'ed',
  'er',
  'ers',
  'in',
  'ing',
  'ings',
  'y',
  'ty',
  'ies',
  'ery',
  'ish',
  'ted',
  'ting',
  'got',
  'gots',
  'hole',
  'holes',
  'head',
  'heads',
  'face',
  'faces',
  'ucker',
  'uckers',
  'ucking',
  'shot',
  'bag',
  'bags',
  'wad',
  'wit',
  'wits',
  'faced',
]);

/**
 * Whole words that are a stem and an allowed tail yet innocent ("cumin" is "cum" + "in", as "fuckin" is "fuck" +
 * "in"); compared in lower case with the word's possessive or dropped-g apostrophe removed.
 */
const INNOCENT: ReadonlySet<string> = new Set([
  'cumin',
  'cumins',
  'dicker',
  'dickers',
  'dickered',
  'dickering',
  'chinked',
  'chinking',
]);

/** Both apostrophes: speech-to-text writes the typographic one too ("fuck’s"). */
const WORD_CHAR = /[\p{L}\p{N}'’]/u;
/** A possessive or contraction ("fuck's sake"), or a dropped g ("fuckin'"), after the word proper. */
const APOSTROPHE_END = /['’]s?$/;

// AssemblyAI's `filter_profanity` writes a flagged word as its first letter plus asterisks ("s***"). obscenity cannot
// see through that, but the word was still said, so the censored form counts as a hit.
const CENSORED_WORD = /(?<![\p{L}\p{N}*])\p{L}\*{2,}(?![\p{L}\p{N}*])/gu;

// The only module-level state: the matcher, built on first use (obscenity compiles a large dataset).
let matcher: RegExpMatcher | undefined;

/** Distinct profane words in `text`: obscenity's hits whose word ends in an allowed tail, one per word. */
function profaneWords(text: string): number {
  matcher ??= new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });
  let hits = 0;
  let lastEnd = -1;
  // [scannedFrom, scannedEnd): word characters up to a word's end, already read. Later hits inside it reuse the
  // end, so a megabyte-long word of repeated stems is read once, not once per hit.
  let scannedFrom = 0;
  let scannedEnd = 0;
  // getAllMatches(sorted) orders by start; the dataset holds overlapping terms, so one word can match several.
  for (const match of matcher.getAllMatches(text, true)) {
    if (match.startIndex <= lastEnd) continue;
    const after = match.endIndex + 1; // endIndex is inclusive
    let wordEnd = after >= scannedFrom && after < scannedEnd ? scannedEnd : after;
    if (wordEnd === after) {
      while (wordEnd < text.length && WORD_CHAR.test(text[wordEnd]!)) wordEnd += 1;
      scannedFrom = after;
      scannedEnd = wordEnd;
    }
    const tail = text
      .slice(match.endIndex + 1, wordEnd)
      .toLowerCase()
      .replace(APOSTROPHE_END, '');
    if (!TAILS.has(tail)) continue;
    // Only a hit at the start of its word can be an innocent whole word; reading one character back keeps this O(1).
    const atWordStart = match.startIndex === 0 || !WORD_CHAR.test(text[match.startIndex - 1]!);
    if (
      atWordStart &&
      tail !== '' &&
      INNOCENT.has(text.slice(match.startIndex, match.endIndex + 1).toLowerCase() + tail)
    )
      continue;
    hits += 1;
    lastEnd = wordEnd - 1;
  }
  return hits;
}

/** True when a single recognised word is profane: what `filter_profanity` masks. */
export function isProfane(word: string): boolean {
  return profaneWords(word) > 0;
}

/** How many strong profanities a sentence holds, censored ones ("s***") included. */
export function countProfanity(text: string): number {
  return profaneWords(text) + (text.match(CENSORED_WORD)?.length ?? 0);
}
