import type { SpeakerRange } from './options.js';

/**
 * Speakers as clusters of pitch. Voices are told apart by their typical pitch (semitones, so that 100 vs 200 Hz
 * and 150 vs 300 Hz are the same distance), clustered with an exact weighted 1-D k-means. Each fit is
 * O(k n log n) for n stretches of speech, and k only grows while the clusters found stay apart: no cost grows
 * with the square of the audio's length.
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
/** Bounds that keep sums of squares finite; real pitches are 0–60 semitones, weights thousands of frames. */
const MAX_ABS_PITCH = 1e4;
const MAX_WEIGHT = 1e9;

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
    const bounded = Math.max(-MAX_ABS_PITCH, Math.min(MAX_ABS_PITCH, pitch));
    voiced.push({ index, pitch: bounded, weight: Math.min(weight, MAX_WEIGHT) });
  });
  const labels = new Array<number>(units.length).fill(0);
  if (voiced.length === 0) return labels;
  voiced.sort((a, b) => a.pitch - b.pitch);
  const distinct = new Set(voiced.map((v) => v.pitch)).size;
  const most = Math.max(1, Math.min(range.max, distinct));
  const least = Math.max(1, Math.min(range.min, most));
  let fit = kMeans(voiced, least);
  if (!range.exact) {
    for (let k = least + 1; k <= most; k++) {
      const next = kMeans(voiced, k);
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
  /** The cluster of each point, points sorted by pitch. */
  assignment: number[];
}

/**
 * The optimal weighted k-means of points sorted by pitch. In one dimension the best clusters are runs of the
 * sorted points, so dynamic programming over where each run starts finds the global optimum (no unlucky start
 * puts two centres in one voice and leaves two voices sharing one). The best start only moves right as the
 * run's end does, so each layer is filled by divide and conquer in O(n log n).
 */
function kMeans(points: readonly { pitch: number; weight: number }[], k: number): Fit {
  const n = points.length;
  const w = new Float64Array(n + 1);
  const s = new Float64Array(n + 1);
  const q = new Float64Array(n + 1);
  points.forEach((p, i) => {
    w[i + 1] = w[i]! + p.weight;
    s[i + 1] = s[i]! + p.weight * p.pitch;
    q[i + 1] = q[i]! + p.weight * p.pitch * p.pitch;
  });
  /** Weighted squared error of the points [i, j) around their mean. */
  const cost = (i: number, j: number) => {
    const weight = w[j]! - w[i]!;
    if (!(weight > 0)) return 0;
    const sum = s[j]! - s[i]!;
    return Math.max(0, q[j]! - q[i]! - (sum * sum) / weight);
  };
  let previous = Float64Array.from({ length: n + 1 }, (_, j) => cost(0, j));
  const starts: Int32Array[] = [];
  for (let m = 1; m < k; m++) {
    const current = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const start = new Int32Array(n + 1);
    const fill = (lo: number, hi: number, optLo: number, optHi: number): void => {
      if (lo > hi) return;
      const j = (lo + hi) >> 1;
      let best = Math.max(m, optLo);
      let bestCost = Number.POSITIVE_INFINITY;
      for (let i = best; i <= Math.min(j - 1, optHi); i++) {
        const c = previous[i]! + cost(i, j);
        if (c < bestCost) {
          bestCost = c;
          best = i;
        }
      }
      current[j] = bestCost;
      start[j] = best;
      fill(lo, j - 1, optLo, best);
      fill(j + 1, hi, best, optHi);
    };
    fill(m + 1, n, m, n - 1);
    starts.push(start);
    previous = current;
  }
  const assignment = new Array<number>(n).fill(0);
  let end = n;
  for (let m = k - 1; m >= 1; m--) {
    const from = starts[m - 1]![end]!;
    for (let i = from; i < end; i++) assignment[i] = m;
    end = from;
  }
  const centers = new Array<number>(k).fill(0);
  const weights = new Array<number>(k).fill(0);
  points.forEach((p, i) => {
    centers[assignment[i]!]! += p.weight * p.pitch;
    weights[assignment[i]!]! += p.weight;
  });
  for (let c = 0; c < k; c++) centers[c] = weights[c]! > 0 ? centers[c]! / weights[c]! : 0;
  return { centers, weights, assignment };
}

/** Every cluster heavy enough, and neighbouring centres far enough apart, to be voices of their own. */
function separated(fit: Fit): boolean {
  if (fit.weights.some((w) => !(w >= MIN_CLUSTER_WEIGHT))) return false;
  const sorted = [...fit.centers].sort((a, b) => a - b);
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
