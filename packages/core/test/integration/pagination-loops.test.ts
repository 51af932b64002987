import type { IncomingMessage, ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  BaseClient,
  cursorStrategy,
  PaginationError,
  pageNumberStrategy,
  queryAuth,
  ResponseValidationError,
} from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

/**
 * Servers that would keep auto-pagination going forever: a `prev_url` that repeats (AssemblyAI's
 * transcript list did), a cursor that points at itself, a `page` parameter the server ignores. Each walk
 * must end with a PaginationError. The server answers at most LIMIT pages and then 500s, so code that
 * loops fails with that 500 (or a hang) instead of the PaginationError.
 */
const LIMIT = 12;
const SECRET = 'cs_looping_secret_0123456789abcdef';
const server = useFaultServer();

function client() {
  return new BaseClient(
    { baseURL: server.url, rateLimit: false, maxRetries: 0, auth: queryAuth({ api_key: SECRET }) },
    { packageName: '@x/test', packageVersion: '0.0.0' },
  );
}

function serve(answer: (url: URL, n: number) => { body: unknown; headers?: Record<string, string> }) {
  let n = 0;
  for (let i = 0; i < LIMIT + 1; i++) {
    server.replies.push((req: IncomingMessage, res: ServerResponse) => {
      n++;
      if (n > LIMIT) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"message":"the client kept paginating"}');
        return;
      }
      const { body, headers } = answer(new URL(req.url ?? '/', server.url), n);
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body));
    });
  }
}

const cursor = cursorStrategy<{ id: number }>({
  items: (body) => (body as { transcripts: Array<{ id: number }> }).transcripts,
  nextUrl: (body) => (body as { page_details: { prev_url: string | null } }).page_details.prev_url,
});

describe('cursor pagination stops on a repeated cursor', () => {
  it('a prev_url repeated on every page ends with a PaginationError naming it, redacted', async () => {
    // The second page links to itself forever, the way the transcript list did.
    serve((_url, n) => ({
      body: {
        transcripts: [{ id: n }],
        page_details: { prev_url: `${server.url}/v2/transcript?before_id=7&api_key=${SECRET}` },
      },
    }));
    const walk = client().list({ method: 'GET', path: '/v2/transcript' }, cursor).toArray();
    const error = await walk.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toBeInstanceOf(ResponseValidationError);
    const pagination = error as PaginationError;
    expect(pagination.cursor).toContain('before_id=7');
    expect(pagination.message).toContain('before_id=7');
    expect(pagination.message).toMatch(/already fetched|same/);
    const text = `${pagination.message} ${JSON.stringify(pagination)} ${pagination.stack} ${pagination.cursor}`;
    expect(text).not.toContain(SECRET);
    expect(server.requests.length).toBeLessThanOrEqual(3);
  });

  it('a cycle of two cursors is caught when the first comes round again', async () => {
    serve((_url, n) => ({
      body: {
        transcripts: [{ id: n }],
        page_details: { prev_url: `${server.url}/v2/transcript?before_id=${n % 2 === 0 ? 'a' : 'b'}` },
      },
    }));
    const error = await client()
      .list({ method: 'GET', path: '/v2/transcript' }, cursor)
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(server.requests.length).toBeLessThanOrEqual(4);
  });

  it('a well-behaved cursor list still walks to its end', async () => {
    serve((_url, n) => ({
      body: {
        transcripts: [{ id: n }],
        page_details: { prev_url: n < 4 ? `${server.url}/v2/transcript?before_id=${n}` : null },
      },
    }));
    const all = await client().list({ method: 'GET', path: '/v2/transcript' }, cursor).toArray();
    expect(all.map((t) => t.id)).toEqual([1, 2, 3, 4]);
  });

  it('asking a page for its next page twice gives the same page, not an error', async () => {
    serve((_url, n) => ({
      body: {
        transcripts: [{ id: n }],
        page_details: { prev_url: `${server.url}/v2/transcript?before_id=${n}` },
      },
    }));
    const first = await client().list({ method: 'GET', path: '/v2/transcript' }, cursor);
    const second = await first.getNextPage();
    expect(await first.getNextPage()).toBe(second);
  });
});

describe('page-number pagination that serves the same page forever', () => {
  it('a server that ignores ?page= (no total headers) ends with a PaginationError', async () => {
    serve(() => ({ body: [{ id: 1 }, { id: 2 }] }));
    const error = await client()
      .list({ method: 'GET', path: '/items', query: { per_page: 2 } }, pageNumberStrategy({}))
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as PaginationError).message).toContain('page=2');
    expect((error as PaginationError).message).toContain('same 2 items');
    expect(server.requests.length).toBe(2);
  });

  it('the same 10,000-level nested page again is caught too (found by the fuzz suite: it looped)', async () => {
    // Written as text: JSON.stringify itself overflows the stack at this depth.
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (let i = 0; i < 3; i++)
      server.replies.push((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(deep);
      });
    const error = await client()
      .list({ method: 'GET', path: '/items' }, pageNumberStrategy({}))
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(server.requests.length).toBe(2);
  });

  it.each(['3', '999999999999999999999'])(
    'an empty page ends the walk, whatever X-WP-TotalPages announces (%s; a CI fuzz seed sent 10^21)',
    async (total) => {
      serve(() => ({ body: [], headers: { 'x-wp-totalpages': total } }));
      const pages: number[] = [];
      for await (const page of client()
        .list({ method: 'GET', path: '/items' }, pageNumberStrategy({ totalPagesHeader: 'x-wp-totalpages' }))
        .pages())
        pages.push(page.pageNumber!);
      expect(pages).toEqual([1]);
    },
  );

  const huge = { 'x-wp-totalpages': '9007199254740991' };

  it('concurrent pages end at the first empty page, whatever the total announced', async () => {
    serve((url) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      return { body: page < 3 ? [{ id: page }] : [], headers: huge };
    });
    const ids = await client()
      .list({ method: 'GET', path: '/items' }, pageNumberStrategy({ totalPagesHeader: 'x-wp-totalpages' }), {
        concurrency: 4,
      })
      .toArray();
    expect(ids).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('concurrent pages with the same items again end with a PaginationError', async () => {
    serve(() => ({ body: [{ id: 1 }], headers: huge }));
    const error = await client()
      .list({ method: 'GET', path: '/items' }, pageNumberStrategy({ totalPagesHeader: 'x-wp-totalpages' }), {
        concurrency: 4,
      })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect((error as PaginationError).message).toContain('same 1 items');
  });
});
