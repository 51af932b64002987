import type { RawData } from 'ws';
import { reportHandlerFailure } from '../../kit/emulator.js';
import type { RealtimeHub } from '../model/hub.js';
import { parseWatchlist } from '../model/watchlist.js';
import { CLOSE, ERROR } from '../protocol/codes.js';
import { commandData, decodeFrame, encodeFrame } from '../protocol/frames.js';
import { jsonTextDepth, MAX_USER_JSON_DEPTH, valueDeeperThan } from '../protocol/json-depth.js';
import { channelNameProblem, channelType, eventNameProblem, isClientEvent } from '../protocol/names.js';
import { hmacHex, signaturesEqual, userStringToSign } from '../protocol/signatures.js';
import type { Connection } from './connection.js';
import { subscribe } from './subscribe.js';

/** Turns an incoming frame into a string; a fragmented message arrives as an array of buffers. */
function frameText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return Buffer.from(raw as ArrayBuffer).toString('utf8');
}

function frameBytes(raw: RawData): number {
  if (Array.isArray(raw)) return raw.reduce((n, b) => n + b.length, 0);
  return (raw as Buffer | ArrayBuffer).byteLength;
}

/**
 * What the server does with each client frame. Frames the protocol forbids close the connection with the RFC
 * 6455 code for them (1003 binary, 1009 too big); frames it can read but not use get a `pusher:error` and the
 * connection stays; unknown events are ignored, as soketi does and as the protocol's "ignore what you do not
 * understand" asks.
 */
export function handleFrame(hub: RealtimeHub, connection: Connection, raw: RawData, isBinary: boolean): void {
  try {
    dispatch(hub, connection, raw, isBinary);
  } catch (err) {
    // Only a bug of the emulator's own gets here (every refusal the protocol knows is answered above): this
    // socket ends with 1011 (internal error) and every other session goes on.
    reportHandlerFailure('realtime', 'frame', err);
    connection.close(CLOSE.internalError, 'Internal server error');
  }
}

function dispatch(hub: RealtimeHub, connection: Connection, raw: RawData, isBinary: boolean): void {
  if (!connection.open || connection.silent) return;
  connection.touch();
  if (isBinary) {
    connection.close(CLOSE.unsupportedData, 'Binary frames are not supported: send UTF-8 JSON text frames');
    return;
  }
  if (frameBytes(raw) > hub.settings.maxFrameBytes) {
    connection.close(CLOSE.messageTooBig, `Message exceeds ${hub.settings.maxFrameBytes} bytes`);
    return;
  }
  const decoded = decodeFrame(frameText(raw));
  if (!decoded.ok) {
    connection.sendError(ERROR.soft, decoded.problem);
    return;
  }
  const { event, channel, data } = decoded.frame;
  switch (event) {
    case 'pusher:ping':
      connection.send(encodeFrame({ event: 'pusher:pong', data: {} }));
      return;
    case 'pusher:pong':
      return;
    case 'pusher:subscribe':
      subscribe(hub, connection, data);
      return;
    case 'pusher:unsubscribe':
      unsubscribe(hub, connection, data);
      return;
    case 'pusher:signin':
      signin(hub, connection, data);
      return;
  }
  if (isClientEvent(event)) clientEvent(hub, connection, event, channel, data);
}

function unsubscribe(hub: RealtimeHub, connection: Connection, raw: unknown): void {
  const data = commandData(raw);
  const channel = data?.channel;
  if (typeof channel !== 'string') {
    connection.sendError(ERROR.soft, 'pusher:unsubscribe needs data.channel, a string');
    return;
  }
  if (!connection.channels.delete(channel)) return;
  hub.channels(connection.app).leave(connection.socketId, channel);
}

/**
 * User authentication. A bad signature or user data without an `id` closes the connection with 4009, as soketi
 * does (the protocol page names 4009 "connection is unauthorized").
 */
