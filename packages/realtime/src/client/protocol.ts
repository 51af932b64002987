/**
 * Pusher Channels protocol 7 on the wire: the connection URL, the frame codec and what each close code
 * asks the client to do. Pure functions, no I/O, so the whole table is unit-tested.
 */

/** Our own version, sent in the connection URL. A unit test keeps it equal to package.json's. */
export const VERSION = '0.1.0';
export const PROTOCOL = 7;

/** A decoded frame: `data` after the inner parse (see `decodeFrame`). */
export interface Frame {
  event: string;
  channel?: string;
  data?: unknown;
  user_id?: string;
}

export interface UrlParts {
  key: string;
  host: string;
  port: number;
  tls: boolean;
  path?: string | undefined;
}

/** `ws[s]://host:port{path}/app/{key}?protocol=7&client=js&version=…&flash=false`, as pusher-js sends it. */
export function connectionUrl(parts: UrlParts): string {
  const path = (parts.path ?? '').replace(/\/+$/, '');
  // `flash=false` is a leftover of the Flash transport; servers log it and some proxies route on it.
  const query = `protocol=${PROTOCOL}&client=js&version=${VERSION}&flash=false`;
  return `${parts.tls ? 'wss' : 'ws'}://${parts.host}:${parts.port}${path}/app/${encodeURIComponent(parts.key)}?${query}`;
}

/**
 * The server double-encodes: `data` is a string that usually holds JSON. Parse it when it is JSON and keep
 * the raw string when it is not, so a publisher's plain string survives (pusher-js's `decodeMessage`).
 * Returns null for anything that is not an event frame; the caller logs and ignores it.
 */
export function decodeFrame(raw: unknown): Frame | null {
  if (typeof raw !== 'string') return null;
  let outer: unknown;
  try {
    outer = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof outer !== 'object' || outer === null) return null;
  const frame = outer as Record<string, unknown>;
  if (typeof frame.event !== 'string') return null;
  const decoded: Frame = { event: frame.event };
  if (typeof frame.channel === 'string') decoded.channel = frame.channel;
  if (typeof frame.user_id === 'string') decoded.user_id = frame.user_id;
  if ('data' in frame) decoded.data = parseInner(frame.data);
  return decoded;
}

function parseInner(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** Client to server, `data` goes as an object (as pusher-js sends it); servers accept both forms. */
export function encodeFrame(event: string, data: unknown, channel?: string): string {
  const frame: Frame = { event, data };
  if (channel !== undefined) frame.channel = channel;
  return JSON.stringify(frame);
}

/**
 * What a close code asks for (the protocol page's ranges, pusher-js's `getCloseAction`, and our
 * exponential backoff where pusher-js waits a fixed second):
 * - `tls`: 4000, the app is TLS-only: switch to wss and retry at once.
 * - `refuse`: 4001–4099 (app missing, disabled, over quota, unauthorized …) and 4300–4399: retrying
 *   unchanged cannot help, so stop and surface the code.
 * - `backoff`: 4100–4199 (over capacity) and every code below 4000 (normal, going away, abnormal):
 *   reconnect after a jittered, growing delay.
 * - `retry`: 4200–4299 (generic, pong not received, closed for inactivity): reconnect at once.
 */
export type CloseAction = 'tls' | 'refuse' | 'backoff' | 'retry';

export function closeAction(code: number): CloseAction {
  if (code === 4000) return 'tls';
  if (code >= 4001 && code <= 4099) return 'refuse';
  if (code >= 4100 && code <= 4199) return 'backoff';
  if (code >= 4200 && code <= 4299) return 'retry';
  if (code >= 4300 && code <= 4399) return 'refuse';
  // Codes below 4000 are transport-level (1000 normal, 1001 going away, 1006 abnormal, …): the server did
  // not ask us to stop, so a dropped link is retried. Unknown codes at 4400 and above are treated alike.
  return 'backoff';
}
