/**
 * Punctuation at the edges of a word or a sentence, found by walking in from each end. Patterns such as
 * `/[.,!?;:]+$/` retry from every position of a run that is not at the end, so a word of a megabyte of
 * commas followed by a letter (a hostile `custom_spelling` or a long recognised word) cost seconds; these
 * loops read each character at most once.
 */

/** A set of characters: a `Set` of them, or anything that can tell whether it holds one. */
export interface CharClass {
  has(char: string): boolean;
}

/** Where the run of `trailing` characters at the end of `text` starts (`text.length` when there is none). */
export function trailingStart(text: string, trailing: CharClass): number {
  let at = text.length;
  while (at > 0 && trailing.has(text[at - 1]!)) at -= 1;
  return at;
}

/** `text` without its run of `leading` characters at the start and of `trailing` characters at the end. */
export function trimEdges(text: string, leading: CharClass, trailing: CharClass): string {
  let from = 0;
  while (from < text.length && leading.has(text[from]!)) from += 1;
  return text.slice(from, Math.max(from, trailingStart(text, trailing)));
}

/** A word's text split before its trailing punctuation: `["456", "."]` for "456.". */
export function splitTrailing(text: string, trailing: CharClass): [bare: string, punctuation: string] {
  const at = trailingStart(text, trailing);
  return [text.slice(0, at), text.slice(at)];
}

/** What ends a word and is kept apart from it by the word rules (custom spelling, profanity, redaction). */
export const WORD_END_PUNCTUATION: ReadonlySet<string> = new Set('.,!?;:');
