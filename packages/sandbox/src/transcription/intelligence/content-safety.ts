/**
 * Content moderation in the shape of AssemblyAI's `content_safety_labels` (openapi.yml `ContentSafetyLabelsResult`).
 * The service uses a contextual classifier; the emulator flags profanity with obscenity's English dataset and a few
 * other topics with short stem lists, which is enough to exercise every field a client reads.
 */
import { countProfanity, isProfane } from './profanity.js';
import type { AnalysisSentence } from './sentiment.js';

/** Every label the service documents (content-moderation.mdx, "Supported labels"). */
export type ContentSafetyLabelName =
  | 'accidents'
  | 'alcohol'
  | 'financials'
  | 'crime_violence'
  | 'drugs'
  | 'gambling'
  | 'hate_speech'
  | 'health_issues'
  | 'manga'
  | 'marijuana'
  | 'disasters'
  | 'negative_news'
  | 'nsfw'
  | 'pornography'
  | 'profanity'
  | 'sensitive_social_issues'
  | 'terrorism'
  | 'tobacco'
  | 'weapons';

/** The docs mark these "Severity: No"; the emulator reports `severity: null` for them and leaves them out of the severity summary. */
export const LABELS_WITHOUT_SEVERITY: ReadonlySet<ContentSafetyLabelName> = new Set([
  'financials',
  'manga',
  'negative_news',
  'nsfw',
  'sensitive_social_issues',
]);

export type AudioIntelligenceModelStatus = 'success' | 'unavailable';

export interface ContentSafetyLabel {
  label: ContentSafetyLabelName | (string & {});
  confidence: number;
  /** openapi.yml types this as a plain number; null only for the labels in `LABELS_WITHOUT_SEVERITY`. */
  severity: number | null;
}

export interface Timestamp {
  start: number;
  end: number;
}

export interface ContentSafetyLabelResult {
  text: string;
  labels: ContentSafetyLabel[];
  /** Inclusive, like the service's example (six sentences → 0..5). */
  sentences_idx_start: number;
  sentences_idx_end: number;
  timestamp: Timestamp;
}

export interface SeverityScoreSummary {
  low: number;
  medium: number;
  high: number;
}

export interface ContentSafetyLabelsResult {
  status: AudioIntelligenceModelStatus;
  results: ContentSafetyLabelResult[];
  summary: Record<string, number>;
  severity_score_summary: Record<string, SeverityScoreSummary>;
}

export interface ContentSafetyOptions {
  /** The request's `content_safety_confidence`, a percent (25..100, default 50). */
  confidenceThreshold?: number;
}

// A trailing `*` lets the stem take any ending; bare entries match the whole word only, for stems whose prefix
// collides with innocent words ("heroin"/"heroine", "meth"/"method"). The number is the severity the word alone
// implies. Kept deliberately short: the point is a predictable emulator, not coverage.
const KEYWORDS: Readonly<Partial<Record<ContentSafetyLabelName, readonly (readonly [string, number])[]>>> = {
  crime_violence: [
    ['murder*', 0.8],
    ['homicide*', 0.8],
    ['kidnap*', 0.7],
    ['assault*', 0.6],
    ['robbery', 0.5],
    ['burglar*', 0.4],
    ['stabbed', 0.7],
    ['kill*', 0.6],
  ],
  weapons: [
    ['gun', 0.5],
    ['guns', 0.5],
    ['gunfire', 0.6],
    ['rifle*', 0.5],
    ['pistol*', 0.5],
    ['firearm*', 0.5],
    ['shotgun*', 0.5],
    ['ammunition', 0.4],
    ['grenade*', 0.7],
  ],
  drugs: [
    ['cocaine', 0.6],
    ['heroin', 0.7],
    ['meth', 0.6],
    ['methamphetamine', 0.7],
    ['fentanyl', 0.7],
    ['overdos*', 0.8],
    ['narcotic*', 0.5],
  ],
  marijuana: [
    ['marijuana', 0.3],
    ['cannabis', 0.3],
  ],
  alcohol: [
    ['alcohol*', 0.3],
    ['beer*', 0.2],
    ['wine*', 0.2],
    ['vodka', 0.3],
    ['whisky', 0.3],
    ['whiskey', 0.3],
    ['tequila', 0.3],
    ['drunk*', 0.5],
    ['hangover*', 0.4],
  ],
  tobacco: [
    ['tobacco', 0.3],
    ['cigar*', 0.3],
    ['nicotine', 0.3],
  ],
  gambling: [
    ['gambl*', 0.4],
    ['casino*', 0.3],
    ['poker', 0.3],
    ['roulette', 0.3],
    ['jackpot*', 0.3],
    ['sports betting', 0.4],
  ],
  hate_speech: [
    ['racist*', 0.7],
    ['bigot*', 0.6],
    ['xenophob*', 0.6],
    ['homophob*', 0.6],
    ['antisemit*', 0.7],
    ['supremacist*', 0.8],
  ],
  disasters: [
    ['earthquake*', 0.5],
    ['hurricane*', 0.5],
    ['tsunami*', 0.6],
    ['wildfire*', 0.4],
    ['tornado*', 0.5],
  ],
  financials: [
    ['revenue*', 0],
    ['earnings', 0],
    ['ebitda', 0],
    ['dividend*', 0],
  ],
};

