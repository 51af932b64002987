/**
 * The views AssemblyAI derives from a completed transcript's `words[]`: `/sentences`, `/paragraphs`,
 * `/srt`, `/vtt`, `/word-search` and the transcript's `utterances`. Pure functions, so the REST layer only adds `id`, `confidence` and
 * `audio_duration` around them, and sentiment and content safety can reuse the same sentences.
 */
export type { Caption, CaptionOptions } from './captions.js';
export {
  buildCaptions,
  CAPTION_PAUSE_MS,
  CAPTION_TARGET_MS,
  formatSrtTimestamp,
  formatVttTimestamp,
  toSrt,
  toVtt,
} from './captions.js';
export { groupParagraphs, PARAGRAPH_PAUSE_MS, PARAGRAPH_TARGET_MS } from './paragraphs.js';
export { endsSentence, sameVoice, splitSentences } from './sentences.js';
export type { TranscriptParagraph, TranscriptSentence, TranscriptWord } from './types.js';
export { buildUtterances, type TranscriptUtterance } from './utterances.js';
export type { WordSearchMatch, WordSearchResult } from './word-search.js';
export { MAX_SEARCH_PHRASE_WORDS, normalizeToken, searchWords } from './word-search.js';
