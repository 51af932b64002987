import type { LiveWord } from '../../shared/api.js';
import { classifySentence } from './lexicon.js';
import type { TranscriptInput } from './summary.js';

/** A final turn of a live call: its text (formatted when the service formats turns) and its words' times. */
export interface SettledTurn {
  text: string;
  words: readonly LiveWord[];
}

export interface TimedSentence {
  text: string;
  start: number;
  end: number;
}

const SENTENCE_END = /[.?!]["'”’)]*$/;

/**
 * A turn's sentences with their times. A formatted turn's words carry the punctuation, so a sentence ends at
 * a word ending in `.`, `?` or `!`; its times are its first and last word's. When the words do not line up
 * with the text (a service that formats only `transcript`), each sentence gets the share of the turn's time
 * its words take.
 */
export function turnSentences(turn: SettledTurn): TimedSentence[] {
  const tokens = turn.text.split(/\s+/).filter(Boolean);
  if (tokens.length === 0) return [];
  const words = turn.words;
  const first = words[0]?.start ?? 0;
  const last = words.at(-1)?.end ?? first;
  const aligned = words.length === tokens.length;
  const startOf = (i: number) => (aligned ? words[i]!.start : first + ((last - first) * i) / tokens.length);
  const endOf = (i: number) => (aligned ? words[i]!.end : first + ((last - first) * (i + 1)) / tokens.length);
  const sentences: TimedSentence[] = [];
  let from = 0;
  tokens.forEach((token, i) => {
    if (!SENTENCE_END.test(token) && i !== tokens.length - 1) return;
    sentences.push({
      text: tokens.slice(from, i + 1).join(' '),
      start: Math.round(startOf(from)),
      end: Math.round(endOf(i)),
    });
    from = i + 1;
  });
  return sentences;
}

/**
 * A live call's final turns in the shape the uploaded calls' analysis reads (`TranscriptInput`): the text,
 * the duration, and a sentiment per sentence from the lexicon, since the streaming API gives none. No
 * content-safety labels: the streaming API has no content safety either.
 */
export function liveTranscriptInput(
  id: string,
  turns: readonly SettledTurn[],
  audioDurationSeconds: number | undefined,
): TranscriptInput {
  const sentences = turns.flatMap(turnSentences);
  const lastEnd = sentences.at(-1)?.end ?? 0;
  return {
    id,
    text: turns
      .map((t) => t.text.trim())
      .filter(Boolean)
      .join(' '),
    audio_duration: audioDurationSeconds ?? lastEnd / 1000,
    sentiment_analysis_results: sentences.map((s) => ({ ...s, ...classifySentence(s.text) })),
    content_safety_labels: null,
  };
}
