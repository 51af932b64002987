import { type Dispatch, useEffect, useRef } from 'react';
import type { DeskConfig } from '../../shared/api.js';
import { liveCallApi } from '../api.js';
import { LiveCallSession, type LiveStatus } from '../live-session.js';
import { browserMicrophone } from '../microphone.js';
import type { Action } from '../state.js';

interface Props {
  config: DeskConfig | null;
  status: LiveStatus;
  /** Another tab is on a live call (this one follows it in the call's detail). */
  elsewhere: boolean;
  dispatch: Dispatch<Action>;
  socketId: () => string | null;
  onError: (error: unknown) => void;
}

const STATUS_TEXT: Record<LiveStatus, string> = {
  idle: 'Take a call through this computer’s microphone; every open tab follows the transcript.',
  opening: 'Asking for the microphone…',
  connecting: 'Connecting to the streaming service…',
  listening: 'On the line: transcribing as the caller speaks.',
  ending: 'Ending the call: the last words are being transcribed…',
  ended: 'Call ended: it is analysed like an uploaded call.',
};

/** The Live call button and its status line; the transcript shows in the call's detail, in every tab. */
export function LiveCallControl({ config, status, elsewhere, dispatch, socketId, onError }: Props) {
  const session = useRef<LiveCallSession | null>(null);
  // A tab that closes mid-call ends it, so the call is analysed rather than left open.
  useEffect(() => {
    const hangUp = () => session.current?.abandon();
    window.addEventListener('pagehide', hangUp);
    return () => window.removeEventListener('pagehide', hangUp);
  }, []);

  const start = () => {
    const live = new LiveCallSession(
      liveCallApi(),
      browserMicrophone(),
      {
        status: (s) =>
          dispatch({ type: 'capture', status: s, ...(live.callId ? { callId: live.callId } : {}) }),
        call: (call) => {
          dispatch({ type: 'capture', callId: call.id });
          dispatch({ type: 'started', call });
        },
        turn: (callId, { words: _words, ...turn }) =>
          dispatch({ type: 'liveTurn', callId, turn, local: true }),
        error: onError,
      },
      socketId,
    );
    session.current = live;
    void live.start();
  };

  // Stop once there is a session to stop; while the browser asks for the microphone, its prompt decides.
  const busy = status === 'connecting' || status === 'listening';
  return (
    <div className="panel live-control" data-testid="live-control" data-status={status}>
      <h2>
        Live call
        {status === 'listening' && <span className="live-dot" aria-hidden="true" />}
      </h2>
      <div className="live-row">
        {busy ? (
          <button type="button" className="stop" onClick={() => void session.current?.stop()}>
            Stop
          </button>
        ) : (
          <button
            type="button"
            onClick={start}
            disabled={!config || status === 'opening' || status === 'ending'}
          >
            Live call
          </button>
        )}
        <span className="live-status" data-testid="live-status" role="status">
          {status === 'idle' && elsewhere
            ? 'Another tab is on a live call: its transcript shows below, live.'
            : STATUS_TEXT[status]}
        </span>
      </div>
      {config && (
        <p className="muted small">
          Streams to {config.live.streamingUrl} ({config.live.speechModel}) with a temporary token; the API
          key stays on the server.
        </p>
      )}
    </div>
  );
}
