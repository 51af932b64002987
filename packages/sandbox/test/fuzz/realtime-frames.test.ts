/**
 * Fuzzing the realtime emulator's WebSocket side over real sockets: random text, random bytes, envelopes with
 * random events, channels and data (JSON of any depth), subscriptions with random or correctly signed auth and
 * channel_data, and signed or forged signins. After every input a sentinel (a subscribe only its own
 * `pusher:error` answers) shows the session still reads; otherwise the socket must have been closed with a
 * code the protocol gives for it. Every frame the server sends must be well formed, and a control client on
 * another socket, in the same channels, keeps receiving events.
 */
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { api, type Frame, stillAlive, TestSocket } from '../helpers/realtime.js';

/** 1003 binary, 1007 invalid UTF-8 (from `ws` itself), 1009 too big, 4009 a refused signin. Never 1011. */
const ALLOWED_CLOSES = new Set([1003, 1007, 1009, 4009]);

let box: Sandbox<false>;
let rt: NonNullable<Sandbox['realtime']>;
let control: TestSocket;
let fuzzer: TestSocket;
let sentinels = 0;
/** How many of the control client's frames have been checked already. */
let controlChecked = 0;

const sign = (text: string) => createHmac('sha256', rt.secret).update(text).digest('hex');
const auth = (s: TestSocket, channel: string, channelData?: string) =>
  `${rt.key}:${sign(channelData === undefined ? `${s.socketId}:${channel}` : `${s.socketId}:${channel}:${channelData}`)}`;

/** Joins the channels client events travel on, so fuzzed client events reach the control client. */
async function joinShared(s: TestSocket, userId: string): Promise<void> {
  const member = JSON.stringify({ user_id: userId });
  for (const [channel, channelData] of [
    ['control', undefined],
    ['private-fuzz', undefined],
    ['presence-fuzz', member],
  ] as const) {
    const answer = await s.subscribe(channel, { key: rt.key, secret: rt.secret, channelData });
    expect(answer.event).toBe('pusher_internal:subscription_succeeded');
  }
}

async function freshFuzzer(): Promise<void> {
  fuzzer?.close();
  fuzzer = await TestSocket.connect(rt.wsUrl, rt.key);
  await joinShared(fuzzer, 'fuzzer');
}

beforeAll(async () => {
  box = await startSandbox({
    store: false,
    realtime: { clientEventsPerSecond: 1_000_000, httpRateLimit: false },
  });
  rt = box.realtime!;
  control = await TestSocket.connect(rt.wsUrl, rt.key);
  await joinShared(control, 'control');
  await freshFuzzer();
});

afterAll(async () => {
  fuzzer?.close();
  control?.close();
  await box?.close();
});

/** What makes a server frame well formed: a JSON object, a string event, `pusher:error` data in its shape. */
function malformed(f: Frame): string | null {
  const outer = JSON.parse(f.raw) as Record<string, unknown>;
  if (typeof outer !== 'object' || outer === null || typeof outer.event !== 'string') return 'no event';
  if (outer.channel !== undefined && typeof outer.channel !== 'string') return 'channel not a string';
  if (outer.event === 'pusher:error') {
    const data = outer.data as { code?: unknown; message?: unknown } | undefined;
    const code = data?.code;
    const codeOk =
      code === null || (Number.isInteger(code) && (code as number) >= 4000 && (code as number) < 4400);
    return codeOk && typeof data?.message === 'string' ? null : `pusher:error data ${JSON.stringify(data)}`;
  }
  return outer.data === undefined || typeof outer.data === 'string' ? null : 'data not a string';
}

function expectWellFormed(frames: Frame[]): void {
  for (const f of frames) {
    const problem = malformed(f);
    if (problem) throw new Error(`malformed frame (${problem}): ${f.raw.slice(0, 300)}`);
  }
}

/**
 * Sends one input, then the sentinel. Resolves once the sentinel is answered, or the socket closed with an
 * allowed code (then a fresh fuzzer connects). Anything else (a hang, 1011, a dropped socket) fails.
 */
async function roundTrip(send: (s: TestSocket) => void): Promise<void> {
  const s = fuzzer;
  const start = s.frames.length;
  const id = `sentinel ${++sentinels}`;
  send(s);
  s.send({ event: 'pusher:subscribe', data: { channel: id } });
  const answered = s
    .next((f) => f.event === 'pusher:error' && String(f.data?.message).includes(`"${id}"`), 10_000)
    .then(() => null);
  answered.catch(() => {});
  const outcome = await Promise.race([answered, s.closed]).catch((err: Error) => err);
  if (outcome === null) {
    expectWellFormed(s.frames.slice(start));
    return;
  }
  // Whatever went wrong, the next input (fast-check shrinks by replaying) gets a working socket.
  await freshFuzzer();
  if (outcome instanceof Error) throw outcome;
  if (!ALLOWED_CLOSES.has(outcome.code)) throw new Error(`closed with ${outcome.code} (${outcome.reason})`);
  expectWellFormed(s.frames.slice(start));
}

/** The control client is still subscribed and receiving, and everything it was sent is well formed. */
async function controlStillReceives(): Promise<void> {
  const before = control.frames.length;
  const creds = { url: rt.url, appId: rt.appId, key: rt.key, secret: rt.secret };
  const sent = await api(creds, 'POST', `/apps/${rt.appId}/events`, {
    body: { name: 'heartbeat', channel: 'control', data: '{}' },
  });
  expect(sent.status).toBe(200);
  await control.next((f) => f.event === 'heartbeat' && control.frames.indexOf(f) >= before);
  await stillAlive(control);
  expectWellFormed(control.frames.slice(controlChecked));
  controlChecked = control.frames.length;
}

