import type { ReconnectingSocket, SocketState, StateChange } from './reconnecting.js';

/**
 * Resolves once `socket` is `connected`; rejects with `reason(state)` as soon as it is `failed` or
 * `disconnected` instead (at once if it already is, or if `connect()` was never called), so a caller
 * awaiting a connection is never left hanging: close it, and the promise settles. Retries in between
 * (`unavailable`, `connecting`) keep it waiting. `reason` makes the caller's own typed error, e.g. from
 * `socket.failure` for `failed`.
 */
export function untilConnected(
  socket: ReconnectingSocket<any>,
  reason: (state: 'failed' | 'disconnected' | 'initialized') => unknown,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const settle = (state: SocketState): boolean => {
      if (state === 'connected') resolve();
      else if (state === 'failed' || state === 'disconnected') reject(reason(state));
      else return false;
      return true;
    };
    if (settle(socket.state)) return;
    // `connect()` moves to `connecting` at once: still `initialized`, nobody asked for a connection.
    if (socket.state === 'initialized') {
      reject(reason('initialized'));
      return;
    }
    const listener = ({ current }: StateChange) => {
      if (settle(current)) socket.events.unbind('state_change', listener);
    };
    socket.events.bind('state_change', listener);
  });
}
