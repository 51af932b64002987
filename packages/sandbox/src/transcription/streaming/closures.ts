/**
 * How a streaming session ends, as AssemblyAI's "Common session errors and closures" page tables it: an error
 * closure is preceded by a text frame `{"type":"Error","error_code":<close code>,"error":"<message>"}`, and the
 * close reason is the message when it fits the 123 bytes RFC 6455 allows, else `See Error message for details`.
 * The codes follow the page's current table (3006..3009 replaced the catch-all 3005 in February 2026; the
 * `assemblyai` SDK 4.41.5 still maps v2's 4001 for auth and treats 1008 as retryable: the docs win here).
 */
export const CLOSE = {
  /** Terminate answered: after `Termination`. */
  normal: 1000,
  /** Missing or invalid key or token, or an account problem. */
  unauthorized: 1008,
  /** "Session Cancelled: An error occurred": the catch-all server error. */
  serverError: 3005,
  /** Invalid JSON, an unknown message type, or input that fails validation. */
  invalidMessage: 3006,
  /** An audio frame outside 50..1000 ms, or audio sent faster than real time. */
  audioViolation: 3007,
  /** The session outlived 3 hours or its token's `max_session_duration_seconds`. */
  sessionExpired: 3008,
  /** Too many sessions: the new-sessions-per-minute window (or the sandbox's concurrency bound). */
  tooManySessions: 3009,
} as const;

export type ErrorCloseCode = Exclude<(typeof CLOSE)[keyof typeof CLOSE], 1000>;

/** The documented messages, with the emulator's detail where the docs show a placeholder. */
export const MESSAGE = {
  missingAuth: 'Unauthorized Connection: Missing Authorization header',
  invalidKey: 'Unauthorized Connection: Invalid API key',
  unknownToken: 'Unauthorized Connection: Invalid temporary token',
  usedToken: 'Unauthorized Connection: Temporary token has already been used',
  expiredToken: 'Unauthorized Connection: Temporary token has expired',
  tooManySessions: 'Unauthorized Connection: Too many concurrent sessions',
  sessionExpired: 'Session Expired: Maximum session duration exceeded',
  serverError: 'Session Cancelled: An error occurred',
  inputDuration: (ms: number) =>
    `Input duration violation: ${formatMs(ms)} ms. Expected between 50 and 1000 ms`,
  transmissionRate: (audioSeconds: number, elapsedSeconds: number) =>
    `Audio Transmission Rate Exceeded: Received ${audioSeconds.toFixed(2)} sec. audio in ${elapsedSeconds.toFixed(2)} sec`,
  invalidJson: (text: string) => `Invalid JSON: ${excerpt(text)}`,
  invalidMessageType: (type: string) => `Invalid Message Type: ${excerpt(type)}`,
  invalidMessage: (what: string) => `Invalid Message: ${excerpt(what)}`,
} as const;

/** The reason a close frame can carry (123 bytes), as the docs describe it. */
export function closeReason(message: string): string {
  return Buffer.byteLength(message, 'utf8') <= 123 ? message : 'See Error message for details';
}

/** A client's own input quoted back in an Error message: bounded, so a 1 MB frame is not echoed whole. */
function excerpt(text: string): string {
  return text.length <= 200 ? text : `${text.slice(0, 200)}…`;
}

/** `40`, `1000.5`: milliseconds as computed from a frame's samples, without float noise. */
function formatMs(ms: number): string {
  return String(Math.round(ms * 1000) / 1000);
}
