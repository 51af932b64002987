/**
 * Fuzzing every HTTP route of the transcription emulator (fast-check) over real sockets: random JSON of any
 * depth and well-formed bodies with random values for `POST /v2/transcript`, random bytes as bodies, random
 * headers and Content-Length lies, random paths with random percent-encoding, random query strings on the
 * list and the views of a completed transcript. Every input gets a status and, on failure, `{"error": ...}`;
 * no input makes a 500 or a dropped connection, and afterwards the emulator still serves.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import {
  expectServing,
  expectWellFormed,
  KEY,
  NOWHERE,
  OTHER,
  type Peer,
  type Send,
  send,
  sendRaw,
  startPeer,
} from './transcription-harness.js';

let peer: Peer;
beforeAll(async () => {
  peer = await startPeer();
});
afterAll(async () => {
  await peer?.box.transcription?.idle();
  await peer?.close();
});

async function check(req: Send): Promise<void> {
  expectWellFormed(req, await send(peer.port, req));
}

const T = '/v2/transcript';
const UNKNOWN_ID = '5b1cbd0e-6a4d-4f57-9b3b-2f0a5c1d9e77';
const auth = { authorization: KEY };
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
});

/** `[[[…]]]` or `{"a":{"a":…}}` of a random depth, inside a body that is otherwise valid. */
// fast-check leans to small integers: the deep range is asked for on its own.
const deepBody = fc
  .tuple(fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 1000, max: 20_000 })), fc.boolean())
  .map(([depth, arrays]) => {
    const open = arrays ? '['.repeat(depth) : '{"a":'.repeat(depth);
    const close = arrays ? ']'.repeat(depth) : '}'.repeat(depth);
    const inner = arrays ? '' : '1';
    return `{"audio_url":"${NOWHERE}","speech_models":["u"],"x":${open}${inner}${close}}`;
  });

const anyJsonText = fc.oneof(
  fc.json({ maxDepth: 12 }),
  deepBody,
  fc.string(),
  fc
    .jsonValue({ maxDepth: 4 })
    .map((v) => JSON.stringify({ audio_url: NOWHERE, speech_models: ['u'], extra: v })),
);

/** Values that reach each documented parameter's check, and strings that must never reach the network. */
const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(true, false, null, 0, 25, 100, 101, -1, 1.5, '', 'en', 'fr', 'hash', 'all', ['a'], []),
);
const webhookUrl = fc.oneof(
  fc.constantFrom('http://127.0.0.1:1/hook', 'https://127.0.0.1:1/h', 'http://', 'https://:1', 'ftp://x', ''),
  printable.filter((s) => !/^https?:/i.test(s)),
  fc.jsonValue({ maxDepth: 1 }),
);
const PARAMS = [
  'language_code',
  'punctuate',
  'format_text',
  'speaker_labels',
  'speakers_expected',
  'content_safety',
  'content_safety_confidence',
  'sentiment_analysis',
  'redact_pii',
  'redact_pii_policies',
  'redact_pii_sub',
  'custom_spelling',
  'keyterms_prompt',
  'audio_start_from',
  'audio_end_at',
  'filter_profanity',
  'temperature',
  'speech_threshold',
  'webhook_auth_header_name',
  'webhook_auth_header_value',
  '__proto__',
  'constructor',
];
const wellFormedBody = fc
  .record(
    {
      audio_url: fc.oneof(
        fc.constant(NOWHERE),
        fc.constant('upload'),
        printable,
        fc.jsonValue({ maxDepth: 1 }),
      ),
      speech_models: fc.oneof(
        fc.constant(['universal-2']),
        fc.array(printable, { maxLength: 3 }),
        fieldValue,
      ),
      webhook_url: webhookUrl,
      ...Object.fromEntries(PARAMS.map((p) => [p, fieldValue])),
    },
    { requiredKeys: ['audio_url'] },
  )
  .map((body) => {
    const out: Record<string, unknown> = { ...body };
    // Only the fixed upload or nowhere: no fuzz input may reach the network or a real recogniser.
    if (typeof out.audio_url === 'string' && /^https?:/i.test(out.audio_url)) out.audio_url = NOWHERE;
    if (out.audio_url === 'upload') out.audio_url = peer.uploadUrl;
    return JSON.stringify(out);
  });

