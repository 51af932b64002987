import * as z from 'zod/mini';
import { type RedactedAudio, redactedAudio, transcriptWord } from './common.js';

/*
 * Outputs derived from a completed transcript: sentences, paragraphs, word search, subtitles and the
 * redacted audio. Same leniency as the transcript: only what identifies the result is required.
 */

const sentenceShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  words: z.array(transcriptWord),
  /** `"A"`, `"B"`… with `speaker_labels`, otherwise null. */
  speaker: z.optional(z.nullable(z.string())),
  channel: z.optional(z.nullable(z.string())),
});
export interface TranscriptSentence extends z.infer<typeof sentenceShape> {}
export const transcriptSentence: z.ZodMiniType<TranscriptSentence> = sentenceShape;

const sentencesShape = z.looseObject({
  id: z.string(),
  confidence: z.optional(z.nullable(z.number())),
  /** Seconds; here the spec allows a fraction, unlike the transcript's integer. */
  audio_duration: z.optional(z.nullable(z.number())),
  sentences: z.array(sentenceShape),
});
/** Answer of `GET /v2/transcript/{id}/sentences`. */
export interface SentencesResponse extends z.infer<typeof sentencesShape> {}
export const sentencesResponse: z.ZodMiniType<SentencesResponse> = sentencesShape;

const paragraphShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  words: z.array(transcriptWord),
});
export interface TranscriptParagraph extends z.infer<typeof paragraphShape> {}
export const transcriptParagraph: z.ZodMiniType<TranscriptParagraph> = paragraphShape;

const paragraphsShape = z.looseObject({
  id: z.string(),
  confidence: z.optional(z.nullable(z.number())),
  /** Seconds. */
  audio_duration: z.optional(z.nullable(z.number())),
  paragraphs: z.array(paragraphShape),
});
/** Answer of `GET /v2/transcript/{id}/paragraphs`. */
export interface ParagraphsResponse extends z.infer<typeof paragraphsShape> {}
export const paragraphsResponse: z.ZodMiniType<ParagraphsResponse> = paragraphsShape;

const NO_COMMA = 'must not contain a comma: the words travel comma-separated in one query parameter';
const MAX_WORDS = 'must be at most 5 words: the API searches single words or phrases of up to five';

/** One term of a word search: a word, a number, or a phrase of up to five of them. */
export const wordSearchTerm = z.string().check(
  z.refine((term) => term.trim() !== '', 'must not be empty'),
  z.refine((term) => !term.includes(','), NO_COMMA),
  z.refine((term) => term.trim().split(/\s+/).length <= 5, MAX_WORDS),
);
/** The `words` query of `GET /v2/transcript/{id}/word-search`: at least one term. */
export const wordSearchWords = z.array(wordSearchTerm).check(z.minLength(1));
export type WordSearchWords = z.infer<typeof wordSearchWords>;

const matchShape = z.looseObject({
  text: z.string(),
  /** Occurrences of this term. */
  count: z.number(),
  /** `[start, end]` of each occurrence, in integer milliseconds. */
  timestamps: z.array(z.tuple([z.number(), z.number()], z.number())),
  /** Positions of each occurrence in the transcript's `words` array. */
  indexes: z.array(z.number()),
});
export interface WordSearchMatch extends z.infer<typeof matchShape> {}
export const wordSearchMatch: z.ZodMiniType<WordSearchMatch> = matchShape;

const wordSearchShape = z.looseObject({
  id: z.string(),
  /** Occurrences of all terms together. */
  total_count: z.number(),
  matches: z.array(matchShape),
});
/** Answer of `GET /v2/transcript/{id}/word-search`. */
export interface WordSearchResponse extends z.infer<typeof wordSearchShape> {}
export const wordSearchResponse: z.ZodMiniType<WordSearchResponse> = wordSearchShape;

/** The `{subtitle_format}` path segment. */
export const subtitleFormat = z.enum(['srt', 'vtt']);
export type SubtitleFormat = z.infer<typeof subtitleFormat>;

const subtitleParamsShape = z.strictObject({
  /** Longest caption, in characters; the server picks when absent. */
  chars_per_caption: z.optional(z.number().check(z.int(), z.positive())),
});
/** Query of `GET /v2/transcript/{id}/{srt|vtt}` (the answer is the caption file as text). */
export interface SubtitleParams extends z.infer<typeof subtitleParamsShape> {}
export const subtitleParams: z.ZodMiniType<SubtitleParams> = subtitleParamsShape;

/** Answer of `GET /v2/transcript/{id}/redacted-audio`. */
export interface RedactedAudioResponse extends RedactedAudio {}
export const redactedAudioResponse: z.ZodMiniType<RedactedAudioResponse> = redactedAudio;
