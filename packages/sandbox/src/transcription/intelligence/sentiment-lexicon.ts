/**
 * The emulator's extension of AFINN-165 for customer-service calls, and the rule words the scorer reads.
 *
 * AFINN was built from tweets: it misses the words that make a support call negative ("late", "refund",
 * "faulty", "never arrived") and scores request words as praise ("I want to change my address" +1, "please"
 * +1, "I would like" +2). Entries here override AFINN's score for the same word; phrases (two to four words)
 * are matched before single words and consume them. Scores are on AFINN's -5..+5 scale.
 *
 * Measured on test/fixtures/sentiment-sentences.json (66 labelled sentences) by bench/sentiment-accuracy.ts;
 * the README's "Audio intelligence" section has the numbers.
 */

/** Domain words and words whose AFINN score misleads in a support call. */
export const DOMAIN_WORDS: Readonly<Record<string, number>> = {
  // Delivery and product faults.
  broken: -3,
  breaks: -2,
  faulty: -3,
  defective: -3,
  damaged: -3,
  cracked: -2,
  scratched: -2,
  dented: -2,
  torn: -2,
  leaking: -2,
  soaked: -2,
  crashing: -2,
  crashes: -2,
  crashed: -2,
  late: -2,
  delayed: -2,
  missing: -2,
  lost: -2,
  incomplete: -2,
  refund: -2,
  overcharged: -3,
  unusable: -3,
  cold: -1,
  nobody: -1,
  // Requests and politeness: not sentiment in a call ("I want to change my address", "please send it").
  want: 0,
  wants: 0,
  please: 0,
  help: 0,
};

/** Multi-word expressions, matched on whole words before single words. */
export const DOMAIN_PHRASES: Readonly<Record<string, number>> = {
  'never arrived': -3,
  'never came': -3,
  'never received': -3,
  'not arrived': -3,
  'did not arrive': -3,
  "didn't arrive": -3,
  'wrong item': -3,
  'wrong size': -2,
  'wrong order': -3,
  'money back': -2,
  'on hold': -2,
  'stopped working': -3,
  'not working': -3,
  "doesn't work": -3,
  'does not work': -3,
  "won't turn on": -3,
  'charged twice': -3,
  'would like': 0,
  "i'd like": 0,
  'exactly what i wanted': 2,
  'just what i needed': 2,
  'all i needed': 1,
  'no problem': 1,
  'no worries': 1,
};

/** Words that flip the polarity of a scored word up to three words later ("not happy", "never helpful"). */
export const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'no',
  'never',
  'neither',
  'nor',
  'without',
  'cannot',
  "can't",
  'cant',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "didn't",
  'didnt',
  "isn't",
  'isnt',
  "wasn't",
  'wasnt',
  "aren't",
  "weren't",
  "won't",
  'wont',
  "wouldn't",
  "couldn't",
  "shouldn't",
  "haven't",
  "hasn't",
  "hadn't",
]);

/** Words that strengthen the next scored word within two words ("very angry", "really helpful"). */
export const INTENSIFIERS: ReadonlySet<string> = new Set([
  'very',
  'really',
  'so',
  'extremely',
  'totally',
  'completely',
  'absolutely',
  'incredibly',
  'super',
  'too',
  'most',
  'utterly',
  'seriously',
]);

/** A negated score keeps most of its weight with the opposite sign (VADER's -0.74: "not great" is mildly bad). */
export const NEGATION_FACTOR = -0.74;
/** An intensified score grows by half. */
export const INTENSIFIER_FACTOR = 1.5;
/** After "but", the clause that follows carries the sentence (VADER: before ×0.5, after ×1.5). */
export const BUT_BEFORE = 0.5;
export const BUT_AFTER = 1.5;
