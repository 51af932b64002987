#!/usr/bin/env node
/**
 * Chromium smoke of the browser entries, on the bundles .ci/browser/bundle.mjs wrote (run it first).
 * Debian's Chromium through playwright-core (no browser download), a page served by a small node:http
 * server, and the sandbox (store, transcription, realtime) in this process:
 *
 *  1. realtime, browser bundle, in the page: connect to the sandbox's Pusher-compatible WebSocket,
 *     subscribe to a private channel (signed by this server's /pusher/auth, same origin), and receive an
 *     event that Node publishes through `@x/realtime/server`;
 *  2. realtime, worker bundles, the same inside a module Web Worker that signs its own subscription with
 *     `@x/realtime/server` (as an edge function would); every browser and worker bundle is loaded too;
 *  3. transcription, browser bundle: one request (`transcripts.list`) through a same-origin path that this
 *     server forwards to the sandbox, as an app's dev server or backend would, since the emulators send
 *     no CORS headers; the direct cross-origin request is made too and what happened is printed;
 *  4. store, browser bundle: the direct cross-origin request (`products.list`), asserted: the store emulator
 *     answers CORS as WordPress's rest_send_cors_headers() does, echoing the Origin.
 *
 *   node .ci/browser/smoke.mjs [bundle-dir]      CHROMIUM_PATH overrides /usr/bin/chromium
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startSandbox } from '@x/sandbox';
import { chromium } from 'playwright-core';

const root = fileURLToPath(new URL('../..', import.meta.url));
const bundles = resolve(process.argv[2] ?? `${root}/node_modules/.cache/x-sdk-bundles`);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium`);
if (!existsSync(`${bundles}/browser/realtime.js`))
  throw new Error(`no bundles in ${bundles}: run node .ci/browser/bundle.mjs first`);

// `@x/realtime/server` by name, as the realtime package itself resolves it (root does not depend on it).
const fromRealtime = createRequire(`${root}/packages/realtime/package.json`);
const { RealtimeServer } = await import(pathToFileURL(fromRealtime.resolve('@x/realtime/server')).href);

const sandbox = await startSandbox({ store: { seed: 'demo' }, transcription: true, realtime: true });
const rt = sandbox.realtime;
const ws = new URL(rt.url);
const server = new RealtimeServer({
  appId: rt.appId,
  key: rt.key,
  secret: rt.secret,
  host: ws.hostname,
  port: Number(ws.port),
  useTLS: false,
});

// What the page and the worker run: the same steps with the bundle for their target. The page asks this
// server's /pusher/auth, as a browser app does; the worker signs with the worker bundle of
// `@x/realtime/server` itself, standing in for an edge function (a real browser never holds the secret).
const realtimeSteps = `
export async function subscribe(bundle, key, host, port, channelName, channelAuthorization, onEvent) {
  const { RealtimeClient } = await import(bundle);
  const client = new RealtimeClient(key, { wsHost: host, wsPort: port, forceTLS: false, channelAuthorization });
  client.connect();
  const channel = client.subscribe(channelName);
  channel.bind('order-shipped', (data) => { onEvent(data); client.disconnect(); });
  await channel.subscribed;
  return client.connection.socketId;
}
/** Every bundle for a target loads, with its export count. */
export async function load(target, names) {
  const counts = {};
  for (const name of names) counts[name] = Object.keys(await import(\`/bundles/\${target}/\${name}.js\`)).length;
  return counts;
}`;
const worker = `
import { load, subscribe } from '/steps.js';
self.onmessage = async ({ data: { key, host, port, app } }) => {
  try {
    const loaded = await load('worker', ['core', 'store', 'transcription', 'realtime', 'realtime-server']);
    const { RealtimeServer } = await import('/bundles/worker/realtime-server.js');
    const server = new RealtimeServer(app);
    const auth = { customHandler: ({ socketId, channelName }) => server.authorizeChannel(socketId, channelName) };
    const socketId = await subscribe('/bundles/worker/realtime.js', key, host, port, 'private-worker', auth,
      (event) => self.postMessage({ event }));
    self.postMessage({ socketId, loaded });
  } catch (error) { self.postMessage({ error: String(error) }); }
};`;

const files = {
  '/': ['text/html', '<!doctype html><title>x-sdk browser smoke</title>'],
  '/steps.js': ['text/javascript', realtimeSteps],
  '/worker.js': ['text/javascript', worker],
};

const http = createServer(async (req, res) => {
  const body = [];
  for await (const chunk of req) body.push(chunk);
  const url = new URL(req.url, 'http://localhost');
  try {
    if (files[url.pathname]) {
      const [type, text] = files[url.pathname];
      res.writeHead(200, { 'content-type': type }).end(text);
    } else if (url.pathname.startsWith('/bundles/') && /^[\w/-]+\.js$/.test(url.pathname)) {
      const file = await readFile(`${bundles}/${url.pathname.slice('/bundles/'.length)}`);
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
    } else if (url.pathname === '/pusher/auth' && req.method === 'POST') {
      const form = new URLSearchParams(Buffer.concat(body).toString('utf8'));
      const signed = await server.authorizeChannel(
        form.get('socket_id') ?? '',
        form.get('channel_name') ?? '',
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(signed));
    } else if (url.pathname.startsWith('/v2/')) {
      // The same-origin path a browser app would use: forwarded to the transcription emulator as is.
      const headers = { ...req.headers };
      delete headers.host;
      delete headers.origin;
      const upstream = await fetch(`${sandbox.url}${url.pathname}${url.search}`, {
        method: req.method,
        headers,
        body: body.length ? Buffer.concat(body) : undefined,
      });
      const out = {};
      for (const [k, v] of upstream.headers)
        if (k !== 'content-encoding' && k !== 'content-length') out[k] = v;
      res.writeHead(upstream.status, out).end(Buffer.from(await upstream.arrayBuffer()));
    } else {
      res.writeHead(404).end();
    }
  } catch (error) {
    res.writeHead(500).end(String(error));
  }
});
await new Promise((done) => http.listen(0, '127.0.0.1', done));
const origin = `http://127.0.0.1:${http.address().port}`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  headless: true,
  // Root in a container has no user namespaces for Chromium's sandbox.
  args: ['--no-sandbox', '--disable-dev-shm-usage'],
});
const problems = [];
const check = (ok, message) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
  if (!ok) problems.push(message);
};
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => console.log(`page error: ${error.message}`));
  await page.goto(origin);
  const cfg = { key: rt.key, host: ws.hostname, port: Number(ws.port) };

  // 1 and 2: subscribe in the page and in a worker, then publish from Node.
  const app = {
    appId: rt.appId,
    key: rt.key,
    secret: rt.secret,
    host: ws.hostname,
    port: Number(ws.port),
    useTLS: false,
  };
  const connected = await page.evaluate(
    async ({ key, host, port, app }) => {
      const { load, subscribe } = await import('/steps.js');
      const loaded = await load('browser', ['core', 'store', 'transcription', 'realtime']);
      window.received = { page: null, worker: null };
      const inPage = subscribe(
        '/bundles/browser/realtime.js',
        key,
        host,
        port,
        'private-page',
        { endpoint: '/pusher/auth' },
        (event) => {
          window.received.page = event;
        },
      );
      const w = new Worker('/worker.js', { type: 'module' });
      const inWorker = new Promise((resolve, reject) => {
        w.onerror = (e) => reject(new Error(`worker: ${e.message}`));
        w.onmessage = ({ data }) => {
          if (data.error) reject(new Error(data.error));
          else if (data.socketId) resolve(data);
          else if (data.event) window.received.worker = data.event;
        };
      });
      w.postMessage({ key, host, port, app });
      const [pageSocket, fromWorker] = await Promise.all([inPage, inWorker]);
      return { loaded, pageSocket, workerSocket: fromWorker.socketId, workerLoaded: fromWorker.loaded };
    },
    { ...cfg, app },
  );
  const counts = (loaded) =>
    Object.entries(loaded)
      .map(([name, n]) => `${name} ${n}`)
      .join(', ');
  check(
    Object.values(connected.loaded).every((n) => n > 0),
    `browser bundles load in the page (exports: ${counts(connected.loaded)})`,
  );
  check(
    Object.values(connected.workerLoaded).every((n) => n > 0),
    `worker bundles load in a module Web Worker (exports: ${counts(connected.workerLoaded)})`,
  );
  const socketIds = [connected.pageSocket, connected.workerSocket];
  check(
    socketIds.every((id) => /^\d+\.\d+$/.test(id)),
    `realtime: page and worker connected (${socketIds})`,
  );
  await server.trigger(['private-page', 'private-worker'], 'order-shipped', { id: 42 });
  const received = await page
    .waitForFunction(() => window.received.page && window.received.worker && window.received, null, {
      timeout: 10_000,
    })
    .then((h) => h.jsonValue())
    .catch(() => page.evaluate(() => window.received));
  check(
    received.page?.id === 42,
    `realtime (browser bundle, page): received ${JSON.stringify(received.page)}`,
  );
  check(
    received.worker?.id === 42,
    `realtime (worker bundle, Web Worker): received ${JSON.stringify(received.worker)}`,
  );

  // 3 and 4: one request each; a browser reports a CORS refusal as a failed fetch (ConnectionError).
  const requests = await page.evaluate(
    async ({ origin, sandboxUrl, apiKey, store }) => {
      const { TranscriptionClient } = await import('/bundles/browser/transcription.js');
      const { StoreClient } = await import('/bundles/browser/store.js');
      const outcome = (p) =>
        p.then(
          (v) => ({ ok: true, value: v }),
          (e) => ({ ok: false, error: `${e.name}: ${e.message}`.slice(0, 200) }),
        );
      const opts = { apiKey, maxRetries: 0 };
      const proxied = await outcome(
        new TranscriptionClient({ ...opts, baseUrl: origin }).transcripts
          .list({ limit: 1 })
          .then((p) => p.data.length),
      );
      const direct = await outcome(
        new TranscriptionClient({ ...opts, baseUrl: sandboxUrl }).transcripts
          .list({ limit: 1 })
          .then(() => 'ok'),
      );
      const storeDirect = await outcome(
        new StoreClient({ ...store, url: sandboxUrl, maxRetries: 0 }).products
          .list({ per_page: 1 })
          .then((p) => `${p.total} products`),
      );
      return { proxied, direct, storeDirect };
    },
    {
      origin,
      sandboxUrl: sandbox.url,
      apiKey: sandbox.transcription.apiKey,
      store: { consumerKey: sandbox.store.consumerKey, consumerSecret: sandbox.store.consumerSecret },
    },
  );
  check(
    requests.proxied.ok,
    `transcription (browser bundle) via same-origin path: ${requests.proxied.ok ? `transcripts.list answered (${requests.proxied.value} items)` : requests.proxied.error}`,
  );
  const seen = (r) => (r.ok ? `answered (${r.value})` : `refused: ${r.error}`);
  check(
    requests.storeDirect.ok,
    `store (browser bundle) cross-origin to the sandbox: ${seen(requests.storeDirect)}`,
  );
  // Printed, not asserted: AssemblyAI's API is not meant for browsers, and its emulator sends no CORS headers.
  console.log(`info transcription, cross-origin to the sandbox: ${seen(requests.direct)}`);
} finally {
  await browser.close();
  await new Promise((done) => http.close(done));
  await sandbox.close();
}
if (problems.length) {
  console.error(`${problems.length} browser check(s) failed`);
  process.exit(1);
}
