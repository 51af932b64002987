import type { IncomingMessage } from 'node:http';
import type { WebSocket } from 'ws';
import type { RealtimeApp } from '../model/apps.js';
import type { RealtimeHub } from '../model/hub.js';
import { CLOSE, closeReason } from '../protocol/codes.js';
import { Connection, type SocketCounters } from './connection.js';
import { handleFrame } from './session.js';

/** Protocol versions served. pusher-js speaks 7; 5 and 6 differ from it only in ways the emulator never uses. */
const SUPPORTED_PROTOCOLS = new Set([5, 6, 7]);

/** The sandbox-wide switches the fault methods flip. */
export interface SocketFaultState {
  /** `performance.now()` until which new connections are refused with 4100. */
  refuseUntil: number;
  /** New connections start silenced too while the sandbox is silent. */
  silent: boolean;
}

type Admission = { ok: true; app: RealtimeApp } | { ok: false; code: number; reason: string };

/** Decides whether a handshake to `/app/{key}?protocol=N` becomes a connection, and if not, the close code. */
export function admit(hub: RealtimeHub, faults: SocketFaultState, url: string | undefined): Admission {
  const target = new URL(url ?? '/', 'http://sandbox');
  const rawKey = target.pathname.slice('/app/'.length);
  if (!target.pathname.startsWith('/app/') || rawKey.length === 0 || rawKey.includes('/')) {
    return { ok: false, code: CLOSE.pathNotFound, reason: 'Path not found: connect to /app/{key}' };
  }
  let key: string;
  try {
    key = decodeURIComponent(rawKey);
  } catch {
    return {
      ok: false,
      code: CLOSE.pathNotFound,
      reason: 'Path not found: the key is not valid percent-encoding',
    };
  }
  const app = hub.appByKey(key);
  if (!app) return { ok: false, code: CLOSE.appDoesNotExist, reason: `App key ${key} does not exist` };
  const protocol = target.searchParams.get('protocol');
  if (protocol === null || protocol === '') {
    return { ok: false, code: CLOSE.noProtocol, reason: 'No protocol version supplied: add ?protocol=7' };
  }
  if (!/^\d+$/.test(protocol)) {
    return { ok: false, code: CLOSE.invalidVersion, reason: `Invalid protocol version "${protocol}"` };
  }
  if (!SUPPORTED_PROTOCOLS.has(Number(protocol))) {
    return { ok: false, code: CLOSE.unsupportedProtocol, reason: `Unsupported protocol version ${protocol}` };
  }
  if (performance.now() < faults.refuseUntil) {
    return {
      ok: false,
      code: CLOSE.overCapacity,
      reason: 'Over capacity: the sandbox is refusing connections',
    };
  }
  // With "authorized connections" a connection counts only once it is authorized (RealtimeHub.admitAuthorized).
  if (!app.authorizedConnections && hub.connectionCount(app) >= app.maxConnections) {
    return { ok: false, code: CLOSE.overConnectionQuota, reason: 'Application is over connection quota' };
  }
  return { ok: true, app };
}

/** The `/app/` socket handler: admits the connection, then feeds its frames to the session. */
export function acceptSocket(
  hub: RealtimeHub,
  faults: SocketFaultState,
  counters: SocketCounters,
  connections: Set<Connection>,
  ws: WebSocket,
  request: IncomingMessage,
): void {
  const admission = admit(hub, faults, request.url);
  if (!admission.ok) {
    ws.on('error', () => ws.terminate());
    ws.close(admission.code, closeReason(admission.reason));
    setTimeout(() => ws.terminate(), 1000).unref();
    return;
  }
  counters.opened += 1;
  const connection = new Connection(admission.app, ws, hub.settings, counters, (gone) => {
    connections.delete(gone);
    hub.remove(gone);
  });
  connections.add(connection);
  hub.add(connection);
  ws.on('message', (raw, isBinary) => {
    counters.messagesIn += 1;
    handleFrame(hub, connection, raw, isBinary);
  });
  if (faults.silent) {
    // A silent server accepted the TCP connection but says nothing, not even connection_established.
    connection.silence();
    connection.pendingStart = true;
    return;
  }
  connection.start();
}
