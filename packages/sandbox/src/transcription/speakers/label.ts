import type { TranscriptWord } from '../derive/index.js';
import type { EngineWord, WordVoice } from '../engine/index.js';
import { diarize, speakerLetter } from './diarize.js';
import { speakerRange } from './options.js';

/** What the engine recognised in one channel (`channel` null: the mixdown of a transcript without multichannel). */
export interface Track {
  channel: number | null;
  words: readonly EngineWord[];
  voices?: readonly WordVoice[];
}

/**
 * The transcript's words from its tracks, with `speaker` (and `channel`) as the service sets them, in time order.
 * - `speaker_labels` alone: "A", "B"… per voice, in order of first appearance.
 * - `multichannel` alone: the channel number is the speaker ("1", "2"…), and every word has `channel`.
 * - both: speakers are found within each channel and named `{channel}{speaker}` ("1A", "1B", "2A"), the
 *   docs' per-channel diarization; `speaker_options` applies per channel there.
 * The docs (multichannel-transcription.mdx) and the SDK 4.41.5 disagree on multichannel speakers: the SDK's
 * `TranscriptUtterance.speaker` says every speaker is "a sequential capital letter", while the docs print
 * `Channel {utterance.speaker}` and spell out the `{channel}{speaker}` labels. The docs win here.
 * - neither: `speaker` is null.
 * `keep` drops words (audio_start_from / audio_end_at) after diarization, so the voices stay aligned with words.
 */
export function labelWords(
  params: Record<string, unknown>,
  tracks: readonly Track[],
  keep: (word: EngineWord) => boolean,
): TranscriptWord[] {
  const diarizing = params.speaker_labels === true;
  const range = speakerRange(params);
  const words: { word: TranscriptWord; channel: number }[] = [];
  for (const track of tracks) {
    const speakers = diarizing ? diarize(track.words, track.voices, range) : [];
    const channel = track.channel === null ? null : String(track.channel);
    track.words.forEach((w, i) => {
      if (!keep(w)) return;
      const letter = diarizing ? speakerLetter(speakers[i] ?? 0) : '';
      const word: TranscriptWord = {
        text: w.text,
        start: w.start,
        end: w.end,
        confidence: Math.round(w.confidence * 1000) / 1000,
        speaker: channel === null ? letter || null : `${channel}${letter}`,
      };
      if (channel !== null) word.channel = channel;
      words.push({ word, channel: track.channel ?? 0 });
    });
  }
  // Channels interleave by time; at the same instant the lower channel comes first.
  words.sort((a, b) => a.word.start - b.word.start || a.channel - b.channel);
  return words.map((w) => w.word);
}
