import type { CallView } from '../../shared/api.js';

const STATUS_TEXT: Record<CallView['status'], string> = {
  receiving: 'receiving',
  uploading: 'uploading to transcription',
  transcribing: 'transcribing',
  live: 'live: on the line',
  analysing: 'analysing',
  done: 'analysed',
  error: 'failed',
};

export function CallsList({
  calls,
  selectedId,
  onSelect,
}: {
  calls: CallView[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}) {
  return (
    <div className="panel">
      <h2>Calls</h2>
      {calls.length === 0 && (
        <p className="muted">No calls yet: upload a recording or generate a sample call.</p>
      )}
      <ul className="calls" data-testid="calls">
        {calls.map((call) => (
          <li key={call.id}>
            <button
              type="button"
              className={`call ${call.id === selectedId ? 'selected' : ''}`}
              onClick={() => onSelect(call.id)}
              data-call={call.id}
              data-status={call.status}
            >
              <span className="name">{call.name}</span>
              <span className={`status status-${call.status}`}>
                {STATUS_TEXT[call.status]}
                {call.status === 'uploading' ? ` ${Math.round(call.progress * 100)}%` : ''}
              </span>
              {call.overall && (
                <span className={`sentiment ${call.overall.toLowerCase()}`}>{call.overall}</span>
              )}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
