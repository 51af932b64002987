/**
 * Every emulator has one shape (`Emulator`) and every handle one base (`EmulatorHandle`): `startSandbox` and
 * `hostEmulators` mount them through that shape alone. Over real sockets: one request per emulator and one
 * WebSocket upgrade per socket route, each answered by its own emulator; an awaited `reset()` of each handle
 * resets it; a fourth emulator that only satisfies the interface is mounted beside the three; a factory that
 * fails half-way closes what was built.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { type Emulator, type EmulatorHandle, type Sandbox, startSandbox } from '../../src/index.js';
import type { SocketRoute } from '../../src/kit/emulator.js';
import { createRealtimeEmulator } from '../../src/realtime/emulator.js';
import { type EmulatorFactory, hostEmulators } from '../../src/server/host.js';
import { createStoreEmulator } from '../../src/store/emulator.js';
import { createTranscriptionEmulator } from '../../src/transcription/emulator.js';
import { basic, storeApi } from '../helpers/http.js';
import { api, TestSocket } from '../helpers/realtime.js';
import { ScriptedRecognizers, StreamClient } from '../helpers/streaming.js';

const open: { close(): Promise<void> }[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

const transcriptionOptions = () => ({
  rateLimit: false as const,
  streaming: { recognizer: new ScriptedRecognizers([]).factory, newSessionsPerMinute: false as const },
});

/** A fourth emulator that knows nothing of the other three: it only satisfies the interface. */
function echoEmulator() {
  let homeUrl = '';
  let requests = 0;
  const calls = { resets: 0, closes: 0, faults: [] as string[] };
  const sockets: SocketRoute[] = [
    { path: '/echo/ws', handle: (ws, request) => ws.send(`echo socket ${request.url}`) },
  ];
  const handle: EmulatorHandle<string, { requests: number }> = {
    get url() {
      return homeUrl;
    },
    injectFault: (fault) => calls.faults.push(fault),
    stats: () => ({ requests }),
    resetStats: () => {
      requests = 0;
    },
    async reset() {
      calls.resets += 1;
      calls.faults.length = 0;
    },
  };
  const emulator: Emulator<typeof handle> = {
    name: 'echo',
    prefixes: ['/echo'],
    fetch: (request) => {
      requests += 1;
      return Response.json({ emulator: 'echo', path: new URL(request.url).pathname });
    },
    sockets,
    handle,
    setHomeUrl(url) {
      homeUrl = url;
    },
    async close() {
      calls.closes += 1;
    },
  };
  return { emulator, calls };
}

/** Opens a WebSocket and resolves with its first message, or rejects with the status it was refused with. */
function firstMessage(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    ws.once('message', (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.once('unexpected-response', (_req, res) => {
      reject(new Error(`refused with ${res.statusCode}`));
      res.resume();
    });
    ws.once('error', reject);
  });
}

describe('startSandbox with all three emulators', () => {
  it('mounts each by its shape: its request, its socket route, its awaited reset', async () => {
    const box: Sandbox = await startSandbox({
      transcription: transcriptionOptions(),
      realtime: true,
    });
    open.push(box);
    const store = box.store;
    const transcription = box.transcription!;
    const realtime = box.realtime!;
    const ws = box.url.replace(/^http/, 'ws');

    // One request each, answered in its own service's shape.
    expect((await storeApi(box, 'POST', '/products', { name: 'Mug' })).status).toBe(201);
    const list = await fetch(`${box.url}/v2/transcript`, {
      headers: { authorization: transcription.apiKey },
    });
    expect(list.status).toBe(200);
    expect(await list.json()).toMatchObject({ transcripts: [] });
    const channels = await api(realtime, 'GET', `/apps/${realtime.appId}/channels`);
    expect(channels.status).toBe(200);
    expect(channels.json).toEqual({ channels: {} });

    // One upgrade per socket route: /v3/ws (transcription) and /app/{key} (realtime).
    const stream = await StreamClient.open(`${ws}/v3/ws`, transcription.apiKey);
    expect(stream.of('Begin')).toHaveLength(1);
    const socket = await TestSocket.connect(ws, realtime.key);
    expect(realtime.connections()).toBe(1);

    // The same base on every handle.
    const handles: EmulatorHandle<never>[] = [store, transcription, realtime];
    for (const handle of handles) expect(handle.url).toBe(box.url);
    for (const handle of handles) await handle.reset();

    expect((await storeApi(box, 'GET', '/products')).json).toEqual([]);
    expect((await stream.closed).code).toBe(3005);
    expect((await socket.closed).code).toBe(4200);
    expect(realtime.connections()).toBe(0);
    expect(transcription.streaming.sessions()).toEqual([]);
  });
});

