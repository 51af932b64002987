import type { Sentiment } from '../../shared/api.js';

/*
 * Sentence sentiment from words alone, for live calls: the streaming API returns text and timings but no
 * sentiment (an uploaded call gets AssemblyAI's own `sentiment_analysis`). A small lexicon of what callers
 * to a shop say, with negation ("not happy") and intensifiers ("very unhappy"): plain, predictable, and
 * wrong on irony, like any lexicon. The weights are ours, from -3 to 3.
 */
const WEIGHTS: Record<string, number> = {
  // Negative: delivery and product trouble, and how the caller feels about it.
  terrible: -3,
  awful: -3,
  horrible: -3,
  worst: -3,
  unacceptable: -3,
  disgusting: -3,
  furious: -3,
  hate: -3,
  unhappy: -2,
  angry: -2,
  upset: -2,
  disappointed: -2,
  disappointing: -2,
  frustrated: -2,
  frustrating: -2,
  annoyed: -2,
  ridiculous: -2,
  useless: -2,
  broken: -2,
  damaged: -2,
  bad: -2,
  poor: -2,
  wrong: -2,
  complaint: -2,
  complain: -2,
  late: -1,
  delayed: -1,
  missing: -1,
  lost: -1,
  problem: -1,
  never: -1,
  // Positive.
  excellent: 3,
  perfect: 3,
  amazing: 3,
  fantastic: 3,
  wonderful: 3,
  love: 3,
  awesome: 3,
  great: 2,
  happy: 2,
  pleased: 2,
  glad: 2,
  lovely: 2,
  thank: 2,
  thanks: 2,
  helpful: 2,
  appreciate: 2,
  good: 1,
  nice: 1,
  fine: 1,
};

const NEGATORS = new Set([
  'not',
  "don't",
  "didn't",
  "doesn't",
  "isn't",
  "wasn't",
  "aren't",
  "weren't",
  'no',
  'hardly',
]);
const INTENSIFIERS = new Set(['very', 'really', 'so', 'extremely', 'totally', 'absolutely', 'completely']);
/** How far back a negator reaches: "not at all happy". */
const NEGATION_REACH = 3;

export function words(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[’‘]/g, "'")
    .split(/[^a-z']+/)
    .map((w) => w.replace(/^'+|'+$/g, ''))
    .filter(Boolean);
}

/** The lexicon's score of a sentence: the sum of its words' weights, negated and intensified. */
export function lexiconScore(text: string): number {
  const tokens = words(text);
  let score = 0;
  tokens.forEach((token, i) => {
    const weight = WEIGHTS[token];
    if (weight === undefined) return;
    const before = tokens.slice(Math.max(0, i - NEGATION_REACH), i);
    const negated = before.some((w) => NEGATORS.has(w));
    const intensified = i > 0 && INTENSIFIERS.has(tokens[i - 1]!);
    score += weight * (negated ? -0.5 : 1) * (intensified ? 1.5 : 1);
  });
  return score;
}

/** A sentence's sentiment and a confidence that grows with the evidence (0.5–0.95). */
export function classifySentence(text: string): { sentiment: Sentiment; confidence: number } {
  const score = lexiconScore(text);
  if (score === 0) return { sentiment: 'NEUTRAL', confidence: 0.8 };
  const confidence = Math.round((0.5 + 0.45 * Math.tanh(Math.abs(score) / 2)) * 1000) / 1000;
  return { sentiment: score > 0 ? 'POSITIVE' : 'NEGATIVE', confidence };
}
