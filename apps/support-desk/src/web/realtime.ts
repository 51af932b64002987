import {
  RealtimeProvider,
  useChannel,
  useConnectionState,
  useEvent,
  useResubscribed,
  useSocketId,
  useSubscribed,
} from '@x/realtime/react';
import { type Dispatch, createElement as h, type RefObject, useEffect } from 'react';
import {
  type CallView,
  type CustomerSummary,
  type DeskConfig,
  DeskEvents,
  type LiveTurnEvent,
  type OrderSummary,
} from '../shared/api.js';
import type { Action } from './state.js';

interface Props {
  config: DeskConfig;
  dispatch: Dispatch<Action>;
  /** Reloads the lists after a reconnect, since events sent while a tab was away are not replayed. */
  resync: () => void;
  /** Set to this tab's socket id while connected, which the app server leaves out of the pushes of its own live turns. */
  socketId: RefObject<string | null>;
}

/**
 * The desk's live updates: one socket for the tab (the provider owns it; the client is made once per key,
 * so the config arriving twice under StrictMode makes no second socket) and the desk's private channel,
 * authorised by the app server at `/api/realtime/auth`, whose events become state changes.
 */
export function DeskRealtime({ config, ...props }: Props) {
  const { key, ...endpoint } = config.realtime;
  const options = { ...endpoint, channelAuthorization: { endpoint: '/api/realtime/auth' } };
  return h(RealtimeProvider, { appKey: key, options }, h(DeskChannel, { name: config.channel, ...props }));
}

function DeskChannel({ name, dispatch, resync, socketId }: Omit<Props, 'config'> & { name: string }) {
  const state = useConnectionState();
  const id = useSocketId();
  const channel = useChannel(name);
  const subscribed = useSubscribed(channel);
  useEffect(() => {
    socketId.current = id;
  }, [socketId, id]);
  useEffect(() => dispatch({ type: 'connection', state }), [dispatch, state]);
  useEffect(() => dispatch({ type: 'subscribed', subscribed }), [dispatch, subscribed]);
  useEvent(channel, 'pusher:subscription_error', (error) =>
    dispatch({ type: 'error', message: `Live updates refused: ${error.error}` }),
  );
  useResubscribed(channel, resync);
  useEvent<OrderSummary>(channel, DeskEvents.orderUpserted, (order) => dispatch({ type: 'order', order }));
  useEvent<CustomerSummary>(channel, DeskEvents.customerUpserted, (customer) =>
    dispatch({ type: 'customer', customer }),
  );
  useEvent<CallView>(channel, DeskEvents.callStatus, (call) => dispatch({ type: 'call', call }));
  useEvent<CallView>(channel, DeskEvents.callAnalyzed, (call) => dispatch({ type: 'call', call }));
  useEvent<LiveTurnEvent>(channel, DeskEvents.liveTurn, ({ callId, ...turn }) =>
    dispatch({ type: 'liveTurn', callId, turn, local: false }),
  );
  return null;
}