// obscenity flags words, not how bad they are; a flat base keeps a lone swear word in the "medium" band.
const PROFANITY_SEVERITY = 0.45;

// obscenity's English dataset leaves out mild swearing, which the service still labels `profanity` (at a low
// severity). Same entry syntax as KEYWORDS; "hell" is whole-word so "hello" and "shell" stay clean.
const MILD_PROFANITY: readonly string[] = [
  'damn*',
  'goddamn*',
  'dammit',
  'hell',
  'crap*',
  'bloody',
  'piss*',
  'bugger*',
  'bollocks',
];
const MILD_PROFANITY_SEVERITY = 0.25;

const WORD = /[\p{L}\p{N}']+/gu;

interface Detector {
  mild: readonly RegExp[];
  keywords: readonly (readonly [ContentSafetyLabelName, readonly (readonly [RegExp, number])[]])[];
}

// The only module-level state: the keyword patterns, built on first use.
let detector: Detector | undefined;

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compileKeyword(entry: string): RegExp {
  const open = entry.endsWith('*');
  const body = escapeRegExp(open ? entry.slice(0, -1) : entry).replace(/ /g, '\\s+');
  return new RegExp(`(?<![\\p{L}\\p{N}])${body}${open ? '[\\p{L}\\p{N}]*' : ''}(?![\\p{L}\\p{N}])`, 'giu');
}

function getDetector(): Detector {
  detector ??= {
    mild: MILD_PROFANITY.map(compileKeyword),
    keywords: Object.entries(KEYWORDS).map(([label, entries]) => [
      label as ContentSafetyLabelName,
      (entries ?? []).map(([entry, severity]) => [compileKeyword(entry), severity] as const),
    ]),
  };
  return detector;
}

function round4(value: number): number {
  const rounded = Math.round(value * 10_000) / 10_000;
  // Float noise just below zero would otherwise round to -0, which JSON hides but strict equality in tests does not.
  return rounded === 0 ? 0 : rounded;
}

/**
 * Confidence and severity from the hit count and the share of the sentence's words that are hits, so one mention
 * in a long sentence is a weak flag and a sentence full of them a strong one. Both stay below 1; a single hit
 * starts just above 0.5 so the default threshold (50) reports it while 100 reports nothing.
 */
function scoreLabel(
  label: ContentSafetyLabelName,
  hits: number,
  words: number,
  baseSeverity: number,
): ContentSafetyLabel {
  const density = Math.min(1, hits / Math.max(1, words));
  const confidence = 0.99 - 0.45 * Math.exp(-0.7 * (hits - 1)) * (1 - density);
  const severity = LABELS_WITHOUT_SEVERITY.has(label)
    ? null
    : round4(Math.min(0.99, baseSeverity + 0.1 * (hits - 1) + 0.2 * density));
  return { label, confidence: round4(confidence), severity };
}

function labelSentence(text: string): ContentSafetyLabel[] {
  const { mild, keywords } = getDetector();
  const words = text.match(WORD)?.length ?? 0;
  const labels: ContentSafetyLabel[] = [];
  const strong = countProfanity(text);
  // A word both lists know (obscenity has some mild ones) counts once, as the stronger.
  let mildHits = 0;
  for (const pattern of mild) {
    for (const [word] of text.matchAll(pattern)) if (!isProfane(word)) mildHits += 1;
  }
  const profane = strong + mildHits;
  if (profane > 0) {
    const base = strong > 0 ? PROFANITY_SEVERITY : MILD_PROFANITY_SEVERITY;
    labels.push(scoreLabel('profanity', profane, words, base));
  }
  for (const [label, patterns] of keywords) {
    let hits = 0;
    let base = 0;
    for (const [pattern, severity] of patterns) {
      const found = text.match(pattern)?.length ?? 0;
      if (found === 0) continue;
      hits += found;
      base = Math.max(base, severity);
    }
    if (hits > 0) labels.push(scoreLabel(label, hits, words, base));
  }
  return labels;
}

function byConfidenceThenName(a: ContentSafetyLabel, b: ContentSafetyLabel): number {
  return b.confidence - a.confidence || (a.label < b.label ? -1 : a.label > b.label ? 1 : 0);
}

/**
 * A sentence's severity as a soft low/medium/high split that sums to 1: 0 is all low, 0.5 all medium, 1 all
 * high, linear in between. The docs describe the summary as such a distribution, not a single bin.
 */
function severityShares(severity: number): SeverityScoreSummary {
  const low = Math.max(0, 1 - 2 * severity);
  const high = Math.max(0, 2 * severity - 1);
  return { low, medium: 1 - low - high, high };
}

/**
 * Labels per sentence, then runs of consecutive flagged sentences become one section (the service's sections span
 * several sentences). Only labels whose confidence reaches `confidenceThreshold / 100` are reported anywhere.
 */
export function analyseContentSafety(
  sentences: readonly AnalysisSentence[],
  options: ContentSafetyOptions = {},
): ContentSafetyLabelsResult {
  const threshold = (options.confidenceThreshold ?? 50) / 100;
  const perSentence = sentences.map((sentence) =>
    labelSentence(sentence.text).filter((label) => label.confidence >= threshold),
  );

  const results: ContentSafetyLabelResult[] = [];
  let index = 0;
  while (index < sentences.length) {
    if (perSentence[index]?.length === 0) {
      index += 1;
      continue;
    }
    const first = index;
    while (index + 1 < sentences.length && (perSentence[index + 1]?.length ?? 0) > 0) index += 1;
    const group = sentences.slice(first, index + 1);
    // A section is as sensitive as its worst sentence: per label, the highest confidence and severity in the run.
    const merged = new Map<string, ContentSafetyLabel>();
    for (const label of perSentence.slice(first, index + 1).flat()) {
      const seen = merged.get(label.label);
      merged.set(
        label.label,
        seen
          ? {
              label: label.label,
              confidence: Math.max(seen.confidence, label.confidence),
              severity:
                seen.severity === null || label.severity === null
                  ? null
                  : Math.max(seen.severity, label.severity),
            }
          : label,
      );
    }
    results.push({
      text: group.map((sentence) => sentence.text).join(' '),
      labels: [...merged.values()].sort(byConfidenceThenName),
      sentences_idx_start: first,
      sentences_idx_end: index,
      timestamp: { start: group[0]!.start, end: group[group.length - 1]!.end },
    });
    index += 1;
  }

  return { status: 'success', results, ...summarise(sentences, perSentence) };
}

function summarise(
  sentences: readonly AnalysisSentence[],
  perSentence: readonly ContentSafetyLabel[][],
): Pick<ContentSafetyLabelsResult, 'summary' | 'severity_score_summary'> {
  const miss = new Map<string, number>();
  const severity = new Map<string, { weight: number; low: number; medium: number; high: number }>();
  perSentence.forEach((labels, i) => {
    // Longer sentences weigh more in the severity split, as they are more of the file's audio.
    const duration = Math.max(1, (sentences[i]?.end ?? 0) - (sentences[i]?.start ?? 0));
    for (const label of labels) {
      miss.set(label.label, (miss.get(label.label) ?? 1) * (1 - label.confidence));
      if (label.severity === null) continue;
      const shares = severityShares(label.severity);
      const sum = severity.get(label.label) ?? { weight: 0, low: 0, medium: 0, high: 0 };
      sum.weight += duration;
      sum.low += shares.low * duration;
      sum.medium += shares.medium * duration;
      sum.high += shares.high * duration;
      severity.set(label.label, sum);
    }
  });

  const names = [...miss.keys()].sort();
  const summary: Record<string, number> = {};
  // Whole-file confidence = probability that at least one reported sentence really has the topic (noisy-OR over
  // sentences), so repeated mentions raise it above any single sentence's, as in the service's example; capped < 1.
  for (const name of names) summary[name] = round4(Math.min(0.99, 1 - miss.get(name)!));

  const severityScoreSummary: Record<string, SeverityScoreSummary> = {};
  for (const name of names) {
    const sum = severity.get(name);
    if (!sum) continue;
    // Rounding cumulative shares (low, low+medium) rather than each one keeps all three ≥ 0 and summing to 1.
    const low = round4(sum.low / sum.weight);
    const lowMedium = round4((sum.low + sum.medium) / sum.weight);
    severityScoreSummary[name] = { low, medium: round4(lowMedium - low), high: round4(1 - lowMedium) };
  }
  return { summary, severity_score_summary: severityScoreSummary };
}
