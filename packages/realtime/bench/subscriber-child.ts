/**
 * One subscriber in a process of its own, for latency.bench.ts (and coalescing.bench.ts's check): `@x/realtime`'s `RealtimeClient` (its
 * default socket: `ws` on Node 20), `pusher-js` 8.6.0 (its Node build, WebSocket transport only), or a raw
 * `ws` socket speaking protocol 7 by hand (the floor: no library). BENCH_SUBSCRIBER names which. Every
 * event is named `bench` and carries `{ i, t }`: its index and the send time on the shared monotonic clock;
 * the receive time is taken first thing in the callback the library calls.
 *
 * Calls: `connect({ wsUrl, key })`, `subscribe({ channel })`, `record({ channel, expected })` (start
 * counting that channel's events afresh), `hold({ flag })` (block this process's event loop, sockets
 * unread, until the file `flag` exists: a backlog builds up in the kernel and the emulator), `collect({
 * channel, timeoutMs })` (wait for every expected event, then report), `close`.
 */
import { existsSync } from 'node:fs';
import PusherClient from 'pusher-js';
import WebSocket from 'ws';
import { RealtimeClient } from '../src/index.js';
import { AFTER_REPLY, nowMs, serve, waitUntil } from './shared.js';

export type SubscriberKind = 'x-realtime' | 'pusher-js' | 'ws';

export interface Collected {
  expected: number;
  received: number;
  duplicates: number;
  /** Events that arrived after one with a higher index (0: received in the order of `i`). */
  outOfOrder: number;
  /** Receive time minus send time of each distinct event received, in ms. */
  latencies: number[];
  /** Monotonic ms of the first and last event received. */
  first: number;
  last: number;
  /** Monotonic ms at which the last `hold` ended (NaN if none since `record`). */
  wokeAt: number;
}

interface Recorder {
  expected: number;
  seen: Uint8Array;
  received: number;
  duplicates: number;
  outOfOrder: number;
  highest: number;
  latencies: Float64Array;
  first: number;
  last: number;
}

interface Subscriber {
  connect(wsUrl: string, key: string): Promise<void>;
  subscribe(channel: string): Promise<void>;
  close(): void;
}

const kind = process.env.BENCH_SUBSCRIBER as SubscriberKind;
const recorders = new Map<string, Recorder>();
let wokeAt = Number.NaN;

function onEvent(recv: number, channel: string, data: { i: number; t: number }): void {
  const r = recorders.get(channel);
  if (!r) return;
  const { i } = data;
  if (r.seen[i]) {
    r.duplicates += 1;
    return;
  }
  r.seen[i] = 1;
  if (i < r.highest) r.outOfOrder += 1;
  else r.highest = i;
  r.latencies[i] = recv - data.t;
  if (r.received === 0) r.first = recv;
  r.last = recv;
  r.received += 1;
}

function xRealtime(): Subscriber {
  let client: RealtimeClient | undefined;
  return {
    connect(wsUrl, key) {
      const url = new URL(wsUrl);
      client = new RealtimeClient(key, { wsHost: url.hostname, wsPort: Number(url.port), forceTLS: false });
      const c = client;
      return new Promise((resolve) => {
        c.connection.bind('connected', () => resolve());
        c.connect();
      });
    },
    async subscribe(channel) {
      const ch = client!.subscribe(channel);
      ch.bind('bench', (data) => onEvent(nowMs(), channel, data as { i: number; t: number }));
      await ch.subscribed;
    },
    close: () => client?.disconnect(),
  };
}

function pusherJs(): Subscriber {
  let client: PusherClient | undefined;
  return {
    connect(wsUrl, key) {
      const url = new URL(wsUrl);
      client = new PusherClient(key, {
        cluster: 'sandbox',
        wsHost: url.hostname,
        wsPort: Number(url.port),
        forceTLS: false,
        enabledTransports: ['ws'],
      });
      const c = client;
      return new Promise((resolve) => {
        if (c.connection.state === 'connected') resolve();
        else c.connection.bind('connected', () => resolve());
      });
    },
    subscribe(channel) {
      const ch = client!.subscribe(channel);
      ch.bind('bench', (data: { i: number; t: number }) => onEvent(nowMs(), channel, data));
      return new Promise((resolve, reject) => {
        ch.bind('pusher:subscription_succeeded', () => resolve());
        ch.bind('pusher:subscription_error', (e: unknown) => reject(new Error(JSON.stringify(e))));
      });
    },
    close: () => client?.disconnect(),
  };
}

/** Protocol 7 by hand: what any client must at least do (two JSON.parse per event). */
function rawWs(): Subscriber {
  let ws: WebSocket | undefined;
  const waiting = new Map<string, () => void>();
  return {
    connect(wsUrl, key) {
      ws = new WebSocket(`${wsUrl}/app/${key}?protocol=7&client=bench&version=0`);
      const socket = ws;
      return new Promise((resolve, reject) => {
        socket.once('error', reject);
        socket.on('message', (raw) => {
          const recv = nowMs();
          const frame = JSON.parse(raw.toString()) as { event: string; channel?: string; data?: string };
          if (frame.event === 'bench') onEvent(recv, frame.channel!, JSON.parse(frame.data!));
          else if (frame.event === 'pusher:connection_established') resolve();
          else if (frame.event === 'pusher_internal:subscription_succeeded') waiting.get(frame.channel!)?.();
          else if (frame.event === 'pusher:ping') socket.send('{"event":"pusher:pong","data":{}}');
        });
      });
    },
    subscribe(channel) {
      return new Promise((resolve) => {
        waiting.set(channel, resolve);
        ws!.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel } }));
      });
    },
    close: () => ws?.close(),
  };
}

const subscriber = kind === 'x-realtime' ? xRealtime() : kind === 'pusher-js' ? pusherJs() : rawWs();
if (!['x-realtime', 'pusher-js', 'ws'].includes(kind)) throw new Error(`BENCH_SUBSCRIBER=${kind}?`);

serve(
  { kind, pid: process.pid },
  {
    connect: ({ wsUrl, key }: { wsUrl: string; key: string }) => subscriber.connect(wsUrl, key),
    subscribe: ({ channel }: { channel: string }) => subscriber.subscribe(channel),
    record: ({ channel, expected }: { channel: string; expected: number }) => {
      wokeAt = Number.NaN;
      recorders.set(channel, {
        expected,
        seen: new Uint8Array(expected),
        received: 0,
        duplicates: 0,
        outOfOrder: 0,
        highest: -1,
        latencies: new Float64Array(expected).fill(Number.NaN),
        first: Number.NaN,
        last: Number.NaN,
      });
    },
    hold: ({ flag }: { flag: string }) => ({
      value: true,
      [AFTER_REPLY]: () => {
        const cell = new Int32Array(new SharedArrayBuffer(4));
        while (!existsSync(flag)) Atomics.wait(cell, 0, 0, 2);
        wokeAt = nowMs();
      },
    }),
    collect: async ({ channel, timeoutMs }: { channel: string; timeoutMs: number }): Promise<Collected> => {
      const r = recorders.get(channel);
      if (!r) throw new Error(`not recording ${channel}`);
      await waitUntil(() => r.received >= r.expected, timeoutMs);
      const latencies: number[] = [];
      for (const l of r.latencies) if (!Number.isNaN(l)) latencies.push(l);
      recorders.delete(channel);
      return {
        expected: r.expected,
        received: r.received,
        duplicates: r.duplicates,
        outOfOrder: r.outOfOrder,
        latencies,
        first: r.first,
        last: r.last,
        wokeAt,
      };
    },
    close: () => subscriber.close(),
  },
);
