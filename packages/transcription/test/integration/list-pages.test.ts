import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaginationError, TranscriptionClient, XError } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

const KEY = 'aai-list-key-0123456789';

let server: ScriptedServer;
let client: TranscriptionClient;

beforeAll(async () => {
  server = await scriptedServer();
  client = new TranscriptionClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false, logLevel: 'off' });
});
afterAll(() => server?.close());

function item(id: string) {
  return {
    id,
    resource_url: `${server.url}/v2/transcript/${id}`,
    status: 'completed',
    created: '2026-11-20T10:00:00.123456',
    completed: '2026-11-20T10:00:09',
    audio_url: 'https://example.com/a.mp3',
    error: null,
  };
}

/** A list page as the service shapes it; `prev` is the older page's query, or null on the last page. */
function page(ids: string[], prev: string | null) {
  return {
    page_details: {
      limit: 2,
      result_count: ids.length,
      current_url: `${server.url}/v2/transcript?limit=2`,
      prev_url: prev === null ? null : `${server.url}/v2/transcript?${prev}`,
      next_url: null,
    },
    transcripts: ids.map(item),
  };
}

/** Answers by `before_id`; `pages` maps it (empty for the first page) to a body. */
function serve(pages: Record<string, unknown>) {
  server.handler = (req, res) => {
    const before = new URL(req.url, server.url).searchParams.get('before_id') ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(pages[before] ?? page([], null)));
  };
}

describe('transcripts.list() auto-pagination', () => {
  it('follows prev_url to the end', async () => {
    serve({
      '': page(['t4', 't3'], 'limit=2&before_id=t3'),
      t3: page(['t2', 't1'], 'limit=2&before_id=t1'),
      t1: page([], null),
    });
    const ids = (await client.transcripts.list({ limit: 2 }).toArray()).map((t) => t.id);
    expect(ids).toEqual(['t4', 't3', 't2', 't1']);
  });

  it('ends with a PaginationError when prev_url repeats, after a bounded number of requests', async () => {
    serve({
      '': page(['t4', 't3'], 'limit=2&before_id=t3'),
      // A broken server: the older page links to itself.
      t3: page(['t2', 't1'], 'limit=2&before_id=t3'),
    });
    const start = server.seen.length;
    const seen: string[] = [];
    const error = await (async () => {
      for await (const t of client.transcripts.list({ limit: 2 })) seen.push(t.id);
    })().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(error).toBeInstanceOf(XError);
    expect((error as Error).message).toMatch(/already fetched|loop/);
    expect((error as Error).message).not.toContain(KEY);
    expect(seen).toEqual(['t4', 't3', 't2', 't1']);
    expect(server.seen.length - start).toBe(2);
  });

  it('ends with a PaginationError when the server serves the same page for every cursor', async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(page(['t9', 't8'], `limit=2&before_id=t8&n=${server.seen.length}`)));
    };
    const start = server.seen.length;
    const error = await client.transcripts
      .list({ limit: 2 })
      .toArray()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PaginationError);
    expect(server.seen.length - start).toBe(2);
  });
});