describe('POST /v2/transcript', () => {
  for (const run of fuzzRuns(200)) {
    it(`random JSON of any depth ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(anyJsonText, async (body) => {
          n++;
          await check({
            method: 'POST',
            path: T,
            headers: { ...auth, 'content-type': 'application/json' },
            body,
          });
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription POST /v2/transcript random JSON', run, n);
      await expectServing(peer);
    });
  }

  for (const run of fuzzRuns(300)) {
    it(`well-formed bodies with random field values ${run.label}`, async () => {
      let n = 0;
      await fc.assert(
        fc.asyncProperty(wellFormedBody, async (body) => {
          n++;
          const req = { method: 'POST', path: T, headers: auth, body };
          const res = await send(peer.port, req);
          expectWellFormed(req, res);
          if (res.status !== 200) return;
          // A transcript that was created can be read back, in the same shape.
          const id = JSON.parse(res.text).id as string;
          const got = await send(peer.port, { method: 'GET', path: `${T}/${id}`, headers: auth });
          expect(got.status, got.text).toBe(200);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription POST /v2/transcript well-formed bodies', run, n);
      await peer.box.transcription!.idle();
      await expectServing(peer);
    });
  }
});

const methods = fc.constantFrom('GET', 'HEAD', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS');

const isBareBadRequest = (res: { status: number; headers: Record<string, unknown>; text: string }) =>
  res.status === 400 && res.headers.connection === 'close' && res.text === '' && !res.headers['content-type'];

describe('bodies, headers and lengths', () => {
  for (const run of fuzzRuns(200)) {
    it(`random bytes and headers on every route ${run.label}`, async () => {
      let n = 0;
      const arb = fc.record({
        method: methods,
        path: fc.constantFrom(T, '/v2/upload', `${T}/ID`, `${T}/ID/sentences`, '/v2/redacted-audio/ID'),
        authorization: fc.oneof(fc.constantFrom(KEY, OTHER, `Bearer ${KEY}`, ` ${KEY} `, ''), printable),
        contentType: fc.oneof(
          fc.constantFrom('application/json', 'audio/wav', 'text/plain; charset=utf-16'),
          printable,
        ),
        body: fc.option(fc.uint8Array({ maxLength: 4096 }), { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (input) => {
          n++;
          const headers: Record<string, string> = { 'content-type': input.contentType };
          if (input.authorization !== '') headers.authorization = input.authorization;
          const body = input.method === 'GET' || input.method === 'HEAD' ? undefined : input.body;
          // DELETE of the completed transcript would end the views' fuzzing: it goes to an unknown id instead.
          const id = input.method === 'DELETE' ? UNKNOWN_ID : peer.completedId;
          await check({ method: input.method, path: input.path.replace('ID', id), headers, body });
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription random bytes and headers', run, n);
      await expectServing(peer);
    });
  }

  for (const run of fuzzRuns(150)) {
    it(`Content-Length lies ${run.label}`, async () => {
      let n = 0;
      let garbled = 0;
      const arb = fc.record({
        path: fc.constantFrom(T, '/v2/upload'),
        body: fc.uint8Array({ minLength: 1, maxLength: 2048 }),
        // Shorter than the body (the rest is a garbled next request), or far over the limit with little sent.
        lie: fc.oneof(
          fc.integer({ min: -2048, max: -1 }),
          fc.integer({ min: 1024 * 1024 + 1, max: 1 << 30 }),
        ),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ path, body, lie }) => {
          n++;
          const declared = lie < 0 ? Math.max(0, body.length + lie) : lie;
          const head = `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: ${KEY}\r\nContent-Length: ${declared}\r\n\r\n`;
          const res = await sendRaw(peer.port, Buffer.concat([Buffer.from(head), body]));
          // The bytes past a short Content-Length are a garbled next request: Node's parser fails on it and the
          // shared server's clientError handler answers a bare 400 and closes, before any emulator answer.
          if (lie < 0 && isBareBadRequest(res)) return void garbled++;
          expectWellFormed({ method: 'POST', path }, res);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription Content-Length lies', run, n);
      console.log(`  of which ${garbled} answered by the server's bare 400 for a garbled stream`);
      await expectServing(peer);
    });
  }
});

