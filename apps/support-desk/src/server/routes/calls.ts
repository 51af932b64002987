import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { Hono } from 'hono';
import * as z from 'zod/mini';
import type { CallView } from '../../shared/api.js';
import { type CallRecord, detail, view } from '../calls/registry.js';
import type { DeskContext } from '../context.js';
import { HttpError, parseInput } from '../errors.js';
import { sampleCallScript } from '../sample-call.js';
import { SPEECH_MISSING, synthesize } from '../speech.js';

const DEFAULT_MAX_UPLOAD = 100 * 1024 * 1024;

const uploadQuery = z.object({
  name: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
});
const AUDIO_TYPE = /^(?:audio\/|video\/|application\/octet-stream)/;

const sampleBody = z.strictObject({
  orderId: z.optional(z.number().check(z.int(), z.positive())),
  mood: z.optional(z.enum(['unhappy', 'happy'])),
});

const callParams = z.object({ id: z.string().check(z.regex(/^[0-9a-f-]{36}$/, 'expected a call id')) });

/** Streams the request body to a new temp file, refusing it past `max` bytes. */
async function receive(
  body: ReadableStream<Uint8Array>,
  max: number,
): Promise<{ path: string; bytes: number }> {
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-upload-'));
  const path = join(dir, 'recording');
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > max) done(new HttpError(413, `the recording is larger than ${max} bytes`, 'too_large'));
      else done(null, chunk);
    },
  });
  try {
    await pipeline(
      Readable.fromWeb(body as NodeReadableStream<Uint8Array>),
      counter,
      createWriteStream(path),
    );
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  if (bytes === 0) {
    await rm(dir, { recursive: true, force: true });
    throw new HttpError(400, 'the recording is empty', 'empty_upload');
  }
  return { path, bytes };
}

/**
 * The call for the recording at `path`, or, when the database refuses it (down, or the call too large to
 * store), the recording's temp directory deleted before the error goes on: nothing else would delete it.
 */
async function createOrDiscard(
  desk: DeskContext,
  name: string,
  source: CallView['source'],
  path: string,
): Promise<CallRecord> {
  try {
    return await desk.registry.create(name, source);
  } catch (error) {
    await rm(dirname(path), { recursive: true, force: true });
    throw error;
  }
}

/** Uploading a recording, generating a sample call, and reading calls back. */
export function callRoutes(app: Hono, desk: DeskContext): void {
  const max = desk.config.maxUploadBytes ?? DEFAULT_MAX_UPLOAD;

  app.get('/api/calls', async (c) => c.json({ calls: await desk.registry.list() }));

  app.get('/api/calls/:id', async (c) => {
    const { id } = parseInput(callParams, c.req.param(), 'call id');
    const call = await desk.registry.get(id);
    if (!call) throw new HttpError(404, `no call ${id} (only the newest calls are kept)`, 'not_found');
    return c.json(detail(call, desk.live.transcript(id)));
  });

  app.post('/api/calls', async (c) => {
    const { name } = parseInput(uploadQuery, c.req.query(), 'upload');
    const type = c.req.header('content-type') ?? '';
    if (!AUDIO_TYPE.test(type)) {
      throw new HttpError(415, `expected an audio file, got content-type "${type || 'none'}"`, 'not_audio');
    }
    const length = Number(c.req.header('content-length'));
    if (length > max) throw new HttpError(413, `the recording is larger than ${max} bytes`, 'too_large');
    const body = c.req.raw.body;
    if (!body) throw new HttpError(400, 'the recording is empty', 'empty_upload');
    const { path } = await receive(body, max);
    const call = await createOrDiscard(desk, name, 'upload', path);
    desk.pipeline.start(call, path, true);
    return c.json({ call: view(call) }, 202);
  });

  app.post('/api/calls/sample', async (c) => {
    const input = parseInput(sampleBody, await c.req.json().catch(() => ({})), 'sample call');
    if (!desk.speech) throw new HttpError(503, SPEECH_MISSING, 'speech_unavailable');
    const { store } = desk.services;
    const order =
      input.orderId !== undefined
        ? await store.orders.get(input.orderId)
        : await store.orders.list({ per_page: 10, orderby: 'date', order: 'desc' }).then((page) => {
            const withCustomer = page.data.find((o) => (o.customer_id ?? 0) > 0);
            return withCustomer ?? page.data[0];
          });
    if (!order) throw new HttpError(409, 'the store has no orders to call about', 'no_orders');
    const number = String(order.number ?? order.id);
    const script = sampleCallScript({
      orderNumber: number,
      firstName: order.billing?.first_name ?? '',
      lastName: order.billing?.last_name ?? '',
      mood: input.mood ?? 'unhappy',
    });
    const path = await synthesize(desk.speech, script);
    const call = await createOrDiscard(desk, `Sample call about order #${number}`, 'sample', path);
    desk.pipeline.start(call, path, true);
    return c.json({ call: view(call), script }, 202);
  });
}
