/**
 * Fuzzing the realtime emulator's HTTP API over real sockets: random paths under /apps with random
 * percent-encoding, random auth query strings, random headers, random bodies, each both forged and correctly
 * signed (so the input gets past authentication to the routes and parsers). Every request must be answered (no
 * hang, no dropped connection) in Pusher's shape: JSON on 200, plain text on an error, never a 5xx (the
 * server's last guard answering for a handler that threw); a control client keeps receiving events, and a
 * normal request works afterwards.
 */
import http from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { REALTIME_DEV_APP, type Sandbox, startSandbox } from '../../src/index.js';
import { api, type RawAnswer, rawHttp, signedQuery, TestSocket } from '../helpers/realtime.js';

let box: Sandbox<false>;
let rt: NonNullable<Sandbox['realtime']>;
let control: TestSocket;
const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    realtime: { httpRateLimit: false, apps: [{ ...REALTIME_DEV_APP, subscriptionCounting: true }] },
  });
  rt = box.realtime!;
  control = await TestSocket.connect(rt.wsUrl, rt.key);
  await control.subscribe('control');
  await control.subscribe('presence-fuzz', {
    key: rt.key,
    secret: rt.secret,
    channelData: JSON.stringify({ user_id: 'control' }),
  });
});

afterAll(async () => {
  control?.close();
  agent.destroy();
  await box?.close();
});

const creds = () => ({ url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret });

interface Input {
  method: string;
  path: string;
  /** Extra query parameters; with `sign`, values must be sent as is (no `&`, `=`, `#`, `%`, spaces). */
  params: [string, string][];
  sign: boolean;
  headers?: Record<string, string>;
  body?: Buffer;
}

function send(input: Input): Promise<RawAnswer> {
  const params = Object.fromEntries(input.params);
  const query = input.sign
    ? signedQuery(rt.key, rt.secret, input.method, input.path, params, input.body)
    : input.params.map(([k, v]) => `${k}=${v}`).join('&');
  const path = query.length > 0 ? `${input.path}?${query}` : input.path;
  return rawHttp(rt.url, agent, { method: input.method, path, headers: input.headers, body: input.body });
}

/** Pusher's answer shape: JSON on 200, plain text on an error; nothing the server's last guard had to give. */
function expectPusherShaped(input: Input, answer: RawAnswer): void {
  const what = `${input.method} ${input.path.slice(0, 200)} -> ${answer.status} ${answer.text.slice(0, 200)}`;
  if (answer.status >= 500 || answer.status < 200) throw new Error(`unexpected status: ${what}`);
  if (input.method === 'HEAD') return;
  const type = String(answer.headers['content-type'] ?? '');
  if (answer.status === 200) {
    const body = JSON.parse(answer.text);
    if (!type.startsWith('application/json') || body === null || typeof body !== 'object') {
      throw new Error(`a 200 that is not a JSON object: ${what}`);
    }
  } else if (!type.startsWith('text/plain') || answer.text.length === 0) {
    throw new Error(`an error that is not plain text: ${what} (${type})`);
  }
}

async function controlStillReceives(): Promise<void> {
  const before = control.frames.length;
  const sent = await api(creds(), 'POST', `/apps/${rt.appId}/events`, {
    body: { name: 'heartbeat', channel: 'control', data: '{}' },
  });
  expect(sent.status).toBe(200);
  await control.next((f) => f.event === 'heartbeat' && control.frames.indexOf(f) >= before);
}

const methods = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS');
/**
 * Characters a request line may carry as they are (node:http refuses spaces, controls and beyond Latin-1).
 * Not `\`: the shared server's adaptor answers it with an empty 400 before any emulator sees the request.
 */
const safeChars = fc.string({
  unit: fc.constantFrom(...'abcxyzABC019-._~!$\'()*+,;:@[]{}|^`"<>'.split('')),
  maxLength: 20,
});
const percentNoise = fc
  .tuple(
    fc.constantFrom(...'0123456789abcdefABCDEFgz%'.split('')),
    fc.constantFrom(...'0123456789aFz'.split('')),
  )
  .map(([a, b]) => `%${a}${b}`);
const segment = fc.oneof(
  fc.constantFrom(
    '100001',
    'events',
    'batch_events',
    'channels',
    'users',
    'terminate_connections',
    '__proto__',
  ),
  fc.constantFrom('presence-fuzz', 'control', 'constructor', '..', '.', '', '%E0%A4%A', '%2F', '%00'),
  fc.string({ unit: 'grapheme', maxLength: 12 }).map(encodeURIComponent),
  fc
    .string({ unit: 'binary', maxLength: 8 })
    .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, 'x'))),
  safeChars,
  fc.array(fc.oneof(percentNoise, safeChars), { maxLength: 4 }).map((parts) => parts.join('')),
);
const paths = fc
  .tuple(fc.oneof(fc.constant('100001'), segment), fc.array(segment, { maxLength: 4 }), fc.boolean())
  .map(([app, rest, slash]) => `/apps/${[app, ...rest].join('/')}${slash ? '/' : ''}`);

/** Query values sent as they are and signed as they are. */
const plainValue = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.,:;@!*()[]'.split('')), maxLength: 24 });
const knownKey = fc.constantFrom(
  'info',
  'filter_by_prefix',
  '__proto__',
  'constructor',
  'toString',
  'Info',
  'auth_version',
  'socket_id',
);
const signedParams = fc.array(fc.tuple(fc.oneof(knownKey, plainValue), plainValue), { maxLength: 4 });

