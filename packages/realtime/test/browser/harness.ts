/**
 * The Chromium tests' world: the sandbox's realtime emulator, and one node:http server on port 0 that
 * serves the test page (page.ts bundled by esbuild from src, React included) and the app's auth endpoints
 * (the server SDK's `authorizeChannel` and `authenticateUser`) on the page's own origin, as an app does.
 */
import { existsSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { type RealtimeBox, startRealtimeBox, wsTarget } from '../helpers/sandbox.js';

/** Debian's Chromium; playwright-core downloads no browser. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function launch(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
  // Root in a container has no user namespaces for Chromium's sandbox.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}

/** page.ts for the browser, in development mode: StrictMode double-mounts only there. */
export async function bundlePage(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./page.ts', import.meta.url))],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    define: { 'process.env.NODE_ENV': '"development"' },
    logLevel: 'silent',
    plugins: [
      {
        // The package's `#websocket` map points at dist; from src the browser side is this file.
        name: 'websocket-web',
        setup(b) {
          b.onResolve({ filter: /^#websocket$/ }, () => ({
            path: fileURLToPath(new URL('../../src/client/socket/websocket-web.ts', import.meta.url)),
          }));
        },
      },
    ],
  });
  return result.outputFiles[0]!.text;
}

export interface PageWorld {
  box: RealtimeBox;
  /** The form of every auth request, in order. */
  authRequests: Record<string, string>[];
  /** The page's URL for `user`. */
  url(user: string): string;
  close(): Promise<void>;
}

export async function startPageWorld(): Promise<PageWorld> {
  const [box, script] = await Promise.all([startRealtimeBox(), bundlePage()]);
  const server = box.server();
  const config = JSON.stringify({ key: box.rt.key, ...wsTarget(box.rt) });
  const html = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><div id="root"></div><script>window.__RT__=${config}</script><script type="module" src="/page.js"></script>`;
  const authRequests: Record<string, string>[] = [];
  const http: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', async () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (req.method === 'GET' && path === '/page.js') {
        res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
        return;
      }
      if (req.method === 'GET' && path === '/') {
        res.writeHead(200, { 'content-type': 'text/html' }).end(html);
        return;
      }
      if (req.method !== 'POST' || (path !== '/pusher/auth' && path !== '/pusher/user-auth')) {
        res.writeHead(404).end();
        return;
      }
      const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
      authRequests.push(form);
      const user = { id: form.user_id ?? 'anonymous', user_info: { name: form.name ?? 'anonymous' } };
      try {
        const body =
          path === '/pusher/user-auth'
            ? await server.authenticateUser(form.socket_id ?? '', user)
            : await server.authorizeChannel(
                form.socket_id ?? '',
                form.channel_name ?? '',
                form.channel_name?.startsWith('presence-')
                  ? { user_id: user.id, user_info: user.user_info }
                  : undefined,
              );
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      } catch (error) {
        res.writeHead(403).end(String(error));
      }
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  return {
    box,
    authRequests,
    url: (user) => `${base}/?user=${encodeURIComponent(user)}`,
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
      await box.close();
    },
  };
}
