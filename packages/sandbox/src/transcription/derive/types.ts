/**
 * Wire shapes of AssemblyAI's views derived from a transcript's `words[]` (openapi.yml in
 * AssemblyAI/assemblyai-api-spec: `TranscriptWord`, `TranscriptSentence`, `TranscriptParagraph`). Fields are
 * snake_case because these objects are serialised as they are.
 */

/** One word of a completed transcript. Times are integer milliseconds; text is already formatted ("456."). */
export interface TranscriptWord {
  text: string;
  start: number;
  end: number;
  /** 0..1 */
  confidence: number;
  /** null unless speaker labels were requested. */
  speaker: string | null;
  /** "1", "2"… only on multichannel transcripts, so absent is not the same as null on the wire. */
  channel?: string | null;
}

export interface TranscriptSentence {
  text: string;
  start: number;
  end: number;
  confidence: number;
  words: TranscriptWord[];
  speaker: string | null;
  channel?: string | null;
}

/** The spec's paragraph has no speaker or channel (`additionalProperties: false`). */
export interface TranscriptParagraph {
  text: string;
  start: number;
  end: number;
  confidence: number;
  words: TranscriptWord[];
}
