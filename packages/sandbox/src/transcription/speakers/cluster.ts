import type { SpeakerRange } from './options.js';

/**
 * Speakers as clusters of pitch. Voices are told apart by their typical pitch (semitones, so that 100 vs 200 Hz
 * and 150 vs 300 Hz are the same distance), clustered with a weighted 1-D k-means. Each pass is O(units × k),
 * and k only grows while the clusters found stay apart, so the cost is linear in the audio's length.
 */

export interface VoiceUnit {
  /** Typical pitch in semitones (any reference); null, NaN or infinite when the unit had no voiced frame. */
  pitch: number | null;
  /** How much voice the unit holds (voiced frames); units of no weight follow their neighbours. */
  weight: number;
}

/**
 * The pitch gap (semitones) between two clusters for them to count as two voices when the request leaves the
 * count open. One voice's statements and questions stay within about 3 semitones of each other; a man's and a
 * woman's voice are near 12 apart, two men or two women often 4–7.
 */
export const MIN_GAP_SEMITONES = 4;
/** A cluster needs this much voice (20 ms frames: 0.2 s) to be a speaker of its own when the count is open. */
export const MIN_CLUSTER_WEIGHT = 10;
const MAX_ITERATIONS = 50;

/**
 * A cluster number (0-based, in no particular order) for each unit. With an exact count that many clusters
 * (fewer only when there are fewer distinct voiced pitches); otherwise the largest count within the range
 * whose clusters are all `MIN_GAP_SEMITONES` apart and `MIN_CLUSTER_WEIGHT` heavy, never below the range's min.
 * A unit without pitch takes the cluster of the voiced unit before it (or after it, at the start).
 */
export function clusterVoices(units: readonly VoiceUnit[], range: SpeakerRange): number[] {
  const voiced: { index: number; pitch: number; weight: number }[] = [];
  units.forEach((unit, index) => {
    const { pitch, weight } = unit;
    if (pitch === null || !Number.isFinite(pitch) || !(weight > 0) || !Number.isFinite(weight)) return;
    voiced.push({ index, pitch, weight });
  });
  const labels = new Array<number>(units.length).fill(0);
  if (voiced.length === 0) return labels;
  const distinct = [...new Set(voiced.map((v) => v.pitch))].sort((a, b) => a - b);
  const most = Math.max(1, Math.min(range.max, distinct.length));
  const least = Math.max(1, Math.min(range.min, most));
  let fit = kMeans(voiced, distinct, least);
  if (!range.exact) {
    for (let k = least + 1; k <= most; k++) {
      const next = kMeans(voiced, distinct, k);
      if (!separated(next)) break;
      fit = next;
    }
  }
  voiced.forEach((v, i) => {
    labels[v.index] = fit.assignment[i]!;
  });
  fillUnvoiced(labels, new Set(voiced.map((v) => v.index)));
  return labels;
}

interface Fit {
  centers: number[];
  weights: number[];
  assignment: number[];
}

/**
 * Lloyd's k-means in one dimension, started from k distinct observed pitches spread evenly over their sorted
 * order, so every cluster starts with at least the unit at its centre.
 */
function kMeans(points: readonly { pitch: number; weight: number }[], distinct: number[], k: number): Fit {
  const centers = Array.from(
    { length: k },
    (_, i) => distinct[Math.floor(((i + 0.5) * distinct.length) / k)]!,
  );
  const assignment = new Array<number>(points.length).fill(0);
  let weights = new Array<number>(k).fill(0);
  for (let iteration = 0; iteration < MAX_ITERATIONS; iteration++) {
    let changed = iteration === 0;
    points.forEach((p, i) => {
      const nearest = nearestCenter(centers, p.pitch);
      if (nearest !== assignment[i]) {
        assignment[i] = nearest;
        changed = true;
      }
    });
    const sums = new Array<number>(k).fill(0);
    weights = new Array<number>(k).fill(0);
    points.forEach((p, i) => {
      const c = assignment[i]!;
      sums[c]! += p.pitch * p.weight;
      weights[c]! += p.weight;
    });
    for (let c = 0; c < k; c++) if (weights[c]! > 0) centers[c] = sums[c]! / weights[c]!;
    if (!changed) break;
  }
  return { centers, weights, assignment };
}

function nearestCenter(centers: readonly number[], pitch: number): number {
  let best = 0;
  for (let c = 1; c < centers.length; c++) {
    if (Math.abs(centers[c]! - pitch) < Math.abs(centers[best]! - pitch)) best = c;
  }
  return best;
}

function separated(fit: Fit): boolean {
  const live = fit.centers.filter((_, c) => fit.weights[c]! > 0);
  if (live.length < fit.centers.length) return false;
  if (fit.weights.some((w) => w < MIN_CLUSTER_WEIGHT)) return false;
  const sorted = [...live].sort((a, b) => a - b);
  return sorted.every((center, i) => i === 0 || center - sorted[i - 1]! >= MIN_GAP_SEMITONES);
}

function fillUnvoiced(labels: number[], voiced: ReadonlySet<number>): void {
  let previous: number | undefined;
  const pending: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    if (!voiced.has(i)) {
      if (previous === undefined) pending.push(i);
      else labels[i] = previous;
      continue;
    }
    previous = labels[i]!;
    for (const j of pending.splice(0)) labels[j] = previous;
  }
}
