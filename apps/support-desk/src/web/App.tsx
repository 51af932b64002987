import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import type { DeskConfig } from '../shared/api.js';
import { api } from './api.js';
import { CallDetailView } from './components/CallDetailView.js';
import { CallIntake } from './components/CallIntake.js';
import { CallsList } from './components/CallsList.js';
import { CustomersPanel } from './components/CustomersPanel.js';
import { ErrorBanner } from './components/ErrorBanner.js';
import { Header } from './components/Header.js';
import { LiveCallControl } from './components/LiveCallControl.js';
import { OrdersPanel } from './components/OrdersPanel.js';
import { DeskRealtime } from './realtime.js';
import { initialState, reducer } from './state.js';

export function App() {
  const [state, dispatch] = useReducer(reducer, initialState);
  const [config, setConfig] = useState<DeskConfig | null>(null);
  const fail = useCallback((error: unknown) => {
    dispatch({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }, []);

  const load = useCallback(() => {
    api.orders().then((orders) => dispatch({ type: 'orders', orders }), fail);
    api.customers().then((customers) => dispatch({ type: 'customers', customers }), fail);
    api.calls().then((calls) => dispatch({ type: 'calls', calls }), fail);
  }, [fail]);

  useEffect(() => {
    api.config().then(setConfig, fail);
    load();
  }, [fail, load]);
  const socketIdRef = useRef<string | null>(null);
  const socketId = useCallback(() => socketIdRef.current, []);

  const selected = state.calls.find((c) => c.id === state.selectedCallId) ?? null;

  return (
    <div className="desk" data-realtime={state.subscribed ? 'subscribed' : state.connection}>
      {config && <DeskRealtime config={config} dispatch={dispatch} resync={load} socketId={socketIdRef} />}
      <Header config={config} connection={state.connection} subscribed={state.subscribed} />
      <ErrorBanner errors={state.errors} onDismiss={(id) => dispatch({ type: 'dismiss', id })} />
      <main className="columns">
        <section className="column calls-column">
          <LiveCallControl
            config={config}
            status={state.capture.status}
            elsewhere={state.calls.some((c) => c.status === 'live' && c.id !== state.capture.callId)}
            dispatch={dispatch}
            socketId={socketId}
            onError={fail}
          />
          <CallIntake
            config={config}
            orders={state.orders}
            onError={fail}
            onStarted={(call) => dispatch({ type: 'started', call })}
          />
          <CallsList
            calls={state.calls}
            selectedId={state.selectedCallId}
            onSelect={(id) => dispatch({ type: 'select', id })}
          />
          {selected && (
            <CallDetailView
              call={selected}
              detail={state.details[selected.id] ?? null}
              live={state.live[selected.id] ?? null}
              onDetail={(detail) => dispatch({ type: 'detail', detail })}
              onError={fail}
            />
          )}
        </section>
        <section className="column store-column">
          <OrdersPanel
            orders={state.orders}
            fresh={state.fresh}
            onSeen={(id) => dispatch({ type: 'unfresh', id })}
          />
          <CustomersPanel customers={state.customers} />
        </section>
      </main>
    </div>
  );
}