/** JSON text nested `depth` deep around a small value: what `JSON.stringify` cannot make without overflowing. */
const deepText = fc
  .tuple(fc.nat({ max: 7000 }), fc.boolean(), fc.json({ maxDepth: 1 }))
  .map(([depth, arrays, core]) =>
    arrays
      ? `${'['.repeat(depth)}${core}${']'.repeat(depth)}`
      : `${'{"a":'.repeat(depth)}${core}${'}'.repeat(depth)}`,
  );
const jsonText = fc.oneof(fc.json({ maxDepth: 4 }), deepText);
const anyString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary' }),
);
const channelName = fc.oneof(
  fc.constantFrom(
    'private-fuzz',
    'presence-fuzz',
    'control',
    '__proto__',
    'presence-__proto__',
    'private-encrypted-x',
    'cache-x',
    'presence-cache-x',
    '#server-to-user-fuzzer',
    'c'.repeat(165),
  ),
  anyString,
);
const eventName = fc.oneof(
  fc.constantFrom('pusher:subscribe', 'pusher:unsubscribe', 'pusher:signin', 'pusher:ping', 'pusher:pong'),
  fc.constantFrom('client-x', 'pusher_internal:member_added', 'pusher:error', `client-${'e'.repeat(200)}`),
  anyString.map((s) => `client-${s}`),
  anyString,
);

/** Text frames: random JSON of any depth and size, random strings. */
const textFrames = fc.oneof(
  jsonText,
  anyString,
  fc.string({ minLength: 10_000, maxLength: 30_000 }),
  jsonText.map((data) => `{"event":"client-x","data":${data}}`),
  jsonText.map((data) => `{"event":"pusher:subscribe","data":${data}}`),
);

/** Well-formed envelopes with random event names, channels and data (data as JSON of any depth, or a string). */
const envelopes = fc
  .record({
    event: eventName,
    channel: fc.option(channelName, { nil: undefined }),
    data: fc.option(
      fc.oneof(
        jsonText,
        anyString.map((s) => JSON.stringify(s)),
      ),
      { nil: undefined },
    ),
  })
  .map(({ event, channel, data }) => {
    const channelPart = channel === undefined ? '' : `,"channel":${JSON.stringify(channel)}`;
    return `{"event":${JSON.stringify(event)}${channelPart}${data === undefined ? '' : `,"data":${data}`}}`;
  });

/** channel_data a presence subscription might carry: random text, random JSON, a user with random info. */
const channelData = fc.oneof(
  anyString,
  fc.json({ maxDepth: 3 }),
  fc
    .tuple(fc.oneof(fc.jsonValue({ maxDepth: 1 }), anyString), fc.option(jsonText, { nil: undefined }))
    .map(
      ([id, info]) =>
        `{"user_id":${JSON.stringify(id) ?? 'null'}${info === undefined ? '' : `,"user_info":${info}`}}`,
    ),
);

const subscriptions = fc.record({
  channel: channelName,
  auth: fc.oneof(fc.constant<'signed'>('signed'), anyString, fc.jsonValue({ maxDepth: 1 })),
  channelData: fc.option(channelData, { nil: undefined }),
});

const signins = fc.record({
  userData: fc.oneof(
    fc.json({ maxDepth: 3 }),
    fc
      .tuple(fc.oneof(fc.jsonValue({ maxDepth: 1 }), anyString), fc.option(jsonText, { nil: undefined }))
      .map(
        ([id, info]) =>
          `{"id":${JSON.stringify(id) ?? 'null'}${info === undefined ? '' : `,"user_info":${info}`}}`,
      ),
  ),
  signed: fc.boolean(),
});

async function fuzz<T>(
  surface: string,
  runs: number,
  arb: fc.Arbitrary<T>,
  send: (s: TestSocket, input: T) => void,
) {
  for (const run of fuzzRuns(runs)) {
    it(`${surface} ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(arb, async (input) => {
          n++;
          await roundTrip((s) => send(s, input));
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz(surface, run, n);
      await controlStillReceives();
    });
  }
}

describe('realtime WebSocket frames', () => {
  fuzz('realtime ws text frames', 400, textFrames, (s, text) => s.ws.send(text));

  fuzz(
    'realtime ws bytes',
    150,
    fc.tuple(fc.uint8Array({ maxLength: 2048 }), fc.boolean()),
    (s, [bytes, binary]) => s.ws.send(bytes, { binary }),
  );

  fuzz('realtime ws envelopes', 500, envelopes, (s, text) => s.ws.send(text));

  fuzz('realtime ws subscribe', 400, subscriptions, (s, sub) => {
    const data: Record<string, unknown> = { channel: sub.channel };
    data.auth = sub.auth === 'signed' ? auth(s, sub.channel, sub.channelData) : sub.auth;
    if (sub.channelData !== undefined) data.channel_data = sub.channelData;
    s.send({ event: 'pusher:subscribe', data });
  });

  fuzz('realtime ws signin', 150, signins, (s, { userData, signed }) => {
    const signature = signed ? sign(`${s.socketId}::user::${userData}`) : sign(userData);
    s.send({ event: 'pusher:signin', data: { auth: `${rt.key}:${signature}`, user_data: userData } });
  });

  it('afterwards a new client connects, subscribes and receives, and the control client still does', async () => {
    await controlStillReceives();
    const late = await TestSocket.connect(rt.wsUrl, rt.key);
    try {
      await joinShared(late, 'late');
      await stillAlive(late);
    } finally {
      late.close();
    }
  });
});
