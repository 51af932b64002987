/**
 * Extractive summaries: the transcript's own sentences, chosen by how much of the call's vocabulary they
 * carry (the classic frequency method: each content word weighs how often it was said; a sentence scores the
 * sum of its words over the square root of its length, so long sentences do not win by length alone). The
 * service writes abstractive summaries with a language model; the emulator never invents words, so every
 * summary here is made of what was said, in the order it was said.
 *
 * Used by the legacy `summarization: true` (`summary`, by `summary_type`) and by speech_understanding's
 * `summarization` task (topic sections with a headline each).
 */
import type { TranscriptSentence } from '../derive/types.js';
import { extractHighlights } from './highlights.js';
import { STOPWORDS } from './stopwords.js';
import { trimPunctuation } from './word-spans.js';

export type SummaryType = 'bullets' | 'bullets_verbose' | 'gist' | 'headline' | 'paragraph';

/** A sentence with what the summariser reads. */
type Sentence = Pick<TranscriptSentence, 'text' | 'start' | 'end' | 'words'>;

function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[a-z][a-z']*/g) ?? []).filter((w) => !STOPWORDS.has(w));
}

/** Indices of the `count` best sentences, in spoken order. */
export function topSentences(sentences: readonly Sentence[], count: number): number[] {
  const frequency = new Map<string, number>();
  for (const s of sentences)
    for (const w of contentWords(s.text)) frequency.set(w, (frequency.get(w) ?? 0) + 1);
  const scores = sentences.map((s) => {
    const words = contentWords(s.text);
    return words.reduce((sum, w) => sum + frequency.get(w)!, 0) / Math.sqrt(words.length + 1);
  });
  return scores
    .map((score, index) => ({ score, index }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, count))
    .map((s) => s.index)
    .sort((a, b) => a - b);
}

const clamp = (n: number, low: number, high: number) => Math.max(low, Math.min(high, n));

/** The best sentence, at most twelve words, without its closing punctuation: a title, not a sentence. */
export function headline(sentences: readonly Sentence[]): string {
  const [best] = topSentences(sentences, 1);
  if (best === undefined) return '';
  const words = sentences[best]!.text.split(/\s+/).filter(Boolean);
  return trimPunctuation(words.slice(0, 12).join(' '));
}

/** The call's top key phrase, capitalised: a few words, as the service's gist is. */
function gist(sentences: readonly Sentence[]): string {
  const [top] = extractHighlights(sentences.flatMap((s) => s.words)).results;
  if (!top) return headline(sentences);
  return top.text.charAt(0).toUpperCase() + top.text.slice(1);
}

const bullets = (texts: readonly string[]) => texts.map((t) => `- ${t}`).join('\n');

/** The text of one summary of `sentences` in the asked form. */
export function summarise(sentences: readonly Sentence[], type: SummaryType): string {
  const n = sentences.length;
  const pick = (count: number) => topSentences(sentences, count).map((i) => sentences[i]!.text);
  switch (type) {
    case 'headline':
      return headline(sentences);
    case 'gist':
      return gist(sentences);
    case 'paragraph':
      return pick(clamp(Math.ceil(n / 3), 1, 5)).join(' ');
    case 'bullets_verbose':
      return bullets(pick(clamp(Math.ceil(n / 2), 1, 10)));
    default:
      return bullets(pick(clamp(Math.ceil(n / 4), 1, 5)));
  }
}

/** Sentences per topic section: the emulator splits by length, as it cannot tell topics apart. */
const SECTION_SENTENCES = 8;

export interface SummarySection {
  start: number;
  end: number;
  text: string;
  headline: string;
}

/** speech_understanding's `summary[]`: consecutive sections, each summarised and titled on its own. */
export function summariseSections(sentences: readonly Sentence[], type: SummaryType): SummarySection[] {
  const sections: SummarySection[] = [];
  for (let at = 0; at < sentences.length; at += SECTION_SENTENCES) {
    const part = sentences.slice(at, at + SECTION_SENTENCES);
    sections.push({
      start: part[0]!.start,
      end: part[part.length - 1]!.end,
      text: summarise(part, type),
      headline: headline(part),
    });
  }
  return sections;
}
