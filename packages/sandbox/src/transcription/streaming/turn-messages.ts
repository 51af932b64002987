/**
 * The `Turn` messages of each moment of a turn, built from its words: pure functions, so what a message
 * carries is decided here and when it is sent in `turns.ts`. Formatting reuses the batch engine's
 * `format_text`/`punctuate` (`engine/format.ts`): digits for spoken numbers, sentence case, a full stop.
 */
import { formatWords, joinWords } from '../engine/format.js';
import { completeness } from './eot.js';
import type { TurnFields } from './messages.js';
import type { StreamWord } from './recognizer.js';
import { toWire } from './turn-words.js';

/** A `Turn` but its order, which the tracker owns. */
export type TurnBody = Omit<TurnFields, 'turn_order'>;

export interface TurnShape {
  speakerLabels: boolean;
  languageDetection: boolean;
}

/** A u3 sentence counts as ending in terminal punctuation when it reads complete (see `eot.ts`). */
export const U3_COMPLETE = 0.5;

/** Universal: the turn so far, finals first; `transcript` is the final words. */
export function partialTurn(
  entries: readonly { word: StreamWord; final: boolean }[],
  confidence: number,
  shape: TurnShape,
): TurnBody {
  const words = toWire(
    entries,
    speaker(
      shape,
      entries.map((e) => e.word),
    ),
  );
  return body(shape, {
    words,
    transcript: words
      .filter((w) => w.word_is_final)
      .map((w) => w.text)
      .join(' '),
    end_of_turn: false,
    end_of_turn_confidence: confidence,
    utterance: '',
  });
}

/** Universal: a finished utterance while the turn goes on (all words final, `utterance` filled). */
export function utteranceTurn(
  committed: readonly StreamWord[],
  utterance: readonly StreamWord[],
  confidence: number,
  shape: TurnShape,
): TurnBody {
  return body(shape, {
    words: toWire(final(committed), speaker(shape, committed)),
    transcript: joinWords(committed),
    end_of_turn: false,
    end_of_turn_confidence: confidence,
    utterance: joinWords(utterance),
    ...language(shape),
  });
}

/** u3: the one partial of a pause when the sentence is not complete: nothing final, an em dash at the end. */
export function u3PartialTurn(committed: readonly StreamWord[], shape: TurnShape): TurnBody {
  const shown = formatWords(committed, { punctuate: false });
  const last = shown.at(-1);
  if (last) last.text = `${last.text}—`;
  return body(shape, {
    words: toWire(shown.map((word) => ({ word, final: false }))),
    transcript: joinWords(shown),
    end_of_turn: false,
    end_of_turn_confidence: 0,
    utterance: '',
  });
}

/**
 * The messages that end a turn. Universal: the final, then (with `format_turns`) its formatted copy; the
 * utterance is filled only if no earlier message carried it. u3: one formatted final, `utterance` equal to
 * `transcript`, confidence 1 when the sentence ended in terminal punctuation.
 */
export function finalTurns(
  committed: readonly StreamWord[],
  unsentUtterance: readonly StreamWord[] | undefined,
  options: { u3: boolean; formatTurns: boolean; confidence: number },
  shape: TurnShape,
): TurnBody[] {
  const who = speaker(shape, committed);
  const formatted = (): TurnBody => {
    const words = formatWords(committed);
    const transcript = joinWords(words);
    return body(shape, {
      words: toWire(final(words), who),
      transcript,
      turn_is_formatted: true,
      end_of_turn: true,
      end_of_turn_confidence: options.u3 && completeness(committed) >= U3_COMPLETE ? 1 : options.confidence,
      utterance: options.u3 ? transcript : unsentUtterance ? joinWords(formatWords(unsentUtterance)) : '',
      ...language(shape),
    });
  };
  if (options.u3) return [formatted()];
  const plain = body(shape, {
    words: toWire(final(committed), who),
    transcript: joinWords(committed),
    end_of_turn: true,
    end_of_turn_confidence: options.confidence,
    utterance: unsentUtterance ? joinWords(unsentUtterance) : '',
    ...language(shape),
  });
  return options.formatTurns ? [plain, formatted()] : [plain];
}

const final = (words: readonly StreamWord[]) => words.map((word) => ({ word, final: true }));

function body(
  shape: TurnShape,
  turn: Omit<TurnBody, 'turn_is_formatted' | 'speaker_label'> & { turn_is_formatted?: boolean },
): TurnBody {
  return {
    turn_is_formatted: turn.turn_is_formatted ?? false,
    end_of_turn: turn.end_of_turn,
    transcript: turn.transcript,
    end_of_turn_confidence: turn.end_of_turn_confidence,
    words: turn.words,
    utterance: turn.utterance,
    language_code: turn.language_code,
    language_confidence: turn.language_confidence,
    speaker_label: shape.speakerLabels ? (speaker(shape, turn.words) ?? 'UNKNOWN') : undefined,
  };
}

/** Diarization: one speaker (`A`); a turn under about a second is `UNKNOWN`, as the spec describes. */
function speaker(shape: TurnShape, words: readonly { start: number; end: number }[]): string | undefined {
  if (!shape.speakerLabels || words.length === 0) return undefined;
  return words.at(-1)!.end - words[0]!.start < 1000 ? 'UNKNOWN' : 'A';
}

/** With `language_detection`, on complete utterances and finals: the engine recognises English only. */
function language(shape: TurnShape): Pick<TurnFields, 'language_code' | 'language_confidence'> {
  return shape.languageDetection ? { language_code: 'en', language_confidence: 1 } : {};
}
