/**
 * Audio intelligence the transcription emulator derives from recognised words: `sentiment_analysis_results` and
 * `content_safety_labels`, in AssemblyAI's response shapes. Pure functions over sentences, so the REST layer decides
 * when (and whether) to run them.
 */
export { analyseTranscript, type IntelligenceInput, type TranscriptIntelligence } from './analyse.js';
export {
  type AudioIntelligenceModelStatus,
  analyseContentSafety,
  type ContentSafetyLabel,
  type ContentSafetyLabelName,
  type ContentSafetyLabelResult,
  type ContentSafetyLabelsResult,
  type ContentSafetyOptions,
  isProfane,
  LABELS_WITHOUT_SEVERITY,
  type SeverityScoreSummary,
  type Timestamp,
} from './content-safety.js';
export {
  type AnalysisSentence,
  analyseSentiment,
  classifySentiment,
  type Sentiment,
  type SentimentAnalysisResult,
} from './sentiment.js';
