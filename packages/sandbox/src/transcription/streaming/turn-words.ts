/**
 * The words of the turn in progress, and the one promise the protocol makes about them: a word sent with
 * `word_is_final: true` is never revised. The recogniser's hypothesis for the utterance in progress may
 * change as it hears more, so a word is finalised early only when it cannot plausibly change any more:
 *
 * - it reads the same (text and start) in two consecutive updates, 500 ms of audio apart;
 * - it is not among the hypothesis's last two words (the ones the decoder is still extending);
 * - it ended at least 500 ms of audio before the update;
 * - every word before it is final (the finals are a prefix).
 *
 * When the utterance ends, the recogniser's final words replace the hypothesis after the finalised prefix:
 * words that start before the prefix's last word ended are dropped, so a late revision of a finalised word
 * costs accuracy, never the promise.
 */

import type { WireWord } from './messages.js';
import type { StreamWord } from './recognizer.js';

const STABLE_TAIL_WORDS = 2;
const STABLE_AGE_MS = 500;
/** Word boundaries of two decodes of the same audio differ by a frame or two. */
const OVERLAP_MS = 30;

export class TurnWords {
  /** Final words of the utterances this turn already ended. */
  #committed: StreamWord[] = [];
  /** The utterance in progress: its finalised prefix, and the recogniser's latest hypothesis. */
  #frozen: StreamWord[] = [];
  #hypothesis: StreamWord[] = [];
  #previous: StreamWord[] = [];
  /** The text of the last `Turn` sent for this turn, so an update that changes nothing sends nothing. */
  #sentKey = '';

  get empty(): boolean {
    return this.#committed.length === 0 && this.#frozen.length === 0 && this.#hypothesis.length === 0;
  }

  /** Whether the utterance in progress has words (finalised early or hypothesised). */
  get open(): boolean {
    return this.#frozen.length > 0 || this.#hypothesis.length > 0;
  }

  /** The committed (whole-utterance) words of the turn: what its end of turn reports. */
  get committed(): readonly StreamWord[] {
    return this.#committed;
  }

  /** Takes an update's hypothesis for the current utterance and finalises what is stable. */
  update(words: readonly StreamWord[], audioMs: number): void {
    const hypothesis = words.filter((w) => w.text.length > 0);
    for (let i = this.#frozen.length; i < hypothesis.length - STABLE_TAIL_WORDS; i++) {
      const word = hypothesis[i]!;
      const before = this.#previous[i];
      const stable = before?.text === word.text && before.start === word.start;
      if (!stable || word.end > audioMs - STABLE_AGE_MS) break;
      this.#frozen.push({ ...word });
    }
    this.#previous = hypothesis;
    this.#hypothesis = hypothesis;
  }

  /**
   * Ends the utterance with the recogniser's final words (all final from now on) and answers them, as they
   * join the turn: the finalised prefix, then the final words after it.
   */
  commit(finals: readonly StreamWord[]): StreamWord[] {
    const utterance = [
      ...this.#frozen,
      ...after(
        this.#frozen,
        finals.filter((w) => w.text.length > 0),
      ),
    ];
    this.#committed.push(...utterance);
    this.#frozen = [];
    this.#hypothesis = [];
    this.#previous = [];
    return utterance;
  }

  /** Every word of the turn as the next partial shows it: finals first, then the hypothesis's tail. */
  partial(): { word: StreamWord; final: boolean }[] {
    const finals = [...this.#committed, ...this.#frozen];
    const tail = after(finals, this.#hypothesis.slice(this.#frozen.length));
    return [
      ...finals.map((word) => ({ word, final: true })),
      ...tail.map((word) => ({ word, final: false })),
    ];
  }

  /** Whether `words` differ from what was last sent for this turn; remembers them if so. */
  changed(words: readonly WireWord[]): boolean {
    const key = words.map((w) => `${w.text}\u0000${w.word_is_final ? 1 : 0}`).join('\u0001');
    if (key === this.#sentKey) return false;
    this.#sentKey = key;
    return true;
  }

  reset(): void {
    this.#committed = [];
    this.#frozen = [];
    this.#hypothesis = [];
    this.#previous = [];
    this.#sentKey = '';
  }
}

/** The words of `next` that start after `prefix` ends (all of them when the prefix is empty). */
function after(prefix: readonly StreamWord[], next: readonly StreamWord[]): StreamWord[] {
  const last = prefix.at(-1);
  if (!last) return [...next];
  return next.filter((w) => w.start >= last.end - OVERLAP_MS);
}

/** Words as the wire carries them. */
export function toWire(words: readonly { word: StreamWord; final: boolean }[], speaker?: string): WireWord[] {
  return words.map(({ word, final }) => ({
    start: word.start,
    end: word.end,
    text: word.text,
    confidence: Math.round(word.confidence * 1e6) / 1e6,
    word_is_final: final,
    ...(speaker !== undefined && final ? { speaker } : {}),
  }));
}
