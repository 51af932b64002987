import { ValidationError, type ValidationIssue } from '@x/core';
import { channelKind, channelNameProblem } from '../shared/names.js';
import { sharedSecretBase64 } from './encryption.js';
import { jsonDataIssue } from './internal/json-depth.js';
import type { HexSigner } from './signing.js';

/**
 * The answers an app's auth endpoints give pusher-js: channel authorization (`/pusher/auth`) and user
 * authentication (`/pusher/user-auth`). Pure functions of the app's credentials: no network.
 */

/** What presence channels know of a member: `user_id` (a string is advised; Pusher accepts numbers). */
export interface PresenceData {
  user_id: string | number;
  user_info?: Record<string, unknown> | undefined;
  [field: string]: unknown;
}

/** The user a `pusher:signin` carries; `id` is required. */
export interface UserData {
  id: string;
  user_info?: Record<string, unknown> | undefined;
  /** User ids whose online/offline state this user is told about. */
  watchlist?: string[] | undefined;
  [field: string]: unknown;
}

export interface ChannelAuthorization {
  /** `key:signature`. */
  auth: string;
  /** Presence channels: the JSON text that was signed; pusher-js sends it back as it is. */
  channel_data?: string;
  /** Encrypted channels: the channel's key, base64. */
  shared_secret?: string;
}

export interface UserAuthentication {
  auth: string;
  user_data: string;
}

export interface AuthCredentials {
  key: string;
  sign: HexSigner;
  /** Present when the server was given `encryptionMasterKeyBase64`. */
  masterKey: Uint8Array | undefined;
}

const SOCKET_ID = /^\d+\.\d+$/;

function socketIdIssue(socketId: unknown): ValidationIssue | undefined {
  if (typeof socketId === 'string' && SOCKET_ID.test(socketId)) return undefined;
  return {
    path: 'socketId',
    message: `must look like "123.456" (the socket_id pusher-js posts), got ${JSON.stringify(String(socketId)).slice(0, 40)}`,
  };
}

/** Throws when a socket id is not `digits.digits`; shared with `trigger({ socketId })`. */
export function checkSocketId(socketId: unknown, what: string): void {
  const issue = socketIdIssue(socketId);
  if (issue) throw new ValidationError(what, [issue]);
}

/**
 * `{ auth, channel_data?, shared_secret? }` for a private, presence or encrypted channel. The signed
 * string is `socket_id:channel[:channel_data]`, and `channel_data` is returned as the very text signed.
 */
export async function authorizeChannel(
  credentials: AuthCredentials,
  socketId: string,
  channel: string,
  presenceData?: PresenceData,
): Promise<ChannelAuthorization> {
  const issues: ValidationIssue[] = [];
  const socketIssue = socketIdIssue(socketId);
  if (socketIssue) issues.push(socketIssue);
  const nameProblem = channelNameProblem(channel);
  if (nameProblem) issues.push({ path: 'channel', message: nameProblem });
  const kind = nameProblem ? undefined : channelKind(channel);
  if (presenceData !== undefined) {
    if (kind !== undefined && kind !== 'presence') {
      issues.push({
        path: 'presenceData',
        message: `is only for presence- channels; ${channel} is ${kind}, and the service would reject the signature`,
      });
    }
    const userId = (presenceData as { user_id?: unknown } | null)?.user_id;
    if (!((typeof userId === 'string' && userId !== '') || typeof userId === 'number')) {
      issues.push({ path: 'presenceData.user_id', message: 'is required (a non-empty string)' });
    }
    const dataIssue = jsonDataIssue(presenceData, 'presenceData');
    if (dataIssue) issues.push(dataIssue);
  }
  if (kind === 'encrypted' && !credentials.masterKey) {
    issues.push({
      path: 'encryptionMasterKeyBase64',
      message: `is needed to authorize ${channel}: its shared_secret is derived from the master key`,
    });
  }
  if (issues.length > 0) throw new ValidationError('authorizeChannel input', issues);

  const result: ChannelAuthorization = { auth: '' };
  let signed = `${socketId}:${channel}`;
  if (presenceData !== undefined) {
    result.channel_data = JSON.stringify(presenceData);
    signed += `:${result.channel_data}`;
  }
  result.auth = `${credentials.key}:${await credentials.sign(signed)}`;
  if (kind === 'encrypted' && credentials.masterKey) {
    result.shared_secret = await sharedSecretBase64(channel, credentials.masterKey);
  }
  return result;
}

/** `{ auth, user_data }` for `pusher:signin`: the signed string is `socket_id::user::user_data`. */
export async function authenticateUser(
  credentials: AuthCredentials,
  socketId: string,
  user: UserData,
): Promise<UserAuthentication> {
  const issues: ValidationIssue[] = [];
  const socketIssue = socketIdIssue(socketId);
  if (socketIssue) issues.push(socketIssue);
  if (user === null || typeof user !== 'object') {
    issues.push({ path: 'user', message: 'must be an object with an id' });
  } else {
    if (typeof user.id !== 'string' || user.id === '')
      issues.push({ path: 'user.id', message: 'is required (a non-empty string)' });
    if (user.watchlist !== undefined && !Array.isArray(user.watchlist))
      issues.push({ path: 'user.watchlist', message: 'must be an array of user ids' });
    const dataIssue = jsonDataIssue(user, 'user');
    if (dataIssue) issues.push(dataIssue);
  }
  if (issues.length > 0) throw new ValidationError('authenticateUser input', issues);
  const userData = JSON.stringify(user);
  const signature = await credentials.sign(`${socketId}::user::${userData}`);
  return { auth: `${credentials.key}:${signature}`, user_data: userData };
}