/** Any query at all: auth parameters with random values, random encodings, duplicates, bare keys. */
const authKey = fc.constantFrom(
  'auth_key',
  'auth_timestamp',
  'auth_signature',
  'auth_version',
  'body_md5',
  'AUTH_KEY',
  'auth_key[]',
);
const anyValue = fc.oneof(
  plainValue,
  fc.constantFrom(
    'sandbox_dev_realtime_key',
    String(Math.floor(Date.now() / 1000)),
    '1.0',
    '',
    '%',
    '%zz',
    '-1',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }).map(encodeURIComponent),
  fc.array(fc.oneof(percentNoise, plainValue), { maxLength: 5 }).map((p) => p.join('')),
  fc.nat().map(String),
);
const anyParams = fc.array(fc.tuple(fc.oneof(authKey, knownKey, plainValue), anyValue), { maxLength: 8 });

const headerName = fc
  .stringMatching(/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,24}$/)
  .filter(
    (name) =>
      !/^(content-length|transfer-encoding|host|connection|upgrade|expect|te|trailer|keep-alive)$/i.test(
        name,
      ),
  );
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,60}[\x21-\x7e])?$/);
const headers = fc.dictionary(
  fc.oneof(
    fc.constantFrom('content-type', 'accept', 'content-encoding', 'authorization', 'x-pusher-key'),
    headerName,
  ),
  headerValue,
  { maxKeys: 5 },
);

/** JSON text nested `depth` deep: parsers must not recurse on it. */
const deepJson = fc
  .tuple(fc.nat({ max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );
const channelField = fc.oneof(
  fc.constantFrom(
    'control',
    'presence-fuzz',
    '__proto__',
    '#server-to-user-1',
    'private-encrypted-x',
    'c'.repeat(165),
  ),
  fc.string({ maxLength: 20 }),
  fc.jsonValue({ maxDepth: 1 }),
);
const trigger = fc.record(
  {
    name: fc.oneof(
      fc.constantFrom('e', 'pusher:x', 'pusher_internal:y', 'client-z', 'n'.repeat(201)),
      fc.jsonValue({ maxDepth: 1 }),
    ),
    data: fc.oneof(
      fc.string({ maxLength: 50 }),
      fc.constant('x'.repeat(10_241)),
      fc.jsonValue({ maxDepth: 2 }),
    ),
    channel: channelField,
    channels: fc.oneof(fc.array(channelField, { maxLength: 3 }), fc.jsonValue({ maxDepth: 1 })),
    socket_id: fc.oneof(fc.constantFrom('1.1', '123.456', 'abc'), fc.jsonValue({ maxDepth: 1 })),
    info: fc.oneof(
      fc.constantFrom('user_count', 'subscription_count', 'cache', 'user_count,bogus'),
      fc.jsonValue({ maxDepth: 1 }),
    ),
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
  fc.json({ maxDepth: 4 }).map((t) => Buffer.from(t)),
  deepJson.map((t) => Buffer.from(t)),
  trigger.map((t) => Buffer.from(JSON.stringify(t))),
  fc.array(trigger, { maxLength: 12 }).map((batch) => Buffer.from(JSON.stringify({ batch }))),
  fc.jsonValue({ maxDepth: 2 }).map((batch) => Buffer.from(JSON.stringify({ batch }))),
);

const surfaces: [string, number, fc.Arbitrary<Input>][] = [
  [
    'realtime http paths',
    500,
    fc.record({ method: methods, path: paths, params: signedParams, sign: fc.boolean() }),
  ],
  [
    'realtime http auth query',
    400,
    fc.record({
      method: fc.constantFrom('GET', 'POST'),
      path: fc.constantFrom(
        '/apps/100001/channels',
        '/apps/100001/events',
        '/apps/100001/channels/presence-fuzz/users',
      ),
      params: anyParams,
      sign: fc.constant(false),
    }),
  ],
  [
    'realtime http signed query',
    300,
    fc.record({
      method: fc.constant('GET'),
      path: fc.constantFrom(
        '/apps/100001/channels',
        '/apps/100001/channels/presence-fuzz',
        '/apps/100001/channels/__proto__',
      ),
      params: signedParams,
      sign: fc.constant(true),
    }),
  ],
  [
    'realtime http headers',
    300,
    fc.record({
      method: fc.constantFrom('GET', 'POST'),
      path: fc.constantFrom('/apps/100001/channels', '/apps/100001/events'),
      params: fc.constant([]),
      sign: fc.boolean(),
      headers,
      body: fc.option(fc.constant(Buffer.from('{"name":"e","channel":"control","data":"1"}')), {
        nil: undefined,
      }),
    }),
  ],
  [
    'realtime http bodies',
    600,
    fc.record({
      method: fc.constant('POST'),
      path: fc.constantFrom(
        '/apps/100001/events',
        '/apps/100001/batch_events',
        '/apps/100001/users/__proto__/terminate_connections',
      ),
      params: fc.constant([]),
      sign: fc.boolean(),
      body: bodies,
    }),
  ],
];

describe('realtime HTTP API', () => {
  for (const [surface, runs, arb] of surfaces) {
    for (const run of fuzzRuns(runs)) {
      it(`${surface} ${run.label}`, async () => {
        let n = 0;
        await fc.assert(
          fc.asyncProperty(arb, async (input) => {
            n++;
            expectPusherShaped(input, await send(input));
          }),
          { seed: run.seed, numRuns: run.numRuns },
        );
        reportFuzz(surface, run, n);
        await controlStillReceives();
      });
    }
  }

  it('afterwards a normal request works and the control client is still in its channels', async () => {
    const list = await api(creds(), 'GET', `/apps/${rt.appId}/channels`);
    expect(list.status).toBe(200);
    expect(Object.keys(list.json.channels)).toEqual(expect.arrayContaining(['control', 'presence-fuzz']));
    await controlStillReceives();
  });
});
