import { beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { BaseClient, cursorStrategy, pageNumberStrategy, ValidationError } from '../../src/index.js';
import { useFaultServer } from '../helpers/fault-server.js';

const TOTAL = 95;
const PER_PAGE = 10;
const item = z.looseObject({ id: z.number() });

const server = useFaultServer();
let client: BaseClient;

/** Answers every request like a paged API: `?page=N` with WordPress headers, or `?cursor=N` with a next_url. */
function pagedReply(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) {
  const url = new URL(req.url ?? '/', server.url);
  const ids = Array.from({ length: TOTAL }, (_, i) => i + 1);
  if (url.pathname === '/items') {
    const page = Number(url.searchParams.get('page') ?? 1);
    const slice = ids.slice((page - 1) * PER_PAGE, page * PER_PAGE).map((id) => ({ id }));
    res.writeHead(200, {
      'content-type': 'application/json',
      'x-wp-total': String(TOTAL),
      'x-wp-totalpages': String(Math.ceil(TOTAL / PER_PAGE)),
    });
    // Later pages answer faster than earlier ones, so out-of-order completion would show up in the order of results.
    setTimeout(() => res.end(JSON.stringify(slice)), Math.max(0, 30 - page * 3));
    return;
  }
  const cursor = Number(url.searchParams.get('cursor') ?? 0);
  const slice = ids.slice(cursor, cursor + PER_PAGE).map((id) => ({ id }));
  const next =
    cursor + PER_PAGE < TOTAL ? `${server.url}/cursor?cursor=${cursor + PER_PAGE}&limit=${PER_PAGE}` : null;
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ items: slice, page_details: { next_url: next } }));
}

beforeAll(() => {
  client = new BaseClient(
    { baseURL: server.url, rateLimit: false },
    { packageName: '@x/test', packageVersion: '0.0.0' },
  );
});

/** One reply per request of a test (the server starts each test with none queued and none recorded). */
function queueReplies(n: number) {
  for (let i = 0; i < n; i++) server.replies.push(pagedReply);
}

const byNumber = pageNumberStrategy<{ id: number }>({
  totalHeader: 'x-wp-total',
  totalPagesHeader: 'x-wp-totalpages',
});
const listSpec = {
  method: 'GET' as const,
  path: '/items',
  query: { per_page: PER_PAGE },
  schema: z.array(item),
};

describe('page-number pagination', () => {
  it('awaiting gives the first page with totals', async () => {
    queueReplies(1);
    const page = await client.list(listSpec, byNumber);
    expect(page.data.map((x) => x.id)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(page.total).toBe(TOTAL);
    expect(page.totalPages).toBe(10);
    expect(page.hasNextPage()).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('for await walks every item of every page exactly once, in order', async () => {
    queueReplies(10);
    const ids: number[] = [];
    for await (const x of client.list(listSpec, byNumber)) ids.push(x.id);
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(server.requests.map((r) => new URL(r.url, server.url).searchParams.get('page'))).toEqual([
      null,
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
      '8',
      '9',
      '10',
    ]);
  });

  it('concurrent page fetching keeps the order and asks for each page once', async () => {
    queueReplies(10);
    const ids = await client.list(listSpec, byNumber, { concurrency: 4 }).toArray();
    expect(ids.map((x) => x.id)).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    const pages = server.requests.map((r) => new URL(r.url, server.url).searchParams.get('page') ?? '1');
    expect(new Set(pages).size).toBe(10);
  });
});

describe('cursor pagination', () => {
  it('never follows a next URL to another origin with our credentials', async () => {
    queueReplies(0);
    const strategy = cursorStrategy<{ id: number }>({
      items: (body) => (body as { items: { id: number }[] }).items,
      nextUrl: () => 'http://198.51.100.7/steal?cursor=10',
    });
    server.replies.push({ json: { items: [{ id: 1 }] } });
    const pages = client.list({ method: 'GET', path: '/cursor' }, strategy).pages();
    expect((await pages.next()).value?.data).toEqual([{ id: 1 }]);
    const error = await pages.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).message).toContain('http://198.51.100.7 is not the API');
    expect(server.requests).toHaveLength(1);
  });

  it('follows next_url until it is null', async () => {
    queueReplies(10);
    const strategy = cursorStrategy<{ id: number }>({
      items: (body) => (body as { items: { id: number }[] }).items,
      nextUrl: (body) => (body as { page_details: { next_url: string | null } }).page_details.next_url,
    });
    const ids: number[] = [];
    for await (const x of client.list({ method: 'GET', path: '/cursor' }, strategy)) ids.push(x.id);
    expect(ids).toEqual(Array.from({ length: TOTAL }, (_, i) => i + 1));
    expect(server.requests).toHaveLength(10);
  });
});
