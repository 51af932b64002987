import type { SpeechStartedEvent, StreamingWord, TurnEvent } from '../schemas/streaming-messages.js';
import { SkipTimeline } from './silence.js';

/**
 * Turns of successive sessions as one conversation. Each session counts `turn_order` from 0 and word
 * times from its own first byte of audio; after a reconnect the transcriber starts a new session with
 * the audio sent since the last final turn, so this shifts both to continue where the last session
 * stopped (and word times past silence the sender skipped by the skipped time: see `SkipTimeline`), and drops what the new session says again about audio an earlier session already finalised.
 * Invariants (held by the fuzz test): final turns come out once each, in increasing `turn_order` (the
 * formatted copy right after its unformatted turn), and final words never go back in time.
 */
export class TurnTracker {
  /** The current session's times to the stream's: where its audio starts, and the silence skipped in it. */
  #timeline = new SkipTimeline(0);
  /** What the current session's `turn_order` 0 is in the conversation. */
  #turnBase = 0;
  /** The conversation's next turn number: one past the last final turn. */
  #nextTurn = 0;
  /** End (stream ms) of the last final word emitted. */
  #finalEndMs = Number.NEGATIVE_INFINITY;
  /** The current session's `turn_order` that only repeated a final turn (its formatted copy must not count again). */
  #collapsed = -1;
  /** The last final turn emitted (its number, and whether it was the formatted copy), so none comes out twice. */
  #lastFinal = { order: -1, formatted: true };

  /** End (stream ms) of the last final word, or -Infinity before the first final turn. */
  get finalEndMs(): number {
    return this.#finalEndMs;
  }

  /**
   * The last final word's end when the current session started: a word of this session before it repeats
   * what an earlier session finalised. -Infinity in the first session.
   */
  #floorMs = Number.NEGATIVE_INFINITY;

  /** A session starts, whose times map to the stream's through `timeline` (or start at `baseMs`). */
  startSession(timeline: SkipTimeline | number): void {
    this.#floorMs = this.#finalEndMs;
    this.#timeline = typeof timeline === 'number' ? new SkipTimeline(timeline) : timeline;
    this.#turnBase = this.#nextTurn;
    this.#collapsed = -1;
  }

  /** Whether the current session's times or turn numbers are shifted (a reconnect, or skipped silence). */
  get rebased(): boolean {
    return this.#timeline.baseMs !== 0 || this.#timeline.skippedMs > 0 || this.#turnBase !== 0;
  }

  /** The turn as the conversation sees it, or undefined when it only repeats what was already final. */
  accept(turn: TurnEvent): TurnEvent | undefined {
    const order = turn.turn_order + this.#turnBase;
    let words = turn.words.map((word) => this.#shift(word));
    // A word whose middle lies before the last final word's end was part of that final turn (the replay
    // starts on a frame boundary, a little before it). A new word cannot: the turn ended on silence.
    const kept = words.filter((word) => (word.start + word.end) / 2 >= this.#floorMs);
    const trimmed = kept.length !== words.length;
    words = kept;
    if (turn.end_of_turn) {
      if (words.length === 0 && trimmed) {
        // The whole turn repeated a final one: later turns of this session move down one place.
        if (this.#collapsed !== turn.turn_order) this.#turnBase -= 1;
        this.#collapsed = turn.turn_order;
        return undefined;
      }
      // A later turn, or the formatted copy of the last one; anything else was already emitted.
      const last = this.#lastFinal;
      const fresh = order > last.order || (order === last.order && turn.turn_is_formatted && !last.formatted);
      if (!fresh) return undefined;
      this.#lastFinal = { order, formatted: turn.turn_is_formatted };
      this.#nextTurn = order + 1;
      const lastWord = words[words.length - 1];
      if (lastWord) this.#finalEndMs = Math.max(this.#finalEndMs, lastWord.end);
    } else if ((words.length === 0 && trimmed) || order < this.#nextTurn) {
      // Nothing new, or a partial of a turn that is already final.
      return undefined;
    }
    if (!this.rebased && !trimmed) return turn;
    return {
      ...turn,
      turn_order: order,
      words,
      // The service's text is of all its words; when some were dropped it is rebuilt from the rest.
      ...(trimmed ? { transcript: words.map((w) => w.text).join(' ') } : {}),
    };
  }

  speechStarted(event: SpeechStartedEvent): SpeechStartedEvent {
    return this.rebased ? { ...event, timestamp: this.#timeline.toStream(event.timestamp) } : event;
  }

  /** A word after a skip point gets the skipped time added, to its start and end alike. */
  #shift(word: StreamingWord): StreamingWord {
    const by = this.#timeline.toStream(word.start) - word.start;
    return by === 0 ? word : { ...word, start: word.start + by, end: word.end + by };
  }
}
