import type { PresenceMember } from '../model/channels.js';
import type { RealtimeHub } from '../model/hub.js';
import { ERROR } from '../protocol/codes.js';
import { commandData, encodeFrame } from '../protocol/frames.js';
import { jsonTextDepth, MAX_USER_JSON_DEPTH } from '../protocol/json-depth.js';
import { channelNameProblem, channelType, needsAuth, USER_CHANNEL_PREFIX } from '../protocol/names.js';
import { channelStringToSign, hmacHex, signaturesEqual } from '../protocol/signatures.js';
import type { Connection } from './connection.js';

type Checked<T> = { ok: true; value: T } | { ok: false; message: string };

/**
 * Checks `auth` ("key:signature") for a private, presence or encrypted channel. Messages are Pusher's own
 * wording (seen in client issue threads: "Invalid signature: Expected HMAC SHA256 hex digest of ..., but got
 * ..."), which names the string to sign but never the secret.
 */
function checkAuth(
  connection: Connection,
  channel: string,
  auth: unknown,
  channelData: unknown,
): Checked<null> {
  if (typeof auth !== 'string' || auth.length === 0) {
    return { ok: false, message: `Auth info required to subscribe to ${channel}` };
  }
  const colon = auth.indexOf(':');
  const key = colon === -1 ? auth : auth.slice(0, colon);
  const signature = colon === -1 ? '' : auth.slice(colon + 1);
  if (key !== connection.app.key) {
    return { ok: false, message: `Invalid key in subscription auth data: '${key.slice(0, 64)}'` };
  }
  if (channelData !== undefined && typeof channelData !== 'string') {
    return { ok: false, message: 'channel_data must be a string (the JSON exactly as signed)' };
  }
  const stringToSign = channelStringToSign(connection.socketId, channel, channelData);
  const expected = hmacHex(connection.app.secret, stringToSign);
  if (!signaturesEqual(expected, signature)) {
    return {
      ok: false,
      message: `Invalid signature: Expected HMAC SHA256 hex digest of ${stringToSign}, but got ${signature.slice(0, 128)}`,
    };
  }
  return { ok: true, value: null };
}

/** The presence member from signed channel_data, or from the signed-in user when channel_data is left out. */
function presenceMember(
  hub: RealtimeHub,
  connection: Connection,
  channelData: unknown,
): Checked<PresenceMember> {
  if (channelData === undefined) {
    if (connection.userId === null) {
      return {
        ok: false,
        message: 'Presence channels need channel_data with a user_id, or a signed-in user',
      };
    }
    return withInfo(hub, connection.userId, connection.userInfo);
  }
  // Checked before parsing: every member's info is serialised again for each subscriber.
  if (jsonTextDepth(channelData as string) > MAX_USER_JSON_DEPTH) {
    return { ok: false, message: `channel_data is nested deeper than ${MAX_USER_JSON_DEPTH} levels` };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(channelData as string);
  } catch {
    return { ok: false, message: 'channel_data is not valid JSON' };
  }
  const fields = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  const userId = fields.user_id;
  if ((typeof userId !== 'string' && typeof userId !== 'number') || String(userId).length === 0) {
    return { ok: false, message: 'channel_data must be a JSON object with a user_id' };
  }
  return withInfo(hub, String(userId), fields.user_info);
}

/**
 * The member, unless its `user_info` is over the limit (a signed-in user's too, since that is what joins when
 * channel_data is left out). Its depth was bounded where it arrived, so serialising it here is safe.
 */
function withInfo(hub: RealtimeHub, userId: string, info: unknown): Checked<PresenceMember> {
  const infoBytes = info === undefined ? 0 : Buffer.byteLength(JSON.stringify(info));
  if (infoBytes > hub.settings.maxPresenceUserInfoBytes) {
    return {
      ok: false,
      message: `user_info is ${infoBytes} bytes; the limit is ${hub.settings.maxPresenceUserInfoBytes}`,
    };
  }
  return { ok: true, value: { userId, info } };
}

