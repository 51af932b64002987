import { sameVoice, spanOf } from './sentences.js';
import type { TranscriptWord } from './types.js';

/** openapi.yml's `TranscriptUtterance`: one uninterrupted turn of one speaker (and channel). */
export interface TranscriptUtterance {
  text: string;
  start: number;
  end: number;
  confidence: number;
  speaker: string;
  words: TranscriptWord[];
  /** Only on multichannel transcripts, like the words' `channel`. */
  channel?: string;
}

/**
 * The turn-by-turn utterances of words in time order: a new one wherever the speaker or channel changes. The
 * confidence is the mean of the words' (openapi.yml's example utterance has 0.9359033333333334, a mean of
 * three), unlike sentences and paragraphs, which carry their first word's.
 */
export function buildUtterances(words: readonly TranscriptWord[]): TranscriptUtterance[] {
  const utterances: TranscriptUtterance[] = [];
  let from = 0;
  for (let i = 1; i <= words.length; i++) {
    if (i < words.length && sameVoice(words[from]!, words[i]!)) continue;
    if (i > from) utterances.push(toUtterance(words.slice(from, i)));
    from = i;
  }
  return utterances;
}

function toUtterance(words: readonly TranscriptWord[]): TranscriptUtterance {
  const first = words[0]!;
  const confidence =
    Math.round((words.reduce((sum, w) => sum + w.confidence, 0) / words.length) * 1000) / 1000;
  const utterance: TranscriptUtterance = { ...spanOf(words), confidence, speaker: first.speaker ?? '' };
  if (typeof first.channel === 'string') utterance.channel = first.channel;
  return utterance;
}