function signin(hub: RealtimeHub, connection: Connection, raw: unknown): void {
  const data = commandData(raw);
  const auth = data?.auth;
  const userData = data?.user_data;
  if (typeof auth !== 'string' || typeof userData !== 'string') {
    connection.close(CLOSE.unauthorized, 'pusher:signin needs data.auth and data.user_data, both strings');
    return;
  }
  const [key, signature = ''] = auth.split(':', 2);
  const expected = hmacHex(connection.app.secret, userStringToSign(connection.socketId, userData));
  if (key !== connection.app.key || !signaturesEqual(expected, signature)) {
    connection.close(CLOSE.unauthorized, 'Invalid signature for pusher:signin');
    return;
  }
  if (jsonTextDepth(userData) > MAX_USER_JSON_DEPTH) {
    connection.close(CLOSE.unauthorized, `user_data is nested deeper than ${MAX_USER_JSON_DEPTH} levels`);
    return;
  }
  let user: unknown;
  try {
    user = JSON.parse(userData);
  } catch {
    user = null;
  }
  const id = user && typeof user === 'object' ? (user as { id?: unknown }).id : undefined;
  if ((typeof id !== 'string' && typeof id !== 'number') || String(id).length === 0) {
    connection.close(CLOSE.unauthorized, 'user_data must be a JSON object with an "id"');
    return;
  }
  const watchlist = parseWatchlist(
    (user as { watchlist?: unknown }).watchlist,
    hub.settings.maxWatchlistSize,
  );
  if (!watchlist.ok) {
    connection.close(CLOSE.unauthorized, watchlist.message);
    return;
  }
  if (!hub.admitAuthorized(connection)) return;
  connection.userInfo = (user as { user_info?: unknown }).user_info;
  hub.authorize(connection);
  // signin_success first: the watchlist's initial `online` event reaches a client that knows it is signed in.
  connection.send(encodeFrame({ event: 'pusher:signin_success', data: { user_data: userData } }));
  hub.signIn(connection, String(id), watchlist.ids);
}

/** Sliding one-second window per connection: `clientEventsPerSecond` accepted events at most. */
function takeClientEventSlot(connection: Connection, perSecond: number): boolean {
  const now = performance.now();
  const times = connection.clientEventTimes;
  while (times.length > 0 && times[0]! <= now - 1000) times.shift();
  if (times.length >= perSecond) return false;
  times.push(now);
  return true;
}

/**
 * A `client-*` event. What costs nothing is checked first (the app allows client events, the socket is
 * subscribed, the name), so the data of a refused event is never read; then the data's depth and size, then
 * the rate slot. Every refusal is a 4301, as soketi answers them.
 */
function clientEvent(
  hub: RealtimeHub,
  connection: Connection,
  event: string,
  channel: string | undefined,
  data: unknown,
): void {
  const refuse = (message: string) => connection.sendError(ERROR.clientEventRejected, message, channel);
  const problem = clientEventProblem(connection, event, channel);
  if (problem !== null || channel === undefined) {
    refuse(problem ?? 'Client events need a channel');
    return;
  }
  if (typeof data !== 'string' && valueDeeperThan(data)) {
    refuse(`Client event data is nested deeper than ${MAX_USER_JSON_DEPTH} levels`);
    return;
  }
  const payload = typeof data === 'string' ? data : JSON.stringify(data ?? null);
  if (Buffer.byteLength(payload) > hub.settings.maxPayloadBytes) {
    refuse(`Client event data exceeds ${hub.settings.maxPayloadBytes} bytes`);
    return;
  }
  const perSecond = hub.settings.clientEventsPerSecond;
  if (!takeClientEventSlot(connection, perSecond)) {
    refuse(`Client event rejected due to rate limit (${perSecond} per second per connection)`);
    return;
  }
  const kind = channelType(channel).kind;
  const channels = hub.channels(connection.app);
  const userId =
    kind === 'presence' ? channels.get(channel)?.userBySocket.get(connection.socketId) : undefined;
  // Never echoed to the sender.
  hub.publish(connection.app, {
    channel,
    event,
    data: payload,
    exceptSocketId: connection.socketId,
    ...(userId !== undefined ? { userId } : {}),
  });
  hub.webhooks.emit(connection.app, {
    name: 'client_event',
    channel,
    event,
    data: payload,
    socket_id: connection.socketId,
    ...(userId !== undefined ? { user_id: userId } : {}),
  });
}

/** Why a client event is refused whatever its data, or null. */
function clientEventProblem(
  connection: Connection,
  event: string,
  channel: string | undefined,
): string | null {
  if (!connection.app.enableClientMessages) return 'Client events are not enabled for this app';
  if (channel === undefined || channelNameProblem(channel) !== null) {
    return `Client event ${event.slice(0, 64)} needs a valid channel`;
  }
  const kind = channelType(channel).kind;
  if (kind !== 'private' && kind !== 'presence') {
    return 'Client events are only supported on private and presence channels';
  }
  if (!connection.channels.has(channel)) return `Client event rejected: not subscribed to ${channel}`;
  return eventNameProblem(event);
}
