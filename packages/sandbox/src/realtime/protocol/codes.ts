/**
 * Close codes of Pusher Channels protocol 7 (pusher.com/docs/channels/library_auth_reference/pusher-websockets-protocol)
 * plus the RFC 6455 codes the emulator uses for frames the protocol has no code for. pusher-js decides what to do
 * from the range alone: 4000–4099 stay disconnected, 4100–4199 back off, 4200–4299 reconnect at once, below 4000
 * retry after a second.
 */
export const CLOSE = {
  /** RFC 6455: a binary frame (the protocol is UTF-8 JSON text frames only). */
  unsupportedData: 1003,
  /** RFC 6455: a frame larger than the emulator reads. */
  messageTooBig: 1009,
  /** RFC 6455: the emulator failed on a frame it should have answered (its own bug, never the client's). */
  internalError: 1011,
  appDoesNotExist: 4001,
  appDisabled: 4003,
  /** The app's connection quota (`maxConnections`) is used up; the protocol page names 4004 for it. */
  overConnectionQuota: 4004,
  pathNotFound: 4005,
  invalidVersion: 4006,
  unsupportedProtocol: 4007,
  noProtocol: 4008,
  /** terminate_connections, a refused signin. */
  unauthorized: 4009,
  /** Over capacity: refused while the sandbox is restarting, or a reader too slow to drain its buffer. */
  overCapacity: 4100,
  /** Generic "reconnect now": used when the sandbox restarts. */
  reconnectNow: 4200,
  pongNotReceived: 4201,
} as const;

/** `pusher:error` codes that do not close the connection. */
export const ERROR = {
  /** Soft errors (a refused subscription, an unreadable frame) carry `code: null`, as Pusher sends them. */
  soft: null,
  /** Every rejected client event, as soketi does; the protocol page names 4301 for the rate limit. */
  clientEventRejected: 4301,
} as const;

/** Close reasons are capped at 123 bytes by RFC 6455; ws throws on longer ones. */
export function closeReason(message: string): string {
  const bytes = Buffer.from(message, 'utf8');
  if (bytes.length <= 123) return message;
  return (
    bytes
      .subarray(0, 120)
      .toString('utf8')
      .replace(/\uFFFD$/, '') + '...'
  );
}
