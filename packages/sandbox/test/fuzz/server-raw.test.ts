/**
 * Fuzzing the shared server with all three emulators mounted, over raw TCP: malformed request lines, random
 * methods, header floods, absurd and conflicting Content-Lengths, chunked garbage, Upgrade requests to random
 * paths, and percent-encoded paths routed to each emulator. Whatever comes back must be an HTTP answer (or a
 * closed connection, for bytes that are not HTTP), never a hang; no handler may crash; and afterwards the
 * process is up, every emulator answers, and a realtime session opened before the fuzzing is still alive.
 */
import net from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import {
  REALTIME_DEV_APP,
  type Sandbox,
  STORE_DEV_KEYS,
  startSandbox,
  TRANSCRIPTION_DEV_KEY,
} from '../../src/index.js';
import { api as realtimeApi, stillAlive, TestSocket } from '../helpers/realtime.js';
import { headerText, queryComponent } from './store-request-arbitraries.js';

let sandbox: Sandbox<true>;
let port: number;
let session: TestSocket;
const failures: string[] = [];
const write = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  sandbox = await startSandbox({
    port: 0,
    store: { seed: 'demo', rateLimit: false },
    transcription: true,
    realtime: true,
  });
  port = Number(new URL(sandbox.url).port);
  session = await TestSocket.connect(sandbox.url.replace(/^http/, 'ws'), REALTIME_DEV_APP.key);
  // Every emulator's last guard (and the store's own) reports a handler that threw with one stderr line; a
  // client hanging up mid-body is an expected outcome, answered quietly, so every report here is a bug.
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (/^x-sandbox: [\w-]+: .* failed \(/.test(text)) failures.push(text.trim());
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});
afterAll(async () => {
  process.stderr.write = write;
  session?.close();
  await sandbox?.close();
});

/**
 * Writes `bytes`, ends our side (so a request that promised more body sees EOF rather than waiting), and
 * collects the answer until the server closes. Rejects only when nothing settles: a hang.
 */
