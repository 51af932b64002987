/**
 * Watchlists when connections misbehave: a connection the server closes for not reading, at the very moment it
 * signs in, must not leave its user online (watchers would hear `online` for a user with no connection, for
 * good). Real sockets; the slow reader is a `ws` client whose TCP socket stops reading.
 */
import PusherServer from 'pusher';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, stillAlive, TestSocket, waitFor } from '../helpers/realtime.js';

const APP = { appId: '811', key: 'robust-key', secret: 'robust-secret', watchlistEvents: true };
const BIG = 8 * 1024 * 1024;

let box: Sandbox<false>;
let signer: PusherServer;

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    realtime: { apps: [APP], maxBufferedBytes: 64 * 1024, maxPayloadBytes: BIG, httpRateLimit: false },
  });
  signer = new PusherServer({ appId: APP.appId, key: APP.key, secret: APP.secret, host: '127.0.0.1' });
});

afterAll(async () => {
  await box?.close();
});

const connect = () => TestSocket.connect(box.realtime!.wsUrl, APP.key);

function signin(s: TestSocket, id: string, watchlist: string[] = []): void {
  const { auth, user_data } = signer.authenticateUser(s.socketId, { id, watchlist });
  s.send({ event: 'pusher:signin', data: { auth, user_data } });
}

/** Stops reading the socket: what the server sends piles up in its buffer once the kernel's is full. */
function stopReading(s: TestSocket): void {
  (s.ws as unknown as { _socket: { pause(): void } })._socket.pause();
}

describe('watchlist robustness', () => {
  it('a connection closed for not reading when its signin is answered leaves its user offline', async () => {
    const rt = box.realtime!;
    const creds = { url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret };
    const slow = await connect();
    await slow.subscribe('feed');
    stopReading(slow);
    // One event larger than the kernel's buffers: the server's own buffer then holds megabytes, far over the
    // cap, and the next frame it sends this socket (signin_success) closes it as a slow reader.
    const sent = await api(creds, 'POST', `/apps/${rt.appId}/events`, {
      body: { name: 'big', channel: 'feed', data: 'x'.repeat(BIG - 16) },
    });
    expect(sent.status).toBe(200);
    expect(rt.stats().sockets.slowClosed).toBe(0);
    signin(slow, 'ghost');
    await waitFor(() => rt.stats().sockets.slowClosed === 1);
    await waitFor(() => rt.connections() === 0);

    const watcher = await connect();
    signin(watcher, 'watcher', ['ghost']);
    const state = await watcher.next('pusher_internal:watchlist_events');
    expect(state.data.events).toEqual([{ name: 'offline', user_ids: ['ghost'] }]);
    await stillAlive(watcher);
    watcher.close();
    slow.close();
  });
});
