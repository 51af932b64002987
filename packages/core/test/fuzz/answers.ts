import type { IncomingMessage, ServerResponse } from 'node:http';
import fc from 'fast-check';

/**
 * Hostile HTTP answers for the response-parsing fuzz suites: random status, headers that lie or carry
 * garbage (and the secret), bodies from random bytes to 10,000-level JSON. Shared by core's and the
 * store's suites through a relative import.
 */
export interface Answer {
  status: number;
  headers: Array<[string, string]>;
  body: Buffer;
}

/** Node refuses header values outside tab, printable ASCII and Latin-1; anything else becomes '?'. */
function headerSafe(text: string): string {
  return text.replace(/[^\t\x20-\x7e\x80-\xff]/g, '?');
}

const DEEP_ARRAY = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
const DEEP_OBJECT = `${'{"a":'.repeat(10_000)}null${'}'.repeat(10_000)}`;

export function answerArbitrary(secret: string): fc.Arbitrary<Answer> {
  const garbage = fc.oneof(
    fc.string({ maxLength: 60 }),
    fc.constantFrom(
      '',
      ' ',
      '-1',
      '0',
      '1e309',
      'NaN',
      '999999999999999999999',
      'Wed, 21 Oct 2015 07:28:00 GMT',
    ),
    fc.constant(`\t${secret}\t`),
    fc.constant(`req_${secret}`),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const header = fc.tuple(
    fc.constantFrom(
      'retry-after',
      'x-request-id',
      'link',
      'x-wp-total',
      'x-wp-totalpages',
      'content-type',
      'location',
      'ratelimit-reset',
      'ratelimit-remaining',
      'x-ratelimit-remaining',
      'www-authenticate',
    ),
    fc.oneof(
      garbage,
      fc.constantFrom(
        'application/json',
        'text/html',
        'application/json; charset=nope',
        '<http://127.0.0.1:1/x?page=2>; rel="next"',
        '<::not a url>; rel=next',
        `<http://evil.example/?key=${secret}>; rel="next"`,
        '/relative/next',
      ),
    ),
  );
  const json = fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? 'null');
  const body = fc.oneof(
    fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)),
    json.map((text) => Buffer.from(text)),
    json.chain((text) => fc.nat(text.length).map((cut) => Buffer.from(text.slice(0, cut)))),
    fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT).map((text) => Buffer.from(text)),
    fc.nat(100_000).map((n) => Buffer.from(JSON.stringify({ message: 'x'.repeat(n) }))),
    fc.constant(
      Buffer.from(JSON.stringify({ code: 'echo', message: `bad key ${secret}`, data: { key: secret } })),
    ),
    fc
      .constantFrom('{"id":"1","name":2}', '[]', '{}', 'null', '"text"', '42', '[{"id":1,"name":"a"}]')
      .map((t) => Buffer.from(t)),
    fc.string({ maxLength: 100 }).map((text) => Buffer.from(`<html>${text}</html>`)),
  );
  return fc.record({
    status: fc.oneof(
      fc.integer({ min: 200, max: 599 }),
      fc.constantFrom(200, 204, 301, 302, 304, 401, 404, 429, 500, 503),
    ),
    headers: fc
      .array(header, { maxLength: 6 })
      .map((list) => list.map(([n, v]) => [n, headerSafe(v)] as [string, string])),
    body,
  });
}

/** Writes an answer; the current one is read per request, so one server serves every input in turn. */
export function reply(answer: Answer, res: ServerResponse, _req?: IncomingMessage): void {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of answer.headers) {
    const prior = headers[name];
    headers[name] = prior === undefined ? value : [...(Array.isArray(prior) ? prior : [prior]), value];
  }
  try {
    res.writeHead(answer.status, headers);
  } catch {
    res.writeHead(answer.status);
  }
  res.end(answer.body);
}

/** Every string surface of an error a user could log or show. */
export function surfaces(error: unknown): string[] {
  const e = error as Error & { requestId?: unknown; url?: unknown; cursor?: unknown };
  return [
    e.message,
    String(e),
    JSON.stringify(e) ?? '',
    e.stack ?? '',
    String(e.requestId),
    String(e.url),
    String(e.cursor),
  ];
}

/** Settles within `ms` or fails the property: a hang is a finding too. */
export function withinMs<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`call did not settle within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}
