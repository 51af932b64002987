import { splitTrailing, WORD_END_PUNCTUATION } from '../derive/edges.js';
import { isProfane } from '../intelligence/index.js';
import type { TranscriptWord } from './transcripts.js';

/** A word's text without its trailing punctuation, and that punctuation, so rules match "456." as "456". */
const split = (text: string) => splitTrailing(text, WORD_END_PUNCTUATION);

/**
 * `custom_spelling`: each recognised word equal (ignoring case) to one of a rule's `from` becomes its `to`, as
 * the service applies it. Multi-word `from` entries are matched against that many consecutive words.
 */
export function applyCustomSpelling(
  words: readonly TranscriptWord[],
  rules: readonly { from: readonly string[]; to: string }[],
): TranscriptWord[] {
  const out: TranscriptWord[] = [];
  for (let i = 0; i < words.length; ) {
    let matched = false;
    for (const rule of rules) {
      for (const from of rule.from) {
        const parts = from.toLowerCase().split(/\s+/).filter(Boolean);
        const span = words.slice(i, i + parts.length);
        if (span.length !== parts.length || parts.length === 0) continue;
        if (!span.every((w, k) => split(w.text)[0].toLowerCase() === parts[k])) continue;
        const last = span.at(-1)!;
        out.push({ ...span[0]!, text: rule.to + split(last.text)[1], end: last.end });
        i += parts.length;
        matched = true;
        break;
      }
      if (matched) break;
    }
    if (!matched) out.push(words[i++]!);
  }
  return out;
}

/** A letter or digit in one UTF-16 unit: a surrogate half never is, so a pair is kept or skipped whole. */
const LETTER = /[\p{L}\p{N}]/u;

/**
 * `filter_profanity`: a profane word becomes its first letter and asterisks ("s***"), as the service writes it.
 * What surrounds the letters (quotes, an emoji, trailing punctuation) is kept as it was: '"fuck"' is '"f***"',
 * not '"*****', and an emoji before the word is not cut into half a surrogate pair.
 */
export function filterProfanity(words: readonly TranscriptWord[]): TranscriptWord[] {
  return words.map((w) => {
    const [bare, trailing] = split(w.text);
    if (bare.length < 2 || !isProfane(bare)) return w;
    let from = 0;
    while (from < bare.length && !LETTER.test(bare[from]!)) from += 1;
    let to = bare.length;
    while (to > from && !LETTER.test(bare[to - 1]!)) to -= 1;
    if (to - from < 2) return w;
    const masked = bare.slice(0, from + 1) + '*'.repeat(to - from - 1) + bare.slice(to);
    return { ...w, text: masked + trailing };
  });
}
