import { sameVoice, spanOf, splitSentences } from './sentences.js';
import type { TranscriptParagraph, TranscriptSentence, TranscriptWord } from './types.js';

/**
 * The paragraph rule: a paragraph is whole sentences, and it closes after the sentence that makes it span
 * PARAGRAPH_TARGET_MS or more, or before a sentence that starts after a pause of PARAGRAPH_PAUSE_MS or more
 * or is spoken by another speaker or on another channel.
 *
 * Why: AssemblyAI documents only "heuristics like speaking time, text length, pauses" (fern FAQ
 * how-are-paragraphs-created-for-the-paragraphs-endpoint.mdx). Its two wildfires paragraphs in openapi.yml,
 * checked against that audio's words in assemblyai-go-sdk testdata, close after 26.7 s and 28.3 s of speech,
 * the second one at a 150 ms gap, while a 1,570 ms pause inside it does not break it. So length decides and a
 * pause has to be long; a target anywhere in 25.2–26.7 s reproduces both, and 3 s for the pause is our pick.
 */
export const PARAGRAPH_TARGET_MS = 26_000;
export const PARAGRAPH_PAUSE_MS = 3_000;

/** The service's `/paragraphs`, from a transcript's words or from sentences already split from them. */
export function groupParagraphs(
  input: readonly TranscriptWord[] | readonly TranscriptSentence[],
): TranscriptParagraph[] {
  const sentences = isSentences(input) ? input : splitSentences(input as readonly TranscriptWord[]);
  const paragraphs: TranscriptParagraph[] = [];
  let words: TranscriptWord[] = [];
  for (const sentence of sentences) {
    const first = words[0];
    const last = words.at(-1);
    const next = sentence.words[0];
    if (!next) continue;
    if (first && last && (sentence.start - last.end >= PARAGRAPH_PAUSE_MS || !sameVoice(first, next))) {
      paragraphs.push(spanOf(words));
      words = [];
    }
    words.push(...sentence.words);
    if (sentence.end - (words[0]?.start ?? sentence.start) >= PARAGRAPH_TARGET_MS) {
      paragraphs.push(spanOf(words));
      words = [];
    }
  }
  if (words.length > 0) paragraphs.push(spanOf(words));
  return paragraphs;
}

function isSentences(
  input: readonly TranscriptWord[] | readonly TranscriptSentence[],
): input is readonly TranscriptSentence[] {
  const first = input[0];
  return first !== undefined && 'words' in first && Array.isArray(first.words);
}
