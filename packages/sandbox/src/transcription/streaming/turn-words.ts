/**
 * The words of the turn in progress, and the one promise the protocol makes about them: a word sent with
 * `word_is_final: true` is never revised. The recogniser's hypothesis for the utterance in progress does
 * change as it hears more (PocketSphinx rescores earlier words with later context: measured, "my ardor
 * numbers for" became "my order number is four" in the final), so a word is finalised early only when the
 * recogniser has reported it out of speech: the decoder closes each stretch of speech at its VAD's pause
 * and keeps that stretch's words unchanged (engine/streaming-program.ts), so the words of an update with
 * `inSpeech: false` stay as they are. Until such an update, nothing is final before the utterance ends.
 *
 * When the utterance ends, the recogniser's final words replace the hypothesis after the finalised prefix:
 * words that start before the prefix's last word ended are dropped, so if a finalised word were revised after
 * all, it would cost accuracy, never the promise.
 */
import type { WireWord } from './messages.js';
import type { StreamWord } from './recognizer.js';

/** Word boundaries of two decodes of the same audio differ by a frame or two. */
const OVERLAP_MS = 30;

export class TurnWords {
  /** Final words of the utterances this turn already ended. */
  #committed: StreamWord[] = [];
  /** The utterance in progress: its finalised prefix, and the recogniser's latest hypothesis. */
  #frozen: StreamWord[] = [];
  #hypothesis: StreamWord[] = [];
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

  /** Takes an update's hypothesis for the current utterance; out of speech, its words become final. */
  update(words: readonly StreamWord[], inSpeech: boolean): void {
    this.#hypothesis = words.filter((w) => w.text.length > 0);
    if (inSpeech) return;
    const settled = after(this.#frozen, this.#hypothesis.slice(this.#frozen.length));
    this.#frozen.push(...settled.map((w) => ({ ...w })));
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
