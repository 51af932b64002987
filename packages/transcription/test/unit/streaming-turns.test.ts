import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { StreamingWord, TurnEvent } from '../../src/schemas/streaming-messages.js';
import { TurnTracker } from '../../src/streaming/turns.js';

/*
 * The reconnect bookkeeping against a model of the service: a conversation of words grouped into turns,
 * a session that drops at a random moment, and a second session that hears the audio again from the frame
 * boundary before the last final word's end (what the replay buffer holds), counting its turns from 0 and
 * its times from that boundary. Whatever the split, the final turns that come out must be each turn once,
 * numbered 0, 1, 2…, with every word exactly once and its original times.
 */

const SILENCE = 400; // what ends a turn
const FRAME = 100;

interface Spoken {
  text: string;
  start: number;
  end: number;
  turn: number;
}

const conversation = fc
  .array(
    fc.record({
      words: fc.array(
        fc.record({ length: fc.integer({ min: 80, max: 600 }), gap: fc.integer({ min: 0, max: 300 }) }),
        { minLength: 1, maxLength: 6 },
      ),
      pause: fc.integer({ min: SILENCE + 10, max: 3000 }),
    }),
    { minLength: 1, maxLength: 6 },
  )
  .map((turns) => {
    const words: Spoken[] = [];
    let t = 300;
    turns.forEach((turn, n) => {
      for (const w of turn.words) {
        words.push({ text: `w${words.length}`, start: t, end: t + w.length, turn: n });
        t += w.length + w.gap;
      }
      t += turn.pause;
    });
    return words;
  });

function word(w: { text: string; start: number; end: number }, base: number, final: boolean): StreamingWord {
  return { text: w.text, start: w.start - base, end: w.end - base, confidence: 0.9, word_is_final: final };
}

function turn(order: number, words: StreamingWord[], final: boolean, formatted = false): TurnEvent {
  return {
    type: 'Turn',
    turn_order: order,
    turn_is_formatted: formatted,
    end_of_turn: final,
    transcript: words.map((w) => w.text).join(' '),
    end_of_turn_confidence: final ? 1 : 0,
    words,
  };
}

/** What one session says about `words` (times from `base`), up to the moment `until` it drops. */
function session(words: Spoken[], base: number, until: number, formatTurns: boolean): TurnEvent[] {
  const out: TurnEvent[] = [];
  const groups: Spoken[][] = [];
  for (const w of words) {
    const last = groups[groups.length - 1];
    const prev = last?.[last.length - 1];
    if (prev && w.start - prev.end < SILENCE) last!.push(w);
    else groups.push([w]);
  }
  groups.forEach((group, order) => {
    const heard = group.filter((w) => w.end <= until);
    for (let n = 1; n <= heard.length; n++)
      out.push(
        turn(
          order,
          heard.slice(0, n).map((w) => word(w, base, false)),
          false,
        ),
      );
    const last = group[group.length - 1]!;
    if (last.end + SILENCE <= until) {
      out.push(
        turn(
          order,
          group.map((w) => word(w, base, true)),
          true,
        ),
      );
      if (formatTurns)
        out.push(
          turn(
            order,
            group.map((w) => word(w, base, true)),
            true,
            true,
          ),
        );
    }
  });
  return out;
}

describe('TurnTracker across a reconnect', () => {
  it('emits each final turn once, numbered on, with every word once at its original time', () => {
    fc.assert(
      fc.property(
        conversation,
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.boolean(),
        (words, cut, formatTurns) => {
          const end = words[words.length - 1]!.end + SILENCE;
          const drop = Math.floor(cut * end);
          const tracker = new TurnTracker();
          const finals: TurnEvent[] = [];
          const take = (t: TurnEvent) => {
            const out = tracker.accept(t);
            if (out?.end_of_turn) finals.push(out);
          };
          tracker.startSession(0);
          for (const t of session(words, 0, drop, formatTurns)) take(t);
          // The replay starts on the frame boundary at or before the last final word's end.
          const finalEnd = tracker.finalEndMs;
          const replayFrom = Number.isFinite(finalEnd) ? Math.floor(finalEnd / FRAME) * FRAME : 0;
          const heardAgain = words
            .filter((w) => w.end > replayFrom)
            .map((w) => (w.start < replayFrom ? { ...w, text: `${w.text}-tail`, start: replayFrom } : w));
          tracker.startSession(replayFrom);
          for (const t of session(heardAgain, replayFrom, Number.POSITIVE_INFINITY, formatTurns)) take(t);

          const plain = finals.filter((t) => !t.turn_is_formatted);
          expect(plain.map((t) => t.turn_order)).toEqual(plain.map((_, i) => i));
          if (formatTurns) {
            expect(finals.filter((t) => t.turn_is_formatted).map((t) => t.turn_order)).toEqual(
              plain.map((_, i) => i),
            );
          }
          const said = plain.flatMap((t) => t.words);
          expect(said.map((w) => w.text)).toEqual(words.map((w) => w.text));
          expect(said.map((w) => [w.start, w.end])).toEqual(words.map((w) => [w.start, w.end]));
          for (const t of plain) expect(t.transcript).toBe(t.words.map((w) => w.text).join(' '));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('passes the first session through untouched', () => {
    const tracker = new TurnTracker();
    tracker.startSession(0);
    const t = turn(0, [word({ text: 'hi', start: 10, end: 200 }, 0, true)], true);
    expect(tracker.accept(t)).toBe(t);
    const again = tracker.accept(t);
    expect(again).toBeUndefined();
    const stale = tracker.accept(turn(0, [word({ text: 'hi', start: 10, end: 200 }, 0, false)], false));
    expect(stale).toBeUndefined();
    expect(tracker.speechStarted({ type: 'SpeechStarted', timestamp: 5 })).toEqual({
      type: 'SpeechStarted',
      timestamp: 5,
    });
  });

  it('shifts SpeechStarted of a later session onto the stream clock', () => {
    const tracker = new TurnTracker();
    tracker.startSession(0);
    tracker.startSession(1500);
    expect(tracker.speechStarted({ type: 'SpeechStarted', timestamp: 5 }).timestamp).toBe(1505);
  });
});
