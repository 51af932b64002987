import { describe, expect, it } from 'vitest';
import { LiveTranscript, TranscriptFullError } from '../../src/server/live/transcript.js';
import type { LiveTranscriptView, LiveTurnView } from '../../src/shared/api.js';
import { applyTurn, EMPTY_TRANSCRIPT, transcriptText } from '../../src/shared/live-transcript.js';

const partial = (turn_order: number, text: string): LiveTurnView => ({
  turn_order,
  end_of_turn: false,
  turn_is_formatted: false,
  text,
});
const final = (turn_order: number, text: string, turn_is_formatted = false): LiveTurnView => ({
  turn_order,
  end_of_turn: true,
  turn_is_formatted,
  text,
});

function play(turns: LiveTurnView[]): { view: LiveTranscriptView; kinds: (string | null)[] } {
  let view = EMPTY_TRANSCRIPT;
  const kinds: (string | null)[] = [];
  for (const turn of turns) {
    const applied = applyTurn(view, turn);
    kinds.push(applied?.kind ?? null);
    if (applied) view = applied.view;
  }
  return { view, kinds };
}

describe('applyTurn', () => {
  it('replaces a growing partial, settles it with its final, then its formatted copy', () => {
    const { view, kinds } = play([
      partial(0, 'hello'),
      partial(0, 'hello my'),
      partial(0, 'hello my'),
      final(0, 'hello my name'),
      final(0, 'Hello, my name.', true),
      partial(1, 'order'),
    ]);
    expect(kinds).toEqual(['partial', 'partial', null, 'final', 'final', 'partial']);
    expect(view.finals).toEqual([final(0, 'Hello, my name.', true)]);
    expect(view.partial).toEqual(partial(1, 'order'));
  });

  it('keeps each final once: a repeat, or an unformatted copy after the formatted one, changes nothing', () => {
    const { view, kinds } = play([
      final(0, 'a'),
      final(0, 'a'),
      final(0, 'A.', true),
      final(0, 'a'),
      final(0, 'B.', true),
    ]);
    expect(kinds).toEqual(['final', null, 'final', null, null]);
    expect(view.finals).toEqual([final(0, 'A.', true)]);
  });

  it('ignores partials that come after their turn settled or after a later turn began', () => {
    const { view, kinds } = play([
      partial(1, 'later'),
      partial(0, 'earlier'),
      final(1, 'later on'),
      partial(1, 'late'),
    ]);
    expect(kinds).toEqual(['partial', null, 'final', null]);
    expect(view.partial).toBeNull();
  });

  it('keeps finals in turn order whatever order they come in, and joins their text', () => {
    const { view } = play([final(2, 'c'), final(0, 'a'), partial(3, 'd'), final(1, 'b')]);
    expect(view.finals.map((t) => t.turn_order)).toEqual([0, 1, 2]);
    expect(transcriptText(view)).toBe('a b c');
    expect(view.partial).toEqual(partial(3, 'd'));
  });
});

describe('LiveTranscript (server)', () => {
  it('keeps the words of each final, the formatted copy’s when it comes', () => {
    const t = new LiveTranscript({ maxTurns: 10, maxTranscriptChars: 100 });
    t.accept({ ...final(0, 'hi there'), words: [{ text: 'hi', start: 0, end: 100 }] });
    t.accept({ ...final(0, 'Hi there.', true), words: [{ text: 'Hi', start: 0, end: 120 }] });
    expect(t.finals()).toEqual([
      { ...final(0, 'Hi there.', true), words: [{ text: 'Hi', start: 0, end: 120 }] },
    ]);
    expect(t.text()).toBe('Hi there.');
  });

  it('refuses a turn past the bounds and keeps what it had', () => {
    const t = new LiveTranscript({ maxTurns: 2, maxTranscriptChars: 10 });
    expect(t.accept(final(0, 'abcd'))).toBe('final');
    expect(() => t.accept(final(1, 'abcdefghijk'))).toThrow(TranscriptFullError);
    expect(t.accept(final(1, 'efgh'))).toBe('final');
    expect(() => t.accept(final(2, 'x'))).toThrow(TranscriptFullError);
    // Replacing a turn by its formatted copy counts the difference only.
    expect(t.accept(final(1, 'Efgh.', true))).toBe('final');
    expect(t.text()).toBe('abcd Efgh.');
  });
});
