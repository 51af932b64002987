import type { LiveTranscriptView, LiveTurnInput, LiveTurnView, LiveWord } from '../../shared/api.js';
import { applyTurn, EMPTY_TRANSCRIPT, transcriptText } from '../../shared/live-transcript.js';

/** A final turn as kept for the analysis: its text and its words' times. */
export interface FinalTurn extends LiveTurnView {
  words: LiveWord[];
}

/** A relayed turn's effect: a final turn settled (or its formatted copy came), the partial changed, or nothing. */
export type TurnVerdict = 'final' | 'partial' | 'ignored';

/** The call's transcript would pass `maxTurns` or `maxTranscriptChars`. */
export class TranscriptFullError extends Error {
  constructor(readonly what: 'turns' | 'characters') {
    super(`the live transcript holds as many ${what} as a call may`);
    this.name = 'TranscriptFullError';
  }
}

/**
 * One live call's transcript on the server: the turns the capturing tab relays, taken as every tab takes
 * them (`applyTurn`), within bounds, with the final turns' word times kept for the analysis.
 */
export class LiveTranscript {
  #view: LiveTranscriptView = EMPTY_TRANSCRIPT;
  readonly #words = new Map<number, LiveWord[]>();
  #chars = 0;

  constructor(private readonly limits: { maxTurns: number; maxTranscriptChars: number }) {}

  /** Applies one relayed turn; throws `TranscriptFullError` (taking nothing) past the bounds. */
  accept(turn: LiveTurnInput): TurnVerdict {
    const view: LiveTurnView = {
      turn_order: turn.turn_order,
      end_of_turn: turn.end_of_turn,
      turn_is_formatted: turn.turn_is_formatted,
      text: turn.text,
    };
    const applied = applyTurn(this.#view, view);
    if (!applied) return 'ignored';
    if (applied.kind === 'final') {
      if (!applied.replaced && this.#view.finals.length >= this.limits.maxTurns) {
        throw new TranscriptFullError('turns');
      }
      const chars = this.#chars - (applied.replaced?.text.length ?? 0) + view.text.length;
      if (chars > this.limits.maxTranscriptChars) throw new TranscriptFullError('characters');
      this.#chars = chars;
      this.#words.set(
        view.turn_order,
        (turn.words ?? []).map(({ text, start, end }) => ({ text, start, end })),
      );
    }
    this.#view = applied.view;
    return applied.kind;
  }

  /** The final turns in `turn_order`, with their words. */
  finals(): FinalTurn[] {
    return this.#view.finals.map((t) => ({ ...t, words: this.#words.get(t.turn_order) ?? [] }));
  }

  /** The final turns' text, in order: what the call is analysed on. */
  text(): string {
    return transcriptText(this.#view);
  }

  view(): LiveTranscriptView {
    return this.#view;
  }
}
