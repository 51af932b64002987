/**
 * End-of-turn confidence, the emulator's stand-in for the service's semantic turn model. The service's model
 * reads meaning; this reads two honest signals and documents them:
 *
 * 1. **Completeness of what was said**: a phrase that stops on a word which cannot end an English sentence
 *    (an article, a preposition, a conjunction, a possessive, an auxiliary: "…and", "…to the", "…my") is
 *    probably unfinished: 0.1. A one-word answer ("yes", "okay", "thanks") is usually whole: 0.8. Anything
 *    else: 0.6.
 * 2. **The silence since speech ended**: the longer the pause, the likelier the turn is over. Up to 30% of
 *    the remaining doubt is removed, linearly as the silence grows to `max_turn_silence`.
 *
 * While the speaker is talking the confidence is a tenth of the completeness (the turn cannot be over
 * mid-word). So with the defaults (threshold 0.4, min 400 ms, max 1280 ms) a finished sentence ends its turn
 * after 400 ms of silence (0.6 + 0.4·0.3·400/1280 = 0.64), and a sentence that stops on "and" never reaches
 * the threshold (0.1 + 0.9·0.3 = 0.37 at most): it ends acoustically, at 1280 ms. The "conservative" preset
 * (0.7, 800, 3600) ends a finished sentence after 3 s of silence, a one-word answer after 800 ms.
 */

/**
 * Words after which an English sentence is very rarely complete: articles, conjunctions, possessives, the
 * prepositions that are seldom particles, auxiliaries, fillers and subject pronouns ("call me" and "turn it
 * on" can end a sentence, so object pronouns and particles are not here).
 */
const OPEN_ENDINGS = new Set(
  (
    'a an the and or but nor because if than to of at by for from with into onto ' +
    'my your his her its our their is are was were am will would shall should can could may might must ' +
    'um uh er i we they he she'
  ).split(' '),
);

/** The last word's letters, lower-case, without punctuation ("and," → "and"). */
function bare(word: string): string {
  return word.toLowerCase().replace(/[^a-z']/g, '');
}

/** 0..1: how complete the words read as a sentence (see the module comment). */
export function completeness(words: readonly { text: string }[]): number {
  const last = words.at(-1);
  if (!last) return 0;
  if (OPEN_ENDINGS.has(bare(last.text))) return 0.1;
  return words.length === 1 ? 0.8 : 0.6;
}

/** The confidence reported in `end_of_turn_confidence`, rounded to six decimals as the service prints it. */
export function endOfTurnConfidence(
  words: readonly { text: string }[],
  state: { speaking: boolean; silenceMs: number; maxTurnSilence: number },
): number {
  const c = completeness(words);
  if (c === 0) return 0;
  if (state.speaking) return round(c * 0.1);
  const pause = state.maxTurnSilence > 0 ? Math.min(1, state.silenceMs / state.maxTurnSilence) : 1;
  return round(c + (1 - c) * SILENCE_WEIGHT * pause);
}

/**
 * The silence (ms) at which words of completeness `c` reach `threshold`: the inverse of the formula above.
 * Infinity when they never do within `max_turn_silence` (the acoustic end decides).
 */
export function silenceToReach(c: number, threshold: number, maxTurnSilence: number): number {
  if (c >= threshold) return 0;
  if (c === 0 || threshold >= 1) return Number.POSITIVE_INFINITY;
  const share = (threshold - c) / ((1 - c) * SILENCE_WEIGHT);
  return share > 1 ? Number.POSITIVE_INFINITY : Math.ceil(share * maxTurnSilence);
}

const SILENCE_WEIGHT = 0.3;

const round = (n: number) => Math.round(n * 1e6) / 1e6;
