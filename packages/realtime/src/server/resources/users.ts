import { type APIPromise, type RequestOptions, ValidationError } from '@x/core';
import type { RealtimeContext } from '../context.js';
import { type TerminateResult, terminateResult } from '../schemas/users.js';

/** `/users/{id}/...`: acting on an authenticated user's connections. */
export class Users {
  readonly #context: RealtimeContext;

  constructor(context: RealtimeContext) {
    this.#context = context;
  }

  /**
   * Closes every connection of a signed-in user with close code 4009: the client goes `failed` and does not
   * reconnect on its own; only the app's explicit `connect()` (after, say, signing the user in again) does.
   */
  terminateConnections(userId: string, options?: RequestOptions): APIPromise<TerminateResult> {
    return this.#context.client.request(() => {
      if (typeof userId !== 'string' || userId === '') {
        throw new ValidationError('users.terminateConnections input', [
          { path: 'userId', message: 'must be a non-empty string' },
        ]);
      }
      return {
        method: 'POST',
        path: `${this.#context.appPath}/users/${pathSegment(userId)}/terminate_connections`,
        body: {},
        schema: terminateResult,
        what: 'users.terminateConnections',
        // Terminating twice ends the same connections as terminating once, so a retry is safe.
        options: { retryNonIdempotent: true, ...options },
      };
    });
  }
}

/**
 * Only what would break the path is escaped; the rest is left to the URL (which encodes spaces and quotes
 * itself), so an id such as `ann@example.com` is sent and signed as pusher-http-node sends it.
 */
function pathSegment(id: string): string {
  return id.replace(/[/?#%\\]/g, (c) => encodeURIComponent(c));
}
