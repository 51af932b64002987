import type { WordVoice } from '../engine/index.js';
import { clusterVoices, type VoiceUnit } from './cluster.js';
import type { SpeakerRange } from './options.js';

/**
 * Speaker diarization of one channel: which voice said each word. Words are grouped into stretches of speech
 * between pauses (a turn changes at a pause: people rarely hand over mid-breath), each stretch is one unit with
 * its typical pitch, the units are clustered into speakers, and a one-word stretch between two stretches of one
 * speaker joins them (such a flip is almost always a pitch error on a short word).
 */

/** A silence this long (ms) between two words may be a change of speaker; shorter ones never are. */
export const TURN_PAUSE_MS = 200;

/**
 * A speaker number for each word, 0 for the first voice heard, 1 for the next new one, and so on (so that
 * `speakerLetter` gives "A", "B"… in order of first appearance). `voices` is one entry per word; without it
 * (an engine that measures none) every word is speaker 0.
 */
export function diarize(
  words: readonly { start: number; end: number }[],
  voices: readonly WordVoice[] | undefined,
  range: SpeakerRange,
): number[] {
  if (!voices || voices.length !== words.length || words.length === 0) return words.map(() => 0);
  const stretches = pauseStretches(words);
  const units: VoiceUnit[] = stretches.map(([from, to]) => unitOf(voices.slice(from, to)));
  const labels = smoothFlips(clusterVoices(units, range), stretches);
  const order = new Map<number, number>();
  const speakers: number[] = [];
  stretches.forEach(([from, to], s) => {
    const label = labels[s]!;
    if (!order.has(label)) order.set(label, order.size);
    for (let i = from; i < to; i++) speakers.push(order.get(label)!);
  });
  return speakers;
}

/** "A" … "Z" for 0 … 25 (the most speakers a range allows). */
export function speakerLetter(speaker: number): string {
  return String.fromCharCode(65 + Math.max(0, Math.min(25, speaker)));
}

/** [from, to) word ranges separated by pauses of at least `TURN_PAUSE_MS`. */
function pauseStretches(words: readonly { start: number; end: number }[]): [number, number][] {
  const stretches: [number, number][] = [];
  let from = 0;
  for (let i = 1; i <= words.length; i++) {
    if (i === words.length || words[i]!.start - words[i - 1]!.end >= TURN_PAUSE_MS) {
      stretches.push([from, i]);
      from = i;
    }
  }
  return stretches;
}

/** The voiced-frame-weighted median pitch of a stretch, in semitones above 55 Hz. */
function unitOf(voices: readonly WordVoice[]): VoiceUnit {
  const pitched = voices
    .filter((v) => v.pitch_hz !== null && v.pitch_hz > 0 && v.voiced_frames > 0)
    .map((v) => ({ pitch: 12 * Math.log2(v.pitch_hz! / 55), weight: v.voiced_frames }))
    .sort((a, b) => a.pitch - b.pitch);
  const total = pitched.reduce((sum, p) => sum + p.weight, 0);
  let seen = 0;
  for (const p of pitched) {
    seen += p.weight;
    if (seen * 2 >= total) return { pitch: p.pitch, weight: total };
  }
  return { pitch: null, weight: 0 };
}

/** A one-word stretch between two stretches of one other speaker takes theirs, unless that loses a speaker. */
function smoothFlips(labels: number[], stretches: readonly [number, number][]): number[] {
  const counts = new Map<number, number>();
  for (const label of labels) counts.set(label, (counts.get(label) ?? 0) + 1);
  const out = [...labels];
  for (let s = 1; s + 1 < out.length; s++) {
    const [from, to] = stretches[s]!;
    const around = out[s - 1]!;
    if (to - from !== 1 || around !== out[s + 1] || around === out[s]) continue;
    if (counts.get(out[s]!) === 1) continue;
    counts.set(out[s]!, counts.get(out[s]!)! - 1);
    out[s] = around;
  }
  return out;
}
