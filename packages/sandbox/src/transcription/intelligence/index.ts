/**
 * Audio intelligence the transcription emulator derives from recognised words (sentiment, content safety,
 * entities, key phrases, summaries, speech understanding, language confidence), in AssemblyAI's response shapes.
 * Pure functions over words and sentences, so the REST layer decides when (and whether) to run them.
 */

export { type ActionItem, findActionItems } from './action-items.js';
export { analyseTranscript, type IntelligenceInput, type TranscriptIntelligence } from './analyse.js';
export {
  type AudioIntelligenceModelStatus,
  analyseContentSafety,
  type ContentSafetyLabel,
  type ContentSafetyLabelName,
  type ContentSafetyLabelResult,
  type ContentSafetyLabelsResult,
  type ContentSafetyOptions,
  LABELS_WITHOUT_SEVERITY,
  type SeverityScoreSummary,
  type Timestamp,
} from './content-safety.js';
export { type CustomFormattingRequest, customFormat } from './custom-formatting.js';
export { detectEntities, type Entity, type EntityType } from './entities.js';
export { type AutoHighlightResult, type AutoHighlightsResult, extractHighlights } from './highlights.js';
export { DETECTED_LANGUAGE, LanguageConfidenceError, languageConfidence } from './language.js';
export { countProfanity, isProfane } from './profanity.js';
export {
  type AnalysisSentence,
  analyseSentiment,
  classifySentiment,
  type Sentiment,
  type SentimentAnalysisResult,
} from './sentiment.js';
export { identifySpeakers, type SpeakerIdentificationRequest } from './speaker-identification.js';
export { type SummarySection, type SummaryType, summarise, summariseSections } from './summarise.js';
export { TRANSLATABLE, type Understanding, understand } from './understanding.js';