/**
 * `pusher:subscribe`, data as an object or a JSON string. A refused subscription gets a `pusher:error` with
 * `code: null` and no channel on the envelope, as Pusher answers a bad signature (the frame quoted in
 * pusher/pusher-websocket-java#205: `{"event":"pusher:error","data":{"code":null,"message":"Invalid signature:
 * ..."}}`); only the message may name the channel, and pusher-js simply never sees
 * `pusher:subscription_succeeded` for it. (soketi sends `pusher:subscription_error`, which is not in the protocol.)
 */
export function subscribe(hub: RealtimeHub, connection: Connection, raw: unknown): void {
  const data = commandData(raw);
  const channel = data?.channel;
  if (!data || typeof channel !== 'string') {
    connection.sendError(ERROR.soft, 'pusher:subscribe needs data.channel, a string');
    return;
  }
  if (channel.startsWith(USER_CHANNEL_PREFIX)) {
    subscribeToOwnUserChannel(connection, channel);
    return;
  }
  const already = connection.channels.has(channel);
  const admitted = admitSubscription(hub, connection, channel, data, already);
  // Past the quota of authorized connections the connection is closed before it joins (no member_added).
  if (admitted.ok && needsAuth(channel) && !hub.admitAuthorized(connection)) return;
  const channels = hub.channels(connection.app);
  const joined = admitted.ok ? channels.join(connection, channel, admitted.value) : admitted;
  if (!joined.ok) {
    connection.sendError(ERROR.soft, joined.message);
    return;
  }
  const type = joined.channel.type;
  connection.channels.add(channel);
  // Private, presence and encrypted (private-encrypted-) channels are the "authorized channels" that keep a
  // connection open under "authorized connections" (see RealtimeHub.authorize).
  if (type.kind !== 'public') hub.authorize(connection);
  connection.send(
    encodeFrame({
      event: 'pusher_internal:subscription_succeeded',
      channel,
      data: type.kind === 'presence' ? joined.channel.presenceData() : {},
    }),
  );
  // Closed by that send (a reader that stopped draining): its leave has run, and nothing more is for it.
  if (already || !connection.open) return;
  channels.announceCount(joined.channel);
  if (!type.cache) return;
  const cached = channels.cache.get(channel);
  if (cached) {
    connection.send(encodeFrame({ event: cached.event, channel, data: cached.data }));
  } else {
    connection.send(encodeFrame({ event: 'pusher:cache_miss', channel }));
    hub.webhooks.emit(connection.app, { name: 'cache_miss', channel });
  }
}

/** Name, subscription cap, signature and presence member: the member to join as, or why not. */
function admitSubscription(
  hub: RealtimeHub,
  connection: Connection,
  channel: string,
  data: Record<string, unknown>,
  already: boolean,
): Checked<PresenceMember | undefined> {
  const nameProblem = channelNameProblem(channel);
  if (nameProblem) return { ok: false, message: `Invalid channel name: ${nameProblem}` };
  const max = hub.settings.maxSubscriptionsPerConnection;
  if (!already && connection.channels.size >= max) {
    return {
      ok: false,
      message: `Cannot subscribe to ${channel}: a connection may hold ${max} subscriptions`,
    };
  }
  const kind = channelType(channel).kind;
  if (kind === 'public') return { ok: true, value: undefined };
  const auth = checkAuth(connection, channel, data.auth, data.channel_data);
  if (!auth.ok) return auth;
  return kind === 'presence'
    ? presenceMember(hub, connection, data.channel_data)
    : { ok: true, value: undefined };
}

/**
 * pusher-js subscribes to `#server-to-user-{id}` right after `pusher:signin_success`. Only the signed-in user
 * may; its events reach the user's connections through the user index, so nothing is tracked here.
 */
function subscribeToOwnUserChannel(connection: Connection, channel: string): void {
  if (connection.userId === null || channel !== `${USER_CHANNEL_PREFIX}${connection.userId}`) {
    connection.sendError(ERROR.soft, `${channel} is reserved for the user signed in as that id`);
    return;
  }
  connection.send(encodeFrame({ event: 'pusher_internal:subscription_succeeded', channel, data: {} }));
}
