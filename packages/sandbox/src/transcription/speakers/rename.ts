/**
 * Speaker identification's second half. AssemblyAI's docs (Speech Understanding › Speaker Identification)
 * show the transcript itself changing: "Speaker A: Good morning…" becomes "Michel Martin: Good morning…",
 * so the identified names replace the diarised labels on the words and the utterances, while
 * `speech_understanding.response.speaker_identification.mapping` keeps the label → name table. SDK 4.41.5
 * types only the mapping; the docs win.
 */
import type { TranscriptWord } from '../derive/types.js';

/** The label → name table of a `speech_understanding` result, when speaker identification named anyone. */
export function identifiedSpeakers(understanding: unknown): ReadonlyMap<string, string> | null {
  const mapping = (
    understanding as { response?: { speaker_identification?: { mapping?: unknown } } } | undefined
  )?.response?.speaker_identification?.mapping;
  if (typeof mapping !== 'object' || mapping === null || Array.isArray(mapping)) return null;
  const names = new Map<string, string>();
  for (const [label, name] of Object.entries(mapping))
    if (typeof name === 'string' && name) names.set(label, name);
  return names.size ? names : null;
}

/** The words with each identified label replaced by its name; unnamed speakers keep their label. */
export function renameSpeakers(
  words: TranscriptWord[],
  names: ReadonlyMap<string, string> | null,
): TranscriptWord[] {
  if (!names) return words;
  return words.map((word) => {
    const name = word.speaker === null || word.speaker === undefined ? undefined : names.get(word.speaker);
    return name === undefined ? word : { ...word, speaker: name };
  });
}

/** Sentence-level results (`sentiment_analysis_results`) carry a `speaker` too: the same names there. */
export function renameSpeakerFields<T extends { speaker?: string | null }>(
  items: T[] | null,
  names: ReadonlyMap<string, string> | null,
): T[] | null {
  if (!names || !items) return items;
  return items.map((item) => {
    const name = typeof item.speaker === 'string' ? names.get(item.speaker) : undefined;
    return name === undefined ? item : { ...item, speaker: name };
  });
}
