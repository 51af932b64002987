/**
 * Runtime smoke for Bun and Deno (.ci/runtimes.sh runs it with each): plain ESM with no runtime-specific
 * API, against a sandbox that runs under Node (.ci/smoke/sandbox.mjs; its JSON line in X_SMOKE).
 *
 *  1. every export of every public package, loaded by name from its built ESM (`dist`);
 *  2. the store, transcription and realtime quick starts (examples/quickstart.ts), condensed: the same
 *     calls, without starting a sandbox of their own. Realtime signs subscriptions with
 *     `@x/realtime/server` in this process (a `customHandler`), so both halves run on the runtime.
 *
 * It runs from a scratch directory whose node_modules/@x/* link to packages/*, so each import resolves by
 * name through the package's `exports` map as in an installed project. Exits 1 on the first failure.
 */
import { readFileSync } from 'node:fs';

const cfg = JSON.parse(process.env.X_SMOKE ?? '');
const runtime = globalThis.Bun
  ? `Bun ${globalThis.Bun.version}`
  : globalThis.Deno
    ? `Deno ${globalThis.Deno.version.deno}`
    : `Node ${process.version}`;
const step = (text) => console.log(`[${runtime}] ${text}`);
const expect = (ok, what) => {
  if (!ok) throw new Error(`expected ${what}`);
};

// 1. Every entry by name. `@x/sandbox` is a Node server, loaded for information only (its failure is printed).
const entries = [
  '@x/core',
  '@x/core/redis',
  '@x/store',
  '@x/transcription',
  '@x/realtime',
  '@x/realtime/server',
];
for (const id of [...entries, '@x/sandbox']) {
  try {
    const names = Object.keys(await import(id)).filter((k) => k !== 'default');
    step(`${id}: ESM loads, ${names.length} exports`);
  } catch (error) {
    if (id !== '@x/sandbox') throw new Error(`${id} does not load: ${error.message}`, { cause: error });
    step(
      `${id}: does not load here (a Node server, not needed by the clients): ${error.message.split('\n')[0]}`,
    );
  }
}

const { StoreClient, NotFoundError: StoreNotFound } = await import('@x/store');
const { TranscriptionClient, NotFoundError: TranscriptNotFound } = await import('@x/transcription');
const { RealtimeClient } = await import('@x/realtime');
const { RealtimeServer, ValidationError } = await import('@x/realtime/server');

// 2a. Store: list, paginate, create, order, 404, delete.
const store = new StoreClient({ url: cfg.url, ...cfg.store });
const firstPage = await store.products.list({ per_page: 5, orderby: 'title', order: 'asc' });
expect(firstPage.total > 0 && firstPage.data.length > 0, 'demo products');
step(`store: ${firstPage.total} products; first: ${firstPage.data.map((p) => p.name).join(', ')}`);
let revenue = 0;
let orders = 0;
for await (const order of store.orders.list({ status: ['processing', 'completed'], per_page: 100 })) {
  revenue += Number(order.total);
  orders++;
}
step(`store: revenue from ${orders} processing and completed orders: ${revenue.toFixed(2)}`);
const mug = await store.products.create({
  name: 'Example Mug',
  regular_price: '12.00',
  manage_stock: true,
  stock_quantity: 3,
});
const order = await store.orders.create({
  set_paid: true,
  line_items: [{ product_id: mug.id, quantity: 1 }],
});
expect(order.total === '12.00', `order total 12.00, got ${order.total}`);
step(`store: order ${order.number} is ${order.status}, total ${order.total} ${order.currency}`);
const missing = await store.products.get(999_999).catch((error) => error);
expect(missing instanceof StoreNotFound, `NotFoundError, got ${missing}`);
step(`store: as expected: ${missing.message}`);
await store.orders.delete(order.id, { force: true });
await store.products.delete(mug.id, { force: true });

