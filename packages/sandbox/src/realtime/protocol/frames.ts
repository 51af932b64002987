/**
 * The wire envelope: `{event, channel?, data?, user_id?}` as one UTF-8 JSON text frame. The server double-encodes
 * `data` (a string holding JSON) except on `pusher:error`, whose data is an object; clients may send `data` as an
 * object (pusher-js) or as a JSON string (the old protocol page), and both are read here.
 */

export interface ServerFrame {
  event: string;
  channel?: string;
  /** A string goes out as is; an object is JSON-encoded into a string, as Pusher sends its own events. */
  data?: unknown;
  user_id?: string;
}

export function encodeFrame(frame: ServerFrame): string {
  const out: Record<string, unknown> = { event: frame.event };
  if (frame.channel !== undefined) out.channel = frame.channel;
  if (frame.data !== undefined) {
    out.data = typeof frame.data === 'string' ? frame.data : JSON.stringify(frame.data);
  }
  if (frame.user_id !== undefined) out.user_id = frame.user_id;
  return JSON.stringify(out);
}

/** `pusher:error` is the one server event whose data stays an object. */
export function errorFrame(code: number | null, message: string, channel?: string): string {
  return JSON.stringify({
    event: 'pusher:error',
    ...(channel !== undefined ? { channel } : {}),
    data: { code, message },
  });
}

export interface ClientFrame {
  event: string;
  channel?: string;
  /** As sent: an object, a string, or anything else a client put there. */
  data: unknown;
}

export type Decoded = { ok: true; frame: ClientFrame } | { ok: false; problem: string };

/** Parses one client frame; what is wrong with it is said in words for a `pusher:error`. */
export function decodeFrame(text: string): Decoded {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'Unable to parse message: not valid JSON' };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return { ok: false, problem: 'Unable to parse message: expected a JSON object' };
  }
  const envelope = parsed as Record<string, unknown>;
  if (typeof envelope.event !== 'string' || envelope.event.length === 0) {
    return { ok: false, problem: 'Message must have a string "event"' };
  }
  if (envelope.channel !== undefined && typeof envelope.channel !== 'string') {
    return { ok: false, problem: '"channel" must be a string' };
  }
  return {
    ok: true,
    frame: {
      event: envelope.event,
      ...(envelope.channel !== undefined ? { channel: envelope.channel as string } : {}),
      data: envelope.data,
    },
  };
}

/**
 * The data of a `pusher:*` command as an object: pusher-js sends an object, older clients a string holding JSON.
 * Null when it is neither.
 */
export function commandData(data: unknown): Record<string, unknown> | null {
  let value = data;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  if (value === undefined) return {};
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}
