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
/** @deprecated Auto chapters are replaced by `speech_understanding.request.summarization`. */
export interface Chapter extends z.infer<typeof chapterShape> {}
export const chapter: z.ZodMiniType<Chapter> = chapterShape;

/*
 * `speech_understanding.response`: one entry per task asked. Shapes from AssemblyAI's docs (example outputs
 * of each Speech Understanding page, 2026); openapi.yml (March 2026) has only the first three and no
 * `status` on custom formatting, which the docs and the SDK (4.41.5) show. Every field is optional: an entry
 * for a task that failed may carry only its status.
 */

/** e.g. `success` or `completed`; the docs show both. */
const taskStatus = z.optional(z.string());
const mapping = z.optional(z.record(z.string(), z.string()));

const translationResultShape = z.looseObject({ status: taskStatus });
export interface TranslationResult extends z.infer<typeof translationResultShape> {}
export const translationResult: z.ZodMiniType<TranslationResult> = translationResultShape;

const speakerIdentificationResultShape = z.looseObject({
  status: taskStatus,
  /** Generic label (`"A"`) → the identified name or role. */
  mapping,
});
export interface SpeakerIdentificationResult extends z.infer<typeof speakerIdentificationResultShape> {}
export const speakerIdentificationResult: z.ZodMiniType<SpeakerIdentificationResult> =
  speakerIdentificationResultShape;

const customFormattingResultShape = z.looseObject({
  status: taskStatus,
  /** Text as said → text as formatted. */
  mapping,
  /** The transcript's text with the patterns applied. */
  formatted_text: z.optional(z.string()),
  formatted_utterances: z.optional(
    z.array(
      z.looseObject({
        text: z.optional(z.string()),
        start: z.optional(z.number()),
        end: z.optional(z.number()),
        confidence: z.optional(z.number()),
        speaker: maybe(z.string()),
      }),
    ),
  ),
});
export interface CustomFormattingResult extends z.infer<typeof customFormattingResultShape> {}
export const customFormattingResult: z.ZodMiniType<CustomFormattingResult> = customFormattingResultShape;

const summarySectionShape = z.looseObject({
  /** Integer milliseconds. */
  start: z.number(),
  /** Integer milliseconds. */
  end: z.number(),
  text: z.string(),
  headline: z.optional(z.string()),
});
/** One topic of a summary; what a chapter of the deprecated `auto_chapters` became. */
export interface SummarySection extends z.infer<typeof summarySectionShape> {}

const summarizationResultShape = z.looseObject({
  status: taskStatus,
  /** In the order of the audio. */
  summary: z.optional(z.array(summarySectionShape)),
});
export interface SummarizationResult extends z.infer<typeof summarizationResultShape> {}
export const summarizationResult: z.ZodMiniType<SummarizationResult> = summarizationResultShape;

const actionItemShape = z.looseObject({
  action_item: z.string(),
  /** The words the item comes from. */
  quote: z.optional(z.string()),
  // The docs say each item comes "with timestamps" but the excerpts read do not show the field's shape;
  // the sandbox sends the quote's start in milliseconds, so a number or a span is accepted.
  timestamp: z.optional(z.union([z.number(), timestamp])),
});
export interface ActionItem extends z.infer<typeof actionItemShape> {}

const actionItemsResultShape = z.looseObject({
  status: taskStatus,
  /** The effort the task ran with. */
  effort: z.optional(z.string()),
  items: z.optional(z.array(actionItemShape)),
});
export interface ActionItemsResult extends z.infer<typeof actionItemsResultShape> {}
export const actionItemsResult: z.ZodMiniType<ActionItemsResult> = actionItemsResultShape;

const speechUnderstandingResponseShape = z.looseObject({
  translation: z.optional(translationResultShape),
  speaker_identification: z.optional(speakerIdentificationResultShape),
  custom_formatting: z.optional(customFormattingResultShape),
  summarization: z.optional(summarizationResultShape),
  action_items: z.optional(actionItemsResultShape),
});
/** What each task of `speech_understanding.request` produced, by task name. */
export interface SpeechUnderstandingResponse extends z.infer<typeof speechUnderstandingResponseShape> {}
export const speechUnderstandingResponse: z.ZodMiniType<SpeechUnderstandingResponse> =
  speechUnderstandingResponseShape;