// 2b. Transcription: upload (as bytes: a path is Node's streamed upload; bytes work everywhere), transcribe
// with sentiment and content safety, subtitles, word search, list, 404.
const client = new TranscriptionClient({ apiKey: cfg.transcription.apiKey, baseUrl: cfg.url });
const audio = new Uint8Array(readFileSync(cfg.audio));
const { upload_url } = await client.files.upload(audio);
step(`transcription: uploaded ${audio.byteLength} bytes`);
// By path, as the quick start does: streamed from the file by the `#transfer` side the runtime resolves.
let sent = 0;
const byPath = await client.files.upload(cfg.audio, { onProgress: (p) => (sent = p.loaded) });
expect(
  byPath.upload_url.startsWith(cfg.url) && sent === audio.byteLength,
  `the file streamed, ${sent} bytes sent`,
);
step(`transcription: uploaded ${cfg.audio} by path (${sent} bytes)`);
const statuses = new Set();
const call = await client.transcripts.transcribe(
  { audio_url: upload_url, speech_models: ['universal-3-5-pro', 'universal-2'], sentiment_analysis: true },
  { onStatus: (t) => statuses.add(t.status) },
);
expect(call.status === 'completed', `a completed transcript, got ${call.status}: ${call.error}`);
expect(/order/.test(call.text ?? ''), `"order" in the text, got "${call.text}"`);
step(`transcription: status ${[...statuses].join(' -> ')}; text: ${call.text}`);
const srt = await client.transcripts.subtitles(call.id, 'srt', { chars_per_caption: 40 });
expect(srt.startsWith('1\n'), 'an SRT');
const { matches } = await client.transcripts.wordSearch(call.id, ['order']);
step(
  `transcription: srt ${srt.split('\n').length} lines; word search "order": ${matches[0]?.count ?? 0} found`,
);
const recent = (await client.transcripts.list({ limit: 3 })).data;
expect(
  recent.some((t) => t.id === call.id),
  'the transcript in the list',
);
const gone = await client.transcripts.get('00000000-0000-4000-8000-000000000000').catch((error) => error);
expect(gone instanceof TranscriptNotFound, `NotFoundError, got ${gone}`);
step(`transcription: as expected: NotFoundError ${gone.message}`);

// 2c. Realtime: a private and a presence channel, a member joining, an event published by the server SDK.
const local = new URL(cfg.realtime.url);
const server = new RealtimeServer({
  appId: cfg.realtime.appId,
  key: cfg.realtime.key,
  secret: cfg.realtime.secret,
  host: local.hostname,
  port: Number(local.port),
  useTLS: false,
});
const makeClient = (user) =>
  new RealtimeClient(cfg.realtime.key, {
    wsHost: local.hostname,
    wsPort: Number(local.port),
    forceTLS: false,
    channelAuthorization: {
      customHandler: ({ socketId, channelName }) =>
        server.authorizeChannel(
          socketId,
          channelName,
          channelName.startsWith('presence-')
            ? { user_id: user, user_info: { name: user.toUpperCase() } }
            : undefined,
        ),
    },
  });
const ada = makeClient('ada');
const states = [];
ada.connection.bind('state_change', ({ current }) => states.push(current));
ada.connect();
const privateOrders = ada.subscribe('private-orders');
const lobby = ada.subscribe('presence-lobby');
await Promise.all([privateOrders.subscribed, lobby.subscribed]);
step(`realtime: connection ${states.join(' -> ')} (socket ${ada.connection.socketId})`);
const joined = new Promise((resolve) => lobby.onMemberAdded((m) => resolve(`${m.id} (${m.info.name})`)));
const bob = makeClient('bob');
bob.connect();
await bob.subscribe('presence-lobby').subscribed;
step(`realtime: member added: ${await joined}; ${lobby.members.count} members`);
const shipped = new Promise((resolve) => privateOrders.bind('order-shipped', resolve));
await server.trigger('private-orders', 'order-shipped', { id: 42 });
const event = await shipped;
expect(event.id === 42, `order-shipped {id: 42}, got ${JSON.stringify(event)}`);
step(`realtime: received order-shipped: ${JSON.stringify(event)}`);
const { users } = await server.channels.users('presence-lobby');
step(`realtime: presence-lobby users (HTTP API): ${users.map((u) => u.id).join(', ')}`);
const tooBig = await server.trigger('private-orders', 'too-big', 'x'.repeat(11_000)).catch((error) => error);
expect(tooBig instanceof ValidationError, `ValidationError, got ${tooBig}`);
ada.disconnect();
bob.disconnect();
step('all quick starts passed');
