/**
 * Browser network hints, the default WebSocket choice, and the client-event buffer's edges, with a
 * hand-driven clock and minimal fake sockets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../src/client/clock.js';
import { defaultWebSocketFactory, type SocketLike } from '../../src/client/socket/websocket.js';
import { RealtimeClient } from '../../src/index.js';

class Socket implements SocketLike {
  readyState = 1;
  sent: { event: string }[] = [];
  onopen = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onclose: ((event: { code: number; reason: string }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(JSON.parse(data));
  }
  close(): void {}
  frame(event: string, data: unknown, channel?: string): void {
    this.onmessage?.({ data: JSON.stringify({ event, channel, data: JSON.stringify(data) }) });
  }
}

const clock: Clock & { timers: (() => void)[] } = {
  timers: [],
  now: () => 0,
  setTimeout(callback) {
    this.timers.push(callback);
    return callback;
  },
  clearTimeout(handle) {
    this.timers = this.timers.filter((t) => t !== handle);
  },
};

const flush = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

function setup() {
  const sockets: Socket[] = [];
  const client = new RealtimeClient('k', {
    wsHost: 'h',
    clock,
    channelAuthorization: { customHandler: async () => ({ auth: 'k:sig' }) },
    webSocketFactory: (url) => {
      sockets.push(new Socket(url));
      return sockets.at(-1) as Socket;
    },
  });
  return { client, sockets, last: () => sockets.at(-1) as Socket };
}

const globals = globalThis as { window?: unknown; WebSocket?: unknown };
afterEach(() => {
  delete globals.window;
  delete globals.WebSocket;
  clock.timers = [];
});

describe('online / offline', () => {
  it('offline drops the socket and goes unavailable; online reconnects at once', async () => {
    const listeners = new Map<string, () => void>();
    globals.window = {
      addEventListener: (type: string, fn: () => void) => listeners.set(type, fn),
      removeEventListener: (type: string) => listeners.delete(type),
    };
    const t = setup();
    t.client.connect();
    await flush();
    t.last().frame('pusher:connection_established', { socket_id: '1.1', activity_timeout: 120 });
    listeners.get('offline')?.();
    expect(t.client.connection.state).toBe('unavailable');
    expect(t.client.connection.socketId).toBeNull();
    listeners.get('online')?.();
    expect(t.client.connection.state).toBe('connecting');
    await flush();
    expect(t.sockets).toHaveLength(2);
    t.client.disconnect();
    expect(listeners.size).toBe(0);
  });

  it('needs no window (Node, SSR, workers)', async () => {
    const t = setup();
    t.client.connect();
    await flush();
    expect(t.client.connection.state).toBe('connecting');
  });
});

describe('default WebSocket', () => {
  it('prefers the global WebSocket', async () => {
    const made: string[] = [];
    globals.WebSocket = class {
      constructor(url: string) {
        made.push(url);
      }
    };
    const factory = await defaultWebSocketFactory();
    factory('ws://example/app/k');
    expect(made).toEqual(['ws://example/app/k']);
  });
});

describe('client-event buffer', () => {
  it('keeps pacing after the app unbinds everything, and is dropped by disconnect()', async () => {
    const t = setup();
    const channel = t.client.subscribe('private-a');
    channel.unbind();
    expect(channel.trigger('client-early', {})).toBe(true);
    t.client.connect();
    await flush();
    t.last().frame('pusher:connection_established', { socket_id: '1.1', activity_timeout: 120 });
    await flush();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-a');
    expect(t.last().sent.map((f) => f.event)).toEqual(['pusher:subscribe', 'client-early']);
    t.last().onclose?.({ code: 1006, reason: '' });
    expect(channel.trigger('client-late', {})).toBe(true);
    t.client.disconnect();
    t.client.connect();
    await flush();
    t.last().frame('pusher:connection_established', { socket_id: '2.2', activity_timeout: 120 });
    await flush();
    t.last().frame('pusher_internal:subscription_succeeded', {}, 'private-a');
    expect(t.last().sent.map((f) => f.event)).toEqual(['pusher:subscribe']);
  });

  it('refuses bad names and oversized data before queueing', () => {
    const channel = setup().client.subscribe('private-a');
    expect(() => channel.trigger('typing' as `client-${string}`, {})).toThrow(/client events must start/);
    expect(() => channel.trigger('client-big', 'x'.repeat(11_000))).toThrow(/10240/);
    expect(() => setup().client.subscribe('bad name!')).toThrow(/Invalid channel name/);
  });
});
