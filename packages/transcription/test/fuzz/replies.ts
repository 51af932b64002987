import type { ServerResponse } from 'node:http';
import fc from 'fast-check';
import { expect } from 'vitest';
import { TimeoutError, XError } from '../../src/index.js';

/** The API key of the fuzzing client; servers echo it back in bodies and headers. */
export const FUZZ_KEY = 'aai-fuzz-key-5f3c9e21d7';

/** One answer of the scripted server: the same for every request of one input (redirects included). */
export interface Reply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const printable = (max: number) =>
  fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: max,
  });

const nest = (depth: number, open: string, close: string, inner: string) =>
  `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

const FIELDS = ['id', 'status', 'audio_url', 'text', 'words', 'utterances', 'error', 'upload_url'];

/** Transcript-shaped objects whose fields have the wrong types, or are missing. */
const wrongTypes = fc
  .record(
    {
      id: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      status: fc.oneof(
        fc.constantFrom('queued', 'completed', 'error', 'weird'),
        fc.jsonValue({ maxDepth: 2 }),
      ),
      audio_url: fc.oneof(fc.string(), fc.jsonValue({ maxDepth: 2 })),
      words: fc.jsonValue({ maxDepth: 3 }),
      upload_url: fc.oneof(fc.string(), fc.integer()),
      page_details: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({ prev_url: fc.oneof(fc.constant(null), fc.string(), fc.integer()) }),
      ),
      transcripts: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
      ),
    },
    { requiredKeys: [] },
  )
  .map((value) => JSON.stringify(value));

/** JSON nested thousands of levels, at the root or in a field the schemas know or do not know. */
const deep = fc
  .record({
    depth: fc.integer({ min: 500, max: 20_000 }),
    kind: fc.constantFrom('arrays', 'objects'),
    at: fc.constantFrom('root', ...FIELDS, 'unknown_field'),
  })
  .map(({ depth, kind, at }) => {
    const inner = kind === 'arrays' ? nest(depth, '[', ']', '') : nest(depth, '{"a":', '}', '1');
    if (at === 'root') return inner;
    return `{"id":"t1","status":"completed","audio_url":"https://x/a","upload_url":"https://x/u","${at}":${inner}}`;
  });

/** A valid answer cut short. */
const truncated = fc
  .tuple(
    fc.constantFrom(
      '{"id":"t1","status":"completed","audio_url":"https://x/a","text":"hello world","words":[{"text":"hello","start":0,"end":5,"confidence":0.9}]}',
      '{"page_details":{"limit":10,"result_count":1,"current_url":"u","prev_url":null,"next_url":null},"transcripts":[{"id":"t1"}]}',
      '{"upload_url":"https://cdn.example/upload/abc"}',
      '{"error":"Transcript ID not found"}',
    ),
    fc.nat(),
  )
  .map(([text, cut]) => text.slice(0, cut % text.length));

/** Strings of half a megabyte to two megabytes, in a field or as the whole body. */
const huge = fc
  .record({ size: fc.integer({ min: 500_000, max: 2_000_000 }), asField: fc.boolean() })
  .map(({ size, asField }) => {
    const s = 'x'.repeat(size);
    return asField ? `{"id":"t1","status":"completed","audio_url":"${s}","error":"${s}"}` : s;
  });

const echoes = fc.constantFrom(
  `{"error":"Authentication error, API token ${FUZZ_KEY} is invalid"}`,
  `{"id":"${FUZZ_KEY}","status":"${FUZZ_KEY}"}`,
  `<html><body>key=${FUZZ_KEY}</body></html>`,
);

const body = fc.oneof(
  { weight: 3, arbitrary: wrongTypes },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }) },
  { weight: 1, arbitrary: deep },
  { weight: 2, arbitrary: truncated },
  { weight: 1, arbitrary: huge },
  { weight: 1, arbitrary: echoes },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'null', '[]', '"text"', '<html>maintenance</html>', '\u0000\uffff'),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
);

const status = fc.oneof(
  fc.constantFrom(
    200,
    200,
    200,
    201,
    204,
    301,
    302,
    307,
    400,
    401,
    403,
    404,
    413,
    422,
    429,
    500,
    502,
    503,
    504,
  ),
  fc.integer({ min: 200, max: 599 }),
);

const headers = fc
  .record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/html',
        'text/plain',
        'application/octet-stream',
      ),
      'x-request-id': fc.oneof(printable(60), fc.constant(FUZZ_KEY), fc.constant(`req-${FUZZ_KEY}-1`)),
      'retry-after': fc.oneof(printable(20), fc.integer({ min: -5, max: 100_000 }).map(String)),
      location: fc.oneof(
        fc.constantFrom('/v2/transcript/t2', 'http://198.51.100.7/elsewhere', '//evil.example/x', ':::'),
        printable(40),
      ),
    },
    { requiredKeys: [] },
  )
  .map((h) => h as Record<string, string>);

export const reply: fc.Arbitrary<Reply> = fc.record({ status, headers, body });

/** Answers with the reply as given; Node drops the body itself where a status forbids one. */
export function send(res: ServerResponse, r: Reply): void {
  res.writeHead(r.status, r.headers);
  res.end(r.body);
}

/**
 * The invariant of every fuzzed call: it settled (the test's timeout catches a hang) with a value or an
 * `XError`. Never a raw TypeError/RangeError, never a timeout (the server always answers at once), and the
 * key never in what the error shows.
 */
export function expectSettledWell(outcome: { ok: true } | { ok: false; error: unknown }): void {
  if (outcome.ok) return;
  const error = outcome.error;
  if (!(error instanceof XError) || error instanceof TimeoutError) {
    throw new Error(`expected an XError, got ${describe(error)}`, { cause: error });
  }
  const shown = [error.message, String(error), JSON.stringify(error)].join('\n');
  expect(shown).not.toContain(FUZZ_KEY);
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message.slice(0, 300)}` : String(error);
}

export async function settle(
  call: () => PromiseLike<unknown>,
): Promise<{ ok: true } | { ok: false; error: unknown }> {
  try {
    await call();
    return { ok: true };
  } catch (error) {
    return { ok: false, error };
  }
}
