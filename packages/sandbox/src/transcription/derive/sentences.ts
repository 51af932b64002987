import type { TranscriptSentence, TranscriptWord } from './types.js';

/** Final ., ? or !, allowing a closing quote or bracket after it (`"Done."`, `(yes?)`). */
const SENTENCE_END = /[.?!]["'”’)\]]*$/;

/**
 * Whether a word closes a sentence. Any final period counts, so "456." and "US." end sentences: the service
 * splits there too (its wildfires sample ends its first sentence at "US.").
 */
export function endsSentence(text: string): boolean {
  return SENTENCE_END.test(text);
}

/**
 * The service's `/sentences`: a sentence ends at a word with final punctuation, and also where the speaker or
 * channel changes, because a sentence belongs to one voice (its `speaker` is a single value).
 */
export function splitSentences(words: readonly TranscriptWord[]): TranscriptSentence[] {
  const sentences: TranscriptSentence[] = [];
  let current: TranscriptWord[] = [];
  for (const word of words) {
    const first = current[0];
    if (first && !sameVoice(first, word)) {
      sentences.push(toSentence(current));
      current = [];
    }
    current.push(word);
    if (endsSentence(word.text)) {
      sentences.push(toSentence(current));
      current = [];
    }
  }
  if (current.length > 0) sentences.push(toSentence(current));
  return sentences;
}

/** True when two words have the same speaker and channel (absent and null are the same voice). */
export function sameVoice(a: TranscriptWord, b: TranscriptWord): boolean {
  return (a.speaker ?? null) === (b.speaker ?? null) && (a.channel ?? null) === (b.channel ?? null);
}

/**
 * Text, times, confidence and copied words of a non-empty run of words. The confidence is the first word's,
 * not an average: that is what the service returns. In openapi.yml's examples every sentence and paragraph
 * has its first word's confidence (0.72412, 0.99819; 0.73033, 0.99667), and for the wildfires paragraph,
 * whose every word is in assemblyai-go-sdk testdata/transcript/completed.json, the mean would be 0.957.
 */
export function spanOf(words: readonly TranscriptWord[]) {
  const first = words[0];
  const last = words.at(-1);
  if (!first || !last) throw new RangeError('a span needs at least one word');
  return {
    text: words.map((word) => word.text).join(' '),
    start: first.start,
    end: last.end,
    confidence: first.confidence,
    words: words.map((word) => ({ ...word })),
  };
}

function toSentence(words: readonly TranscriptWord[]): TranscriptSentence {
  const first = words[0]!;
  const sentence: TranscriptSentence = { ...spanOf(words), speaker: first.speaker ?? null };
  // `channel` is on the wire only for multichannel transcripts; copying an absent one would add `undefined`.
  if (first.channel !== undefined) sentence.channel = first.channel;
  return sentence;
}
