import { RealtimeClient } from '@x/realtime';
import { type Dispatch, useCallback, useEffect, useRef } from 'react';
import {
  type CallView,
  type CustomerSummary,
  type DeskConfig,
  DeskEvents,
  type LiveTurnEvent,
  type OrderSummary,
} from '../shared/api.js';
import type { Action } from './state.js';

/**
 * Subscribes to the desk's private channel (authorised by the app server at `/api/realtime/auth`) and
 * turns its events into state changes. `resync` reloads the lists after a reconnect, since events sent
 * while a tab was away are not replayed. Returns this tab's socket id while connected, which the app
 * server leaves out of the pushes of this tab's own live turns.
 */
export function useDeskRealtime(
  config: DeskConfig | null,
  dispatch: Dispatch<Action>,
  resync: () => void,
): () => string | null {
  const clientRef = useRef<RealtimeClient | null>(null);
  useEffect(() => {
    if (!config) return;
    const { key, ...endpoint } = config.realtime;
    const client = new RealtimeClient(key, {
      ...endpoint,
      channelAuthorization: { endpoint: '/api/realtime/auth' },
    });
    client.connection.bind('state_change', ({ current }: { current: string }) => {
      dispatch({ type: 'connection', state: current });
      if (current !== 'connected') dispatch({ type: 'subscribed', subscribed: false });
    });
    const channel = client.subscribe(config.channel);
    channel.bind('pusher:subscription_succeeded', () => dispatch({ type: 'subscribed', subscribed: true }));
    channel.bind('pusher:subscription_error', (error) =>
      dispatch({ type: 'error', message: `Live updates refused: ${error.error}` }),
    );
    channel.bind('pusher:resubscribed', () => {
      dispatch({ type: 'subscribed', subscribed: true });
      resync();
    });
    channel.bind<OrderSummary>(DeskEvents.orderUpserted, (order) => dispatch({ type: 'order', order }));
    channel.bind<CustomerSummary>(DeskEvents.customerUpserted, (customer) =>
      dispatch({ type: 'customer', customer }),
    );
    channel.bind<CallView>(DeskEvents.callStatus, (call) => dispatch({ type: 'call', call }));
    channel.bind<CallView>(DeskEvents.callAnalyzed, (call) => dispatch({ type: 'call', call }));
    channel.bind<LiveTurnEvent>(DeskEvents.liveTurn, ({ callId, ...turn }) =>
      dispatch({ type: 'liveTurn', callId, turn, local: false }),
    );
    client.connect();
    clientRef.current = client;
    return () => {
      clientRef.current = null;
      client.disconnect();
    };
  }, [config, dispatch, resync]);
  return useCallback(() => clientRef.current?.connection.socketId ?? null, []);
}
