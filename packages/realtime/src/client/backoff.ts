/**
 * Reconnect delays: exponential with full jitter, the one computation of the SDK (`@x/core/base`'s, which
 * core's HTTP retries and every WebSocket client use too). Full jitter spreads a whole fleet of clients that lost the same server, instead of
 * bringing them back in waves; pusher-js waits a fixed second, which is what causes those waves. The floor
 * keeps a minimum the server asked for: codes 4100–4199 say "back off at least 1 s".
 */
export { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from '@x/core/base';
