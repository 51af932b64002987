import { useCallback, useSyncExternalStore } from 'react';
import type { Connection, ConnectionState } from '../client/connection.js';
import { useRealtimeClient } from './context.js';

/** Before hydration the server and the first client render agree on this: nothing connects while rendering. */
const serverState = (): ConnectionState => 'initialized';
const nothing = (): null => null;

/** `useSyncExternalStore`'s subscribe for anything read off the connection: it changes with its state. */
function useStateChanges(connection: Connection): (changed: () => void) => () => void {
  return useCallback(
    (changed: () => void) => {
      connection.bind('state_change', changed);
      return () => void connection.unbind('state_change', changed);
    },
    [connection],
  );
}

/** The connection's state (`connecting`, `connected`, `unavailable`, …), re-rendering on each change. */
export function useConnectionState(): ConnectionState {
  const { connection } = useRealtimeClient();
  return useSyncExternalStore(
    useStateChanges(connection),
    () => connection.state as ConnectionState,
    serverState,
  );
}

/** This tab's socket id while connected (an app server leaves it out of its pushes), else null. */
export function useSocketId(): string | null {
  const { connection } = useRealtimeClient();
  return useSyncExternalStore(useStateChanges(connection), () => connection.socketId, nothing);
}
