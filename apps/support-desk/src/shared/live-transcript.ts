import type { LiveTranscriptView, LiveTurnView } from './api.js';

/**
 * How a live transcript takes a turn, the same on the server (which keeps each call's transcript) and in
 * every tab (which renders the turns pushed to it): final turns by `turn_order`, each once (a repeat is
 * ignored, a formatted copy replaces its unformatted turn, never the other way round), and the one turn
 * being spoken. A partial of a turn at or before the last final one describes speech already settled (it
 * came late), so it is ignored, as is a partial of an earlier turn than the current one. Pure.
 */

export const EMPTY_TRANSCRIPT: LiveTranscriptView = { finals: [], partial: null };

/** Bounds of a relayed turn, which the server checks and the page keeps to. */
export const LIVE_TURN_LIMITS = {
  /** A turn's text; a long monologue without a pause stays well under it. */
  maxChars: 5000,
  /** A final turn's words (about 60 bytes each): the request stays under the 64 KB body limit. */
  maxWords: 600,
  /** Turns per relay request (the finals that waited and the latest partial, together). */
  maxTurnsPerRelay: 20,
} as const;

export interface TurnApplied {
  view: LiveTranscriptView;
  kind: 'final' | 'partial';
  /** The final turn of the same `turn_order` this one replaced (its unformatted copy). */
  replaced: LiveTurnView | null;
}

/** The transcript with `turn` in it, or null when the turn changes nothing. */
export function applyTurn(view: LiveTranscriptView, turn: LiveTurnView): TurnApplied | null {
  const finals = view.finals;
  const lastFinal = finals.at(-1)?.turn_order ?? -1;
  if (!turn.end_of_turn) {
    const current = view.partial;
    if (turn.turn_order <= lastFinal) return null;
    if (current && current.turn_order > turn.turn_order) return null;
    if (current && current.turn_order === turn.turn_order && current.text === turn.text) return null;
    return { view: { finals, partial: turn }, kind: 'partial', replaced: null };
  }
  // Finals are kept sorted: the index of the first one at or after this turn.
  let at = finals.length;
  while (at > 0 && finals[at - 1]!.turn_order >= turn.turn_order) at--;
  const existing = finals[at]?.turn_order === turn.turn_order ? finals[at]! : null;
  if (existing && (existing.turn_is_formatted || !turn.turn_is_formatted)) return null;
  const next = finals.slice();
  next.splice(at, existing ? 1 : 0, turn);
  const partial = view.partial && view.partial.turn_order > turn.turn_order ? view.partial : null;
  return { view: { finals: next, partial }, kind: 'final', replaced: existing };
}

/** The final turns' text, in order. */
export function transcriptText(view: LiveTranscriptView): string {
  return view.finals
    .map((t) => t.text.trim())
    .filter(Boolean)
    .join(' ');
}