describe('the store handle’s reset()', () => {
  it('resolves once the data file holds the reset state (the snapshot covers every journal entry)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'x-sandbox-shape-'));
    const file = join(dir, 'store.json');
    const box = await startSandbox({ store: { rateLimit: false }, dataFile: file });
    try {
      expect((await storeApi(box, 'POST', '/products', { name: 'Mug' })).status).toBe(201);
      const before = JSON.parse(await readFile(file, 'utf8'));
      expect(before.journal).toBe(0);
      await box.store.reset();
      // No close(): what is on disk now is what a crash would leave.
      const after = JSON.parse(await readFile(file, 'utf8'));
      expect(after.products).toEqual([]);
      expect(after.journal).toBeGreaterThanOrEqual(1);
      const entries = (await readFile(`${file}.journal`, 'utf8')).split('\n').filter(Boolean);
      for (const line of entries) expect(JSON.parse(line).seq).toBeLessThanOrEqual(after.journal);
    } finally {
      await box.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('hostEmulators', () => {
  it('mounts a fourth emulator beside the three through the interface alone', async () => {
    const echo = echoEmulator();
    const factories: EmulatorFactory[] = [
      () => createStoreEmulator({ rateLimit: false }),
      () => createTranscriptionEmulator(transcriptionOptions()),
      () => createRealtimeEmulator(),
      () => echo.emulator,
    ];
    const hosted = await hostEmulators(factories, { port: 0, host: '127.0.0.1', https: false });
    open.push(hosted);
    expect(hosted.emulators.map((e) => e.name)).toEqual(['store', 'transcription', 'realtime', 'echo']);
    for (const e of hosted.emulators) expect(e.handle.url).toBe(hosted.url);
    const ws = hosted.url.replace(/^http/, 'ws');

    // Each prefix reaches its own emulator, the longest winning over the store's '/'.
    const [store, transcription, realtime] = hosted.emulators as [
      Awaited<ReturnType<typeof createStoreEmulator>>,
      Awaited<ReturnType<typeof createTranscriptionEmulator>>,
      ReturnType<typeof createRealtimeEmulator>,
    ];
    const wp = await fetch(`${hosted.url}/wp-json/wc/v3/products`, {
      headers: { Authorization: basic(store.handle.consumerKey, store.handle.consumerSecret) },
    });
    expect(wp.status).toBe(200);
    expect(wp.headers.get('x-wp-total')).toBe('0');
    const v2 = await fetch(`${hosted.url}/v2/transcript`, {
      headers: { authorization: transcription.handle.apiKey },
    });
    expect(v2.status).toBe(200);
    const apps = await api(realtime.handle, 'GET', `/apps/${realtime.handle.appId}/channels`);
    expect(apps.json).toEqual({ channels: {} });
    const mine = await fetch(`${hosted.url}/echo/anything`);
    expect(await mine.json()).toEqual({ emulator: 'echo', path: '/echo/anything' });
    expect(echo.emulator.handle.stats()).toEqual({ requests: 1 });

    // Every socket route an emulator declares upgrades to its own handler.
    const routes = hosted.emulators.flatMap((e) => (e.sockets ?? []).map((s) => s.path));
    expect(routes.sort()).toEqual(['/app/', '/echo/ws', '/v3/ws']);
    expect(await firstMessage(`${ws}/echo/ws?x=1`)).toBe('echo socket /echo/ws?x=1');
    const stream = await StreamClient.open(`${ws}/v3/ws`, transcription.handle.apiKey);
    expect(stream.of('Begin')).toHaveLength(1);
    const socket = await TestSocket.connect(ws, realtime.handle.key);

    for (const e of hosted.emulators) await e.handle.reset();
    expect(echo.calls.resets).toBe(1);
    expect((await stream.closed).code).toBe(3005);
    expect((await socket.closed).code).toBe(4200);

    await hosted.close();
    await hosted.close();
    expect(echo.calls.closes).toBe(1);
    await expect(fetch(`${hosted.url}/echo/x`)).rejects.toThrow();
  });

  it('closes what it built when a later factory fails, and passes the error on', async () => {
    const echo = echoEmulator();
    const failing: EmulatorFactory = () => {
      throw new RangeError('cannot build this one');
    };
    await expect(
      hostEmulators([() => echo.emulator, failing], { port: 0, host: '127.0.0.1', https: false }),
    ).rejects.toThrow('cannot build this one');
    expect(echo.calls.closes).toBe(1);
  });

  it('closes what it built when the server cannot listen', async () => {
    const echo = echoEmulator();
    const clash = echoEmulator();
    // Two emulators claiming one socket path: the server refuses to start.
    await expect(
      hostEmulators([() => echo.emulator, () => clash.emulator], {
        port: 0,
        host: '127.0.0.1',
        https: false,
      }),
    ).rejects.toThrow('/echo/ws is registered twice');
    expect(echo.calls.closes).toBe(1);
    expect(clash.calls.closes).toBe(1);
  });
});
