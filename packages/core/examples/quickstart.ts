/**
 * A complete client for a small JSON API, on @x/core: run with `pnpm --filter @x/core example`.
 * The API is served here on a loopback port so the example runs anywhere, offline.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  BaseClient,
  bearerAuth,
  NotFoundError,
  pageNumberStrategy,
  parseInput,
  ValidationError,
} from '@x/core';
import * as z from 'zod/mini';

const notes = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, text: `note ${i + 1}` }));
const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': 'application/json',
      'x-request-id': `req_${Date.now()}`,
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  if (req.headers.authorization !== 'Bearer demo-token')
    return json(401, { code: 'unauthorized', message: 'Bad token.' });
  const one = /^\/notes\/(\d+)$/.exec(url.pathname);
  if (one) {
    const note = notes.find((n) => n.id === Number(one[1]));
    return note ? json(200, note) : json(404, { code: 'not_found', message: `No note ${one[1]}.` });
  }
  const page = Number(url.searchParams.get('page') ?? 1);
  const perPage = Number(url.searchParams.get('per_page') ?? 10);
  json(200, notes.slice((page - 1) * perPage, page * perPage), {
    'x-total': String(notes.length),
    'x-total-pages': String(Math.ceil(notes.length / perPage)),
  });
});
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

const Note = z.looseObject({ id: z.number(), text: z.string() });
const ListParams = z.object({
  per_page: z.optional(z.number().check(z.int(), z.minimum(1), z.maximum(100))),
});

class NotesClient extends BaseClient {
  constructor(baseURL: string, token: string) {
    super(
      { baseURL, auth: bearerAuth(token), rateLimit: { limit: 20, interval: '1s' } },
      { packageName: 'notes-client', packageVersion: '1.0.0' },
    );
  }
  getNote(id: number) {
    return this.request({ method: 'GET', path: `/notes/${id}`, schema: Note, what: 'notes.get' });
  }
  listNotes(params: z.input<typeof ListParams> = {}) {
    const strategy = pageNumberStrategy<z.infer<typeof Note>>({
      totalHeader: 'x-total',
      totalPagesHeader: 'x-total-pages',
    });
    // A builder, so invalid params reject the returned promise before any request is sent.
    const spec = () => ({
      method: 'GET' as const,
      path: '/notes',
      query: parseInput(ListParams, params, 'notes.list params'),
      schema: z.array(Note),
    });
    return this.list(spec, strategy);
  }
}

const client = new NotesClient(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, 'demo-token');
const { data, requestId } = await client.getNote(3).withResponse();
console.log(`note 3: ${data.text} (request_id=${requestId})`);

const first = await client.listNotes({ per_page: 10 });
console.log(`${first.total} notes in ${first.totalPages} pages`);
let count = 0;
for await (const _note of client.listNotes({ per_page: 10 })) count++;
console.log(`walked ${count} notes`);

await client.getNote(99).catch((error: unknown) => {
  if (error instanceof NotFoundError) console.log(`${error.name}: ${error.message}`);
});
await client.listNotes({ per_page: 500 }).catch((error: unknown) => {
  if (error instanceof ValidationError) console.log(`${error.name}: ${error.message}`);
});
server.close();
