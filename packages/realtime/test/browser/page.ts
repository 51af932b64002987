/**
 * The page the Chromium tests load (bundled by esbuild in development mode, so StrictMode double-mounts
 * every effect): one provider, and components over each hook that write what they see into data
 * attributes for the test to wait on. `?user=` names the user the auth endpoints sign.
 */
import { createElement as h, StrictMode, useState } from 'react';
import { createRoot } from 'react-dom/client';
import {
  RealtimeProvider,
  useChannel,
  useConnectionState,
  useEvent,
  usePresence,
  useResubscribed,
  useSubscribed,
  useUser,
} from '../../src/react.js';

declare global {
  interface Window {
    __RT__: { key: string; wsHost: string; wsPort: number };
    /** Every `gapMs` the resubscribed hook was called with. */
    gaps: number[];
    /** Renders the provider again with a new options object. */
    renderAgain(): void;
    /** Mounts this many `Late` components, all on `private-late`. */
    setLate(count: number): void;
  }
}

const user = new URLSearchParams(location.search).get('user') ?? 'u-1';
const auth = { params: { user_id: user, name: `user ${user}` } };
window.gaps = [];

function Status() {
  const state = useConnectionState();
  return h('p', { id: 'state', 'data-state': state }, state);
}

function Room() {
  const channel = useChannel('private-room');
  const subscribed = useSubscribed(channel);
  const [messages, setMessages] = useState<string[]>([]);
  useEvent<{ text: string }>(channel, 'message', ({ text }) => setMessages((all) => [...all, text]));
  useResubscribed(channel, ({ gapMs }) => window.gaps.push(gapMs));
  return h(
    'ul',
    { id: 'room', 'data-subscribed': String(subscribed), 'data-messages': messages.join('|') },
    messages.map((text, i) => h('li', { key: i }, text)),
  );
}

function Lobby() {
  const { members, me } = usePresence(useChannel('presence-lobby'));
  const ids = members.map((member) => member.id).sort();
  return h('p', { id: 'lobby', 'data-members': ids.join(','), 'data-me': me?.id ?? '' }, ids.join(', '));
}

function Me() {
  const { state, data } = useUser({ signin: true });
  return h('p', { id: 'user', 'data-signin': state, 'data-id': data?.id ?? '' }, state);
}

/** Mounted after the connection is up, where StrictMode's double mount would subscribe twice. */
function Late({ n }: { n: number }) {
  const subscribed = useSubscribed(useChannel('private-late'));
  return h('p', { className: 'late', 'data-n': n, 'data-subscribed': String(subscribed) });
}

function Lates() {
  const [count, setCount] = useState(0);
  window.setLate = setCount;
  return h(
    'div',
    { id: 'lates', 'data-count': count },
    Array.from({ length: count }, (_, n) => h(Late, { key: n, n })),
  );
}

const { key, wsHost, wsPort } = window.__RT__;

/**
 * The app as the support desk had it: its options come from a fetched config that StrictMode fetched twice,
 * so the provider renders again with a new options object (`window.renderAgain()`), which must not make a
 * second client or socket.
 */
function App() {
  const [renders, setRenders] = useState(0);
  window.renderAgain = () => setRenders((n) => n + 1);
  return h(
    RealtimeProvider,
    {
      appKey: key,
      options: {
        wsHost,
        wsPort,
        forceTLS: false,
        reconnect: { baseDelayMs: 50, maxDelayMs: 200 },
        channelAuthorization: { endpoint: '/pusher/auth', ...auth },
        userAuthentication: { endpoint: '/pusher/user-auth', ...auth },
      },
    },
    h('p', { id: 'renders', 'data-renders': renders }),
    h(Status),
    h(Room),
    h(Lobby),
    h(Me),
    h(Lates),
  );
}

createRoot(document.getElementById('root')!).render(h(StrictMode, null, h(App)));
