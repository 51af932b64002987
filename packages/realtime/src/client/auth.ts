/**
 * Channel authorization and user authentication: a form POST to the app's endpoint (pusher-js's wire
 * format, so existing Laravel, Rails and Node endpoints work unchanged) or the app's own async handler.
 */

import { describe } from './errors.js';

/** What the endpoint returns for a channel: `channel_data` for presence, `shared_secret` for encrypted. */
export interface ChannelAuthData {
  auth: string;
  channel_data?: string;
  shared_secret?: string;
}

/** What the endpoint returns for `signin()`: `user_data` is a JSON string holding at least `id`. */
export interface UserAuthData {
  auth: string;
  user_data: string;
}

export type Headers = Record<string, string>;

/** POST `application/x-www-form-urlencoded` to `endpoint`; `headers` and `params` may be functions, read per request. */
export interface EndpointAuth {
  endpoint: string;
  headers?: Headers | (() => Headers);
  params?: Record<string, string> | (() => Record<string, string>);
}

export type ChannelAuthorization =
  | EndpointAuth
  | { customHandler(request: { socketId: string; channelName: string }): Promise<ChannelAuthData> };

export type UserAuthentication =
  | EndpointAuth
  | { customHandler(request: { socketId: string }): Promise<UserAuthData> };

/** `pusher:subscription_error` / `pusher:signin_error` data, in pusher-js's shape. `status` is the HTTP status, when there was one. */
export interface AuthErrorData {
  type: 'AuthError';
  error: string;
  status?: number;
}

/** A failed authorization, carried as the rejection of the auth call and turned into `AuthErrorData`. */
export class AuthFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }

  toData(): AuthErrorData {
    return this.status === undefined
      ? { type: 'AuthError', error: this.message }
      : { type: 'AuthError', error: this.message, status: this.status };
  }
}

/**
 * Outside a browser page `fetch` has no base URL, so a relative endpoint would fail late with "Failed to
 * parse URL". Returns why `endpoint` cannot work here, or undefined when it can.
 */
export const relativeEndpoint = (endpoint: unknown): string | undefined =>
  /^[a-z][\w+.-]*:/i.test(String(endpoint)) || (globalThis as { location?: unknown }).location
    ? undefined
    : `${endpoint} is relative: outside a browser use an absolute URL or a customHandler`;

/** A hung endpoint must not hold a subscription forever. */
const AUTH_TIMEOUT_MS = 10_000;

export async function authorizeChannel(
  options: ChannelAuthorization,
  socketId: string,
  channelName: string,
): Promise<ChannelAuthData> {
  if ('customHandler' in options) {
    return check(await callHandler(() => options.customHandler({ socketId, channelName })), false);
  }
  return check(await post(options, { socket_id: socketId, channel_name: channelName }), false);
}

export async function authenticateUser(options: UserAuthentication, socketId: string): Promise<UserAuthData> {
  if ('customHandler' in options) {
    return check(await callHandler(() => options.customHandler({ socketId })), true) as UserAuthData;
  }
  return check(await post(options, { socket_id: socketId }), true) as UserAuthData;
}

async function callHandler<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AuthFailure) throw error;
    throw new AuthFailure(`the auth handler threw: ${describe(error)}`);
  }
}

async function post(options: EndpointAuth, fields: Record<string, string>): Promise<unknown> {
  const params = typeof options.params === 'function' ? options.params() : options.params;
  const headers = typeof options.headers === 'function' ? options.headers() : options.headers;
  const body = new URLSearchParams({ ...params, ...fields });
  const relative = relativeEndpoint(options.endpoint);
  if (relative) throw new AuthFailure(`endpoint ${relative}`);
  let response: Response;
  try {
    response = await fetch(options.endpoint, {
      method: 'POST',
      headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: body.toString(),
      signal: typeof AbortSignal.timeout === 'function' ? AbortSignal.timeout(AUTH_TIMEOUT_MS) : null,
    });
  } catch (error) {
    throw new AuthFailure(`could not reach ${options.endpoint}: ${describe(error)}`);
  }
  const text = await response.text().catch(() => '');
  // Only 200 with JSON counts, as in pusher-js: a 204 or a redirect to a login page is not an authorization.
  if (response.status !== 200) {
    throw new AuthFailure(
      `${options.endpoint} answered ${response.status}: ${text.slice(0, 200)}`,
      response.status,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new AuthFailure(`${options.endpoint} did not return JSON: ${text.slice(0, 200)}`, 200);
  }
}

function check(value: unknown, user: boolean): ChannelAuthData {
  const data = value as Partial<ChannelAuthData & UserAuthData> | null;
  if (typeof data?.auth !== 'string') throw new AuthFailure('no "auth" string', 200);
  if (user && typeof data.user_data !== 'string') {
    throw new AuthFailure('no "user_data" string', 200);
  }
  return data as ChannelAuthData;
}
