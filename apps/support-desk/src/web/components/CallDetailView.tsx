import { useEffect } from 'react';
import type { CallDetail, CallView, LiveTranscriptView } from '../../shared/api.js';
import { api } from '../api.js';
import { Conversation, IdentityWarning, SavedNotes } from './CallParts.js';
import { LiveTranscript } from './LiveTranscript.js';
import { SentimentChart } from './SentimentChart.js';
import { StorefrontPanel } from './StorefrontPanel.js';

interface Props {
  call: CallView;
  detail: CallDetail | null;
  /** A live call's transcript as this tab has it. */
  live: LiveTranscriptView | null;
  onDetail: (detail: CallDetail) => void;
  onError: (error: unknown) => void;
}

function time(ms: number): string {
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The analysed call: summary, overall sentiment, chart, coloured transcript, linked order and customer. */
export function CallDetailView({ call, detail, live, onDetail, onError }: Props) {
  // The `call-analyzed` event carries the summary; the sentences come from the API (events are small).
  useEffect(() => {
    if (call.status === 'done' && !detail?.analysis) api.call(call.id).then(onDetail, onError);
  }, [call.id, call.status, detail, onDetail, onError]);
  // A live call this tab did not see begin: what was said so far (the turns to come arrive as events).
  const joined = call.source === 'live' && call.status === 'live' && !detail;
  useEffect(() => {
    if (joined) api.call(call.id).then(onDetail, onError);
  }, [call.id, joined, onDetail, onError]);

  if (call.status === 'error') {
    return (
      <div className="panel detail" data-testid="call-detail">
        <h2>{call.name}</h2>
        <p className="error-text">This call failed: {call.error}</p>
        <StorefrontPanel key={call.id} call={call} onError={onError} />
      </div>
    );
  }
  // The agent links the customer's cart whatever the call's stage (most usefully while it is live).
  const storefront = <StorefrontPanel key={call.id} call={call} onError={onError} />;
  const analysis = detail?.analysis;
  if (call.source === 'live' && (call.status === 'live' || call.status === 'analysing')) {
    return (
      <div className="panel detail" data-testid="call-detail" data-live={call.status}>
        <h2>
          {call.name}{' '}
          <span className={`badge ${call.status === 'live' ? 'live' : 'wait'}`}>{call.status}</span>
        </h2>
        <LiveTranscript live={live} />
        {storefront}
      </div>
    );
  }
  if (call.status !== 'done' || !analysis) {
    return (
      <div className="panel detail" data-testid="call-detail">
        <h2>{call.name}</h2>
        <p className="muted">
          {call.status === 'done' ? 'Loading the analysis…' : `Waiting for the transcript (${call.status})…`}
        </p>
        {storefront}
      </div>
    );
  }
  return (
    <div className="panel detail" data-testid="call-detail" data-sentiment={analysis.overall}>
      <h2>
        {call.name}{' '}
        <span className={`sentiment ${analysis.overall.toLowerCase()}`} data-testid="overall-sentiment">
          {analysis.overall}
        </span>
      </h2>
      <IdentityWarning analysis={analysis} />
      <p className="summary">{analysis.summary}</p>
      <p className="muted small">
        Transcript {analysis.transcriptId} · {time(analysis.durationMs)} ·{' '}
        {call.completedBy === 'live' ? 'transcribed live' : `learnt of completion by ${call.completedBy}`} ·{' '}
        {analysis.noteAdded ? 'note added to the order' : 'no order found'}
        {analysis.customerTagged ? ' · customer tagged unhappy' : ''}
      </p>
      {analysis.safetyFlags.length > 0 && (
        <p className="flags">
          Content safety:{' '}
          {analysis.safetyFlags.map((f) => (
            <span key={`${f.label}-${f.text}`} className="flag" title={f.text}>
              {f.label} {Math.round(f.confidence * 100)}%
            </span>
          ))}
        </p>
      )}
      <SentimentChart sentences={analysis.sentences} durationMs={analysis.durationMs} />
      <ol className="transcript" data-testid="transcript">
        {analysis.sentences.map((s) => (
          <li
            key={`${s.start}-${s.end}`}
            className={s.sentiment.toLowerCase()}
            title={s.sentiment}
            data-speaker={s.speaker ?? undefined}
          >
            <span className="at">{time(s.start)}</span> {s.speaker ? <em>{s.speaker}: </em> : null}
            {s.text}
          </li>
        ))}
      </ol>
      <Conversation analysis={analysis} />
      {analysis.orders.map((o) => (
        <div key={o.id} className="linked" data-testid="linked-order">
          <strong>Order #{o.number}</strong> · {o.status} · {o.total} {o.currency} · {o.customerName}
        </div>
      ))}
      {analysis.customer && (
        <div className="linked">
          <strong>{analysis.customer.name}</strong> · {analysis.customer.email}
          {analysis.customer.unhappy && <span className="tag">unhappy</span>}
        </div>
      )}
      <SavedNotes analysis={analysis} />
      {storefront}
    </div>
  );
}
