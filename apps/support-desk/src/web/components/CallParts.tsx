import type { CallAnalysis } from '../../shared/api.js';

function time(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The caller's name and the order's customer, side by side when they differ. */
export function IdentityWarning({ analysis }: { analysis: CallAnalysis }) {
  const identity = analysis.identity;
  if (identity?.matches !== false) return null;
  return (
    <p className="identity-mismatch" data-testid="identity-mismatch" role="alert">
      Caller said <strong>{identity.spoken}</strong>; order #{identity.orderNumber} belongs to{' '}
      <strong>{identity.onRecord}</strong>.
    </p>
  );
}

const HOW: Record<NonNullable<CallAnalysis['customerSpeaker']>['by'], string> = {
  service: 'the service named the roles',
  cues: 'the customer gave the order number or a name; the agent answered the call',
  single: 'one voice only',
  none: 'no speaker labels',
};

/** Who said what: the diarized utterances as Agent and Customer. */
export function Conversation({ analysis }: { analysis: CallAnalysis }) {
  const utterances = analysis.utterances ?? [];
  if (utterances.length === 0) return null;
  const by = analysis.customerSpeaker?.by;
  return (
    <section className="conversation">
      <h3>
        Conversation{' '}
        <span className="muted small">({by ? HOW[by] : 'roles unknown'}; sentiment is the customer's)</span>
      </h3>
      <ol data-testid="utterances">
        {utterances.map((u) => (
          <li
            key={`${u.start}-${u.label}`}
            data-speaker={u.speaker}
            className={`speaker ${u.speaker.toLowerCase()}`}
          >
            <span className="at">{time(u.start)}</span> <strong>{u.speaker}</strong> {u.text}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The notes as the store kept them, read back after they were added. */
export function SavedNotes({ analysis }: { analysis: CallAnalysis }) {
  const notes = analysis.notes ?? [];
  if (notes.length === 0) return null;
  return (
    <section className="saved-notes">
      {notes.map((n) => (
        <div key={n.noteId}>
          <h3>
            Note on order #{n.orderNumber} <span className="muted small">(as saved in the store)</span>
          </h3>
          <pre className="order-note" data-testid="order-note" data-order={n.orderId}>
            {n.note}
          </pre>
        </div>
      ))}
    </section>
  );
}
