import { ValidationError } from '@x/core';
import {
  type SocketLike,
  type WebSocketFactory,
  webSocketFactory,
  webSocketFactoryWithHeaders,
} from '@x/core/socket';
import { StreamingAuthenticationError } from './errors.js';
import type { ResolvedOptions } from './options.js';
import { websocketUrl } from './query.js';

/** What one connection attempt needs: the credential in the URL (a token) or in a header (the key). */

/**
 * Each attempt's URL and socket factory, and the ping of the socket it opened (undefined where the
 * runtime's WebSocket cannot ping). A given `token` opens one session only.
 */
export class Attempts {
  readonly #o: ResolvedOptions;
  readonly #traffic: () => void;
  #tokenUsed = false;
  /** Pings the current socket; its pong counts as traffic. */
  ping: (() => void) | undefined;

  constructor(options: ResolvedOptions, traffic: () => void) {
    this.#o = options;
    this.#traffic = traffic;
  }

  /** The WebSocket URL with `query`, and the attempt's token in it (none with the key). */
  async url(query: URLSearchParams): Promise<string> {
    const token = await attemptToken(this.#o.auth, this.#tokenUsed);
    if ('token' in this.#o.auth) this.#tokenUsed = true;
    if (token) query.set('token', token);
    return websocketUrl(this.#o.baseUrl, query);
  }

  factory(): Promise<WebSocketFactory> {
    return attemptFactory(this.#o.auth, this.#o.webSocketFactory, (_socket, pinger) => {
      this.ping = pinger?.(this.#traffic);
    });
  }
}

/** The token for this attempt: a fresh one from `getToken`, the given one once, or none (the key). */
async function attemptToken(auth: ResolvedOptions['auth'], used: boolean): Promise<string | undefined> {
  if ('getToken' in auth) {
    const got = await auth.getToken();
    const token = typeof got === 'string' ? got : got?.token;
    if (typeof token !== 'string' || token === '') {
      throw new StreamingAuthenticationError('getToken() gave no token (expected a string or { token })');
    }
    return token;
  }
  if (!('token' in auth)) return undefined;
  if (used) {
    throw new StreamingAuthenticationError(
      'a temporary token opens one session only: pass getToken to reconnect with fresh ones',
    );
  }
  return auth.token;
}

/**
 * The socket factory: `ws` in Node (through `#websocket`; it sends the key in `Authorization` and can
 * ping, so it is preferred to a global WebSocket there), the runtime's WebSocket elsewhere, where a key is
 * refused before anything is opened. `opened` hears each socket and the ping to use on it, if any.
 */
async function attemptFactory(
  auth: ResolvedOptions['auth'],
  custom: WebSocketFactory | undefined,
  opened: (socket: SocketLike, pinger: ((onPong: () => void) => () => void) | undefined) => void,
): Promise<WebSocketFactory> {
  const mod = custom ? undefined : await import('#websocket');
  if ('apiKey' in auth && !custom && !mod?.pinger) {
    throw new ValidationError('StreamingTranscriber options', [
      {
        path: 'apiKey',
        message:
          "cannot be used here: this runtime's WebSocket cannot send the Authorization header, and an API key does not belong in a browser. Use getToken with temporary tokens from your server (client.streaming.createTemporaryToken)",
      },
    ]);
  }
  const open: WebSocketFactory =
    custom ??
    ('apiKey' in auth
      ? await webSocketFactoryWithHeaders(async () => mod?.WebSocketImpl, { Authorization: auth.apiKey })
      : mod?.pinger && mod.WebSocketImpl
        ? (url) => new mod.WebSocketImpl!(url)
        : await webSocketFactory(async () => mod?.WebSocketImpl));
  return (url) => {
    const socket = open(url);
    // A WHATWG WebSocket hands binary frames over as Blobs by default, which cannot be decoded synchronously.
    (socket as { binaryType?: string }).binaryType = 'arraybuffer';
    const pinger = mod?.pinger;
    opened(socket, pinger && ((onPong) => pinger(socket, onPong)));
    return socket;
  };
}
