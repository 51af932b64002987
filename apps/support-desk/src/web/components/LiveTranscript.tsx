import type { LiveTranscriptView } from '../../shared/api.js';

/** A live call's transcript: final turns as they settle, the turn being spoken in a lighter style. */
export function LiveTranscript({ live }: { live: LiveTranscriptView | null }) {
  const finals = live?.finals ?? [];
  const partial = live?.partial ?? null;
  if (finals.length === 0 && !partial?.text) {
    return <p className="muted">Waiting for the caller to speak…</p>;
  }
  return (
    <ol className="live-transcript" data-testid="live-transcript">
      {finals.map((turn) => (
        <li
          key={turn.turn_order}
          data-live-turn="final"
          data-turn={turn.turn_order}
          data-formatted={turn.turn_is_formatted}
        >
          {turn.text}
        </li>
      ))}
      {partial?.text && (
        <li className="partial" data-live-turn="partial" data-turn={partial.turn_order}>
          {partial.text}
        </li>
      )}
    </ol>
  );
}