/** A path segment: a known word, or random text with some characters percent-encoded, or a broken escape. */
const segment = fc.oneof(
  fc.constantFrom(
    'transcript',
    'upload',
    'redacted-audio',
    'sentences',
    'paragraphs',
    'srt',
    'vtt',
    'word-search',
    'ID',
    '',
  ),
  fc.constantFrom('%', '%E0%A4%A', '%zz', '%C0%80', '%FF', '%2F', '%00', '..', '.'),
  fc
    .array(
      fc.oneof(
        fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)),
        fc.integer({ min: 0, max: 255 }).map((b) => `%${b.toString(16).padStart(2, '0')}`),
      ),
      { maxLength: 12 },
    )
    // `?` and `#` would end the path; a backslash is refused by the HTTP adaptor before any emulator sees it.
    .map((parts) => parts.join('').replace(/[?#\\]/g, '%3F')),
);

describe('paths', () => {
  for (const run of fuzzRuns(300)) {
    it(`random paths with random percent-encoding ${run.label}`, async () => {
      let n = 0;
      const arb = fc.record({
        method: methods,
        segments: fc.array(segment, { minLength: 1, maxLength: 5 }),
        key: fc.boolean(),
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ method, segments, key }) => {
          n++;
          const path = `/v2/${segments.join('/')}`.replaceAll('ID', peer.completedId);
          // DELETE of the completed transcript would end the views' fuzzing: that id is only read here.
          const safeMethod = method === 'DELETE' && path.includes(peer.completedId) ? 'GET' : method;
          await check({ method: safeMethod, path, headers: key ? auth : {} });
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription random paths', run, n);
      await expectServing(peer);
    });
  }
});

const queryPart = fc.oneof(
  fc.constantFrom(
    'limit',
    'status',
    'created_on',
    'before_id',
    'after_id',
    'throttled_only',
    'chars_per_caption',
    'words',
  ),
  printable,
);
const queryValue = fc.oneof(
  fc.constantFrom(
    '0',
    '1',
    '200',
    '201',
    '-1',
    '1e3',
    'true',
    'false',
    'completed',
    '2026-01-01',
    'ID',
    'order,number',
    'a b c d e f',
    '',
  ),
  printable,
  fc.integer().map(String),
);
const query = fc.oneof(
  fc
    .array(fc.tuple(queryPart, queryValue), { maxLength: 5 })
    .map((pairs) => new URLSearchParams(pairs).toString()),
  fc.constantFrom(
    'limit=%',
    'words=%E0%A4%A',
    'chars_per_caption=%zz',
    '%=%',
    'words',
    '&&&',
    'before_id=%00',
  ),
);

describe('query strings', () => {
  for (const run of fuzzRuns(250)) {
    it(`random query strings on the list and the views ${run.label}`, async () => {
      let n = 0;
      const route = fc.constantFrom(
        '',
        '/ID/sentences',
        '/ID/paragraphs',
        '/ID/srt',
        '/ID/vtt',
        '/ID/word-search',
        '/ID/redacted-audio',
        '/ID',
      );
      await fc.assert(
        fc.asyncProperty(route, query, fc.constantFrom(KEY, OTHER), async (r, q, key) => {
          n++;
          const path = `${T}${r}?${q}`.replaceAll('ID', peer.completedId);
          const req = { method: 'GET', path, headers: { authorization: key } };
          const res = await send(peer.port, req);
          expectWellFormed(req, res);
          // Another project never sees the transcript, whatever the query.
          if (key === OTHER && r !== '') expect(res.status).toBe(400);
        }),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('transcription query strings', run, n);
      await expectServing(peer);
    });
  }
});
