import { useCallback, useSyncExternalStore } from 'react';
import type { ConnectionState } from '../client/connection.js';
import { useRealtimeClient } from './context.js';

/** Before hydration the server and the first client render agree on this: nothing connects while rendering. */
const serverState = (): ConnectionState => 'initialized';

/** The connection's state (`connecting`, `connected`, `unavailable`, …), re-rendering on each change. */
export function useConnectionState(): ConnectionState {
  const { connection } = useRealtimeClient();
  const subscribe = useCallback(
    (changed: () => void) => {
      connection.bind('state_change', changed);
      return () => void connection.unbind('state_change', changed);
    },
    [connection],
  );
  return useSyncExternalStore(subscribe, () => connection.state as ConnectionState, serverState);
}

/** This tab's socket id while connected (an app server leaves it out of its pushes), else null. */
export function useSocketId(): string | null {
  const { connection } = useRealtimeClient();
  const subscribe = useCallback(
    (changed: () => void) => {
      connection.bind('state_change', changed);
      return () => void connection.unbind('state_change', changed);
    },
    [connection],
  );
  return useSyncExternalStore(subscribe, () => connection.socketId, nothing);
}

const nothing = (): null => null;
