/**
 * The shared server, without any real emulator: HTTP routed by path prefix, WebSocket upgrades dispatched by
 * path, unknown upgrade paths refused with a clean HTTP 404. The emulators here are test-only stubs.
 */
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import type { Mountable } from '../../src/kit/emulator.js';
import { type RunningServer, startServer } from '../../src/server/server.js';

const open: RunningServer[] = [];
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
});

async function start(emulators: Mountable[], https = false): Promise<RunningServer> {
  const s = await startServer({ port: 0, host: '127.0.0.1', https, emulators });
  open.push(s);
  return s;
}

/** A stub that names itself in every answer, so a test sees which emulator got the request. */
function stub(name: string, prefixes: string[], sockets: Mountable['sockets'] = []): Mountable {
  return {
    name,
    prefixes,
    fetch: (req) => Response.json({ emulator: name, path: new URL(req.url).pathname }),
    sockets,
  };
}

const echo: Mountable['sockets'] = [
  { path: '/echo', handle: (ws) => ws.on('message', (data) => ws.send(`echo:${String(data)}`)) },
  { path: '/rooms/', handle: (ws, req) => ws.send(`joined ${req.url}`) },
];

function wsUrl(s: RunningServer, path: string): string {
  return `${s.url.replace(/^http/, 'ws')}${path}`;
}

/** Opens a WebSocket and resolves with its first message, or rejects with the HTTP status it was refused with. */
function firstMessage(url: string, send?: string, ca?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, ca ? { ca } : {});
    ws.on('open', () => {
      if (send !== undefined) ws.send(send);
    });
    ws.on('message', (data) => {
      resolve(String(data));
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => {
      reject(new Error(`refused with ${res.statusCode}`));
      res.resume();
    });
    ws.on('error', reject);
  });
}

/** A raw upgrade request; resolves with everything the server wrote before it closed the connection. */
function rawUpgrade(s: RunningServer, path: string, upgrade = 'websocket'): Promise<string> {
  const { port } = new URL(s.url);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port: Number(port) });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => reject(new Error('server did not close the connection')), 5_000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.on('error', reject);
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: ${upgrade}\r\n` +
        'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
  });
}

describe('HTTP routing by path prefix', () => {
  it('sends each request to the emulator with the longest matching prefix', async () => {
    const s = await start([stub('root', ['/']), stub('v2', ['/v2']), stub('apps', ['/apps/'])]);
    const who = async (path: string) => ((await (await fetch(`${s.url}${path}`)).json()) as any).emulator;
    expect(await who('/v2')).toBe('v2');
    expect(await who('/v2/transcript/abc')).toBe('v2');
    expect(await who('/v2x')).toBe('root');
    expect(await who('/apps/1/events')).toBe('apps');
    expect(await who('/wp-json/wc/v3')).toBe('root');
    expect(await who('/?rest_route=/wc/v3')).toBe('root');
  });

  it('answers 404 for a path no emulator claims when nothing is mounted at /', async () => {
    const s = await start([stub('v2', ['/v2'])]);
    const res = await fetch(`${s.url}/wp-json/wc/v3`);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: 'not found' });
    expect((await fetch(`${s.url}/v2/upload`)).status).toBe(200);
  });
});

describe('WebSocket upgrades', () => {
  it('accepts an upgrade to a registered path and hands the socket to its emulator', async () => {
    const s = await start([stub('root', ['/']), stub('socks', [], echo)]);
    expect(await firstMessage(wsUrl(s, '/echo'), 'hi')).toBe('echo:hi');
    expect(await firstMessage(wsUrl(s, '/rooms/42?x=1'))).toBe('joined /rooms/42?x=1');
  });

  it('refuses an unregistered path with HTTP 404 and closes the socket', async () => {
    const s = await start([stub('root', ['/']), stub('socks', [], echo)]);
    await expect(firstMessage(wsUrl(s, '/nope'))).rejects.toThrow('refused with 404');
    // A prefix registration does not cover the bare prefix or a sibling path.
    await expect(firstMessage(wsUrl(s, '/rooms/'))).rejects.toThrow('refused with 404');
    await expect(firstMessage(wsUrl(s, '/echo/more'))).rejects.toThrow('refused with 404');
    const raw = await rawUpgrade(s, '/nope');
    expect(raw).toMatch(/^HTTP\/1\.1 404 Not Found\r\n/);
    expect(raw).toContain('Connection: close');
    // The HTTP side is untouched by a refused upgrade.
    expect((await fetch(`${s.url}/wp-json`)).status).toBe(200);
  });

  it('refuses upgrades to anything but WebSocket with 400', async () => {
    const s = await start([stub('socks', [], echo)]);
    expect(await rawUpgrade(s, '/echo', 'h2c')).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('refuses every upgrade when no emulator registered a WebSocket path', async () => {
    const s = await start([stub('root', ['/'])]);
    expect(await rawUpgrade(s, '/echo')).toMatch(/^HTTP\/1\.1 404 /);
  });

  it('serves WebSockets over HTTPS with the same self-signed certificate', async () => {
    const s = await start([stub('socks', [], echo)], true);
    expect(s.url).toMatch(/^https:/);
    expect(await firstMessage(wsUrl(s, '/echo'), 'tls', s.certificate)).toBe('echo:tls');
  });

  it('close() drops open WebSockets', async () => {
    const s = await startServer({
      port: 0,
      host: '127.0.0.1',
      https: false,
      emulators: [stub('socks', [], [{ path: '/hold', handle: () => {} }])],
    });
    const ws = new WebSocket(wsUrl(s, '/hold'));
    await new Promise((resolve, reject) => {
      ws.on('open', resolve);
      ws.on('error', reject);
    });
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    await s.close();
    expect(await closed).toBe(1006);
  });

  it('rejects two emulators registering the same WebSocket path', async () => {
    await expect(
      startServer({
        port: 0,
        host: '127.0.0.1',
        https: false,
        emulators: [stub('a', [], echo), stub('b', [], echo)],
      }),
    ).rejects.toThrow('/echo is registered twice');
  });
});