function exchange(bytes: Buffer, hangMs = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no close within ${hangMs} ms after ${bytes.toString('latin1').slice(0, 200)}`));
    }, hangMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (c: Buffer) => chunks.push(c));
    // A reset is how a server may refuse bytes that are not HTTP; the server staying up is checked after.
    socket.on('error', () => {});
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

const token = fc.stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,12}$/);

const method = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') },
  fc.constantFrom('CONNECT', 'TRACE', 'PRI', 'get', 'G ET', '', 'M-SEARCH', 'PROPFIND'),
  token,
);

/** A path into one of the emulators (or none), with segments percent-encoded well or badly. */
const target = fc
  .tuple(
    fc.constantFrom(
      '/wp-json/wc/v3/products',
      '/wp-json/wc/v3/orders/',
      '/?rest_route=/wc/v3/customers/',
      '/v2/transcript/',
      '/v2/upload',
      '/v2/',
      `/apps/${REALTIME_DEV_APP.appId}/channels/`,
      `/apps/${REALTIME_DEV_APP.appId}/events`,
      `/app/${REALTIME_DEV_APP.key}`,
      '/app/',
      '/',
      '',
      '*',
      'http://127.0.0.1/v2/transcript',
      '//v2',
      '/%2e%2e/v2',
    ),
    fc.array(queryComponent, { maxLength: 3 }),
    fc.option(fc.tuple(queryComponent, queryComponent), { nil: undefined }),
  )
  .map(([base, segments, query]) => `${base}${segments.join('/')}${query ? `?${query[0]}=${query[1]}` : ''}`);

const version = fc.oneof(
  { weight: 20, arbitrary: fc.constant('HTTP/1.1') },
  fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/0.9', 'HTTP/1.1 extra', 'HTTP/1.', 'http/1.1', ''),
);

/** Header values a parser takes: printable ASCII. */
const printable = fc.stringMatching(/^[\x20-\x7e]{0,24}$/);

/** A chunked body: sizes that lie, are not hex, or never end. */
const chunkedGarbage = fc
  .array(
    fc.tuple(
      fc.oneof(
        fc.nat(64).map((n) => n.toString(16)),
        fc.constantFrom('zz', '-1', 'ffffffffffffffff', '', '0;x=y'),
      ),
      fc.uint8Array({ maxLength: 32 }),
    ),
    { maxLength: 4 },
  )
  .map((chunks) =>
    Buffer.concat(
      chunks.map(([size, data]) => Buffer.concat([Buffer.from(`${size}\r\n`), data, Buffer.from('\r\n')])),
    ),
  );

/** What is wrong with one request (besides its method, path and body, which are random anyway). */
const fault = fc.oneof(
  { weight: 4, arbitrary: fc.constant({ kind: 'none' as const }) },
  fc.record({
    kind: fc.constant('header' as const),
    name: fc.constantFrom('Bad Name', 'X:Colon', '', 'Ünïcode', 'Host'),
    value: headerText,
  }),
  fc.record({
    kind: fc.constant('length' as const),
    values: fc.array(fc.constantFrom('-1', '99999999999999999999', '1e3', 'abc', '0', '5', '1048576', ' 7'), {
      minLength: 1,
      maxLength: 2,
    }),
  }),
  fc.record({
    kind: fc.constant('chunked' as const),
    te: fc.constantFrom('chunked', 'gzip, chunked', 'chunked, gzip', 'Chunked'),
    body: chunkedGarbage,
  }),
  fc.record({ kind: fc.constant('flood' as const), count: fc.integer({ min: 50, max: 400 }) }),
  fc.record({
    kind: fc.constant('upgrade' as const),
    protocol: fc.constantFrom('websocket', 'WebSocket', 'h2c', ''),
    key: fc.constantFrom('dGhlIHNhbXBsZSBub25jZQ==', '', 'short', '!!!!'),
    version: fc.constantFrom('13', '8', '', 'x'),
  }),
  fc.record({ kind: fc.constant('eol' as const), eol: fc.constantFrom('\n', '\r') }),
);

/** One raw request: HTTP-shaped with one thing wrong (or nothing), or plain noise. */
const rawRequest = fc.oneof(
  {
    weight: 9,
    arbitrary: fc
      .record({
        method,
        target,
        version,
        headers: fc.array(fc.tuple(token, printable), { maxLength: 4 }),
        body: fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
        fault,
      })
      .map(({ method: m, target: t, version: v, headers, body, fault: x }) => {
        const lines = [`${m} ${t} ${v}`.trimEnd(), 'Host: 127.0.0.1'];
        for (const [name, value] of headers)
          if (!/^(content-length|transfer-encoding|host)$/i.test(name)) lines.push(`${name}: ${value}`);
        let payload = body;
        if (x.kind === 'header') lines.push(`${x.name}: ${x.value}`);
        if (x.kind === 'length') for (const value of x.values) lines.push(`Content-Length: ${value}`);
        else if (x.kind === 'chunked') {
          lines.push(`Transfer-Encoding: ${x.te}`);
          payload = x.body;
        } else lines.push(`Content-Length: ${body.length}`);
        if (x.kind === 'flood')
          for (let i = 0; i < x.count; i++) lines.push(`X-Flood-${i}: ${'x'.repeat(32)}`);
        if (x.kind === 'upgrade') {
          lines.push('Connection: Upgrade', `Upgrade: ${x.protocol}`);
          lines.push(`Sec-WebSocket-Version: ${x.version}`, `Sec-WebSocket-Key: ${x.key}`);
        }
        const eol = x.kind === 'eol' ? x.eol : '\r\n';
        return Buffer.concat([Buffer.from(`${lines.join(eol)}${eol}${eol}`, 'latin1'), payload]);
      }),
  },
  fc.uint8Array({ minLength: 1, maxLength: 256 }).map((b) => Buffer.from(b)),
);

async function expectEveryEmulatorAnswers(): Promise<void> {
  const store = await fetch(`${sandbox.url}/wp-json/wc/v3/products?per_page=1`, {
    headers: {
      Authorization: `Basic ${Buffer.from(`${STORE_DEV_KEYS.read_write.consumerKey}:${STORE_DEV_KEYS.read_write.consumerSecret}`).toString('base64')}`,
    },
  });
  expect(store.status).toBe(200);
  const transcripts = await fetch(`${sandbox.url}/v2/transcript?limit=1`, {
    headers: { Authorization: TRANSCRIPTION_DEV_KEY },
  });
  expect(transcripts.status).toBe(200);
  const channels = await realtimeApi(
    { url: sandbox.url, ...REALTIME_DEV_APP },
    'GET',
    `/apps/${REALTIME_DEV_APP.appId}/channels`,
  );
  expect(channels.status).toBe(200);
  const fresh = await TestSocket.connect(sandbox.url.replace(/^http/, 'ws'), REALTIME_DEV_APP.key);
  fresh.close();
  await stillAlive(session);
}

describe('shared server: raw HTTP', () => {
  for (const run of fuzzRuns(250)) {
    it(`server raw requests ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(rawRequest, async (bytes) => {
          n++;
          const answer = await exchange(bytes);
          const what = bytes.toString('latin1').slice(0, 300);
          if (answer !== '') expect(answer, what).toMatch(/^HTTP\/1\.1 \d{3} /);
          expect(failures.splice(0), what).toEqual([]);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('server raw requests', run, n);
      await expectEveryEmulatorAnswers();
    });
  }
});
