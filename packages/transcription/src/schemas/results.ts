import * as z from 'zod/mini';
import { audioIntelligenceModelStatus, entityType, sentiment, timestamp, transcriptWord } from './common.js';

/*
 * The audio-intelligence outputs a transcript carries (utterances, sentiment, content safety, entities,
 * key phrases, topics, chapters). Loose like every response: the models gain fields over time.
 */

const maybe = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));

const utteranceShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  /** 0–1. */
  confidence: z.number(),
  /** `"A"`, `"B"`…; with multichannel alone, the channel number. */
  speaker: z.string(),
  words: z.array(transcriptWord),
  channel: maybe(z.string()),
  /** Language code → this utterance translated (with `match_original_utterance`). */
  translated_texts: z.optional(z.record(z.string(), z.string())),
});
/** A stretch of uninterrupted speech by one speaker (`speaker_labels` or `multichannel`). */
export interface TranscriptUtterance extends z.infer<typeof utteranceShape> {}
export const transcriptUtterance: z.ZodMiniType<TranscriptUtterance> = utteranceShape;

const sentimentShape = z.looseObject({
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  sentiment,
  confidence: z.number(),
  speaker: maybe(z.string()),
  channel: maybe(z.string()),
});
/** The sentiment of one sentence. */
export interface SentimentAnalysisResult extends z.infer<typeof sentimentShape> {}
export const sentimentAnalysisResult: z.ZodMiniType<SentimentAnalysisResult> = sentimentShape;

const contentSafetyLabel = z.looseObject({
  /** e.g. `disasters`, `health_issues`; open, new labels appear. */
  label: z.string(),
  confidence: z.number(),
  /** 0–1; null for labels that have no severity (`financials`, `manga`, `nsfw`…). */
  severity: maybe(z.number()),
});

const contentSafetyShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      text: z.string(),
      labels: z.array(contentSafetyLabel),
      /** Index into the transcript's sentences. */
      sentences_idx_start: z.number(),
      sentences_idx_end: z.number(),
      timestamp,
    }),
  ),
  /** Label → confidence (0–1) for the file as a whole. */
  summary: z.record(z.string(), z.number()),
  /** Label → how the file's flagged content splits into low/medium/high severity. */
  severity_score_summary: z.record(
    z.string(),
    z.looseObject({ low: z.number(), medium: z.number(), high: z.number() }),
  ),
});
/** Content moderation output. */
export interface ContentSafetyLabelsResult extends z.infer<typeof contentSafetyShape> {}
export const contentSafetyLabelsResult: z.ZodMiniType<ContentSafetyLabelsResult> = contentSafetyShape;

const entityShape = z.looseObject({
  entity_type: entityType,
  text: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
});
export interface Entity extends z.infer<typeof entityShape> {}
export const entity: z.ZodMiniType<Entity> = entityShape;

const autoHighlightsShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      /** Times the phrase occurs. */
      count: z.number(),
      /** 0–1 relevance of the phrase to the whole file. */
      rank: z.number(),
      text: z.string(),
      timestamps: z.array(timestamp),
    }),
  ),
});
/** Key phrases output. */
export interface AutoHighlightsResult extends z.infer<typeof autoHighlightsShape> {}
export const autoHighlightsResult: z.ZodMiniType<AutoHighlightsResult> = autoHighlightsShape;

const topicDetectionShape = z.looseObject({
  status: audioIntelligenceModelStatus,
  results: z.array(
    z.looseObject({
      text: z.string(),
      /** IAB labels such as `Technology&Computing>Computing`; relevance 0–1. */
      labels: z.optional(z.array(z.looseObject({ relevance: z.number(), label: z.string() }))),
      timestamp: z.optional(timestamp),
    }),
  ),
  /** Label → relevance (0–1) for the file as a whole. */
  summary: z.record(z.string(), z.number()),
});
/** Topic detection (`iab_categories`) output. */
export interface TopicDetectionModelResult extends z.infer<typeof topicDetectionShape> {}
export const topicDetectionModelResult: z.ZodMiniType<TopicDetectionModelResult> = topicDetectionShape;

const chapterShape = z.looseObject({
  gist: z.string(),
  headline: z.string(),
  summary: z.string(),
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
});
/** @deprecated Auto chapters are replaced by LLM Gateway. */
export interface Chapter extends z.infer<typeof chapterShape> {}
export const chapter: z.ZodMiniType<Chapter> = chapterShape;
