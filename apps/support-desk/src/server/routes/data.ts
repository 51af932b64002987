import type { Hono } from 'hono';
import * as z from 'zod/mini';
import { DESK_CHANNEL, type DeskConfig } from '../../shared/api.js';
import { DEFAULT_STREAMING_MODEL, websocketBase } from '../config.js';
import type { DeskContext } from '../context.js';
import { parseInput } from '../errors.js';
import { customerSummary, orderSummary } from '../present.js';
import { SPEECH_MISSING } from '../speech.js';

const listQuery = z.object({
  limit: z.optional(z.string().check(z.regex(/^(?:[1-9]|[1-4]\d|50)$/, 'expected a number from 1 to 50'))),
});

/** What the page reads: its settings (no secrets), recent orders and customers from the store. */
export function dataRoutes(app: Hono, desk: DeskContext): void {
  app.get('/api/config', (c) => {
    const body: DeskConfig = {
      channel: DESK_CHANNEL,
      realtime: desk.config.realtime.client,
      speech: desk.speech
        ? { available: true, tool: desk.speech.name, missing: null }
        : { available: false, tool: null, missing: SPEECH_MISSING },
      live: {
        streamingUrl: websocketBase(desk.config.transcription.streamingBaseUrl),
        speechModel: desk.config.transcription.streamingModel ?? DEFAULT_STREAMING_MODEL,
      },
      services: desk.config.labels ?? { store: 'store', transcription: 'AssemblyAI', realtime: 'Pusher' },
    };
    return c.json(body);
  });

  app.get('/api/orders', async (c) => {
    const { limit } = parseInput(listQuery, c.req.query(), 'query');
    const page = await desk.services.store.orders.list({
      per_page: Number(limit ?? 15),
      orderby: 'date',
      order: 'desc',
    });
    return c.json({ orders: page.data.map(orderSummary) });
  });

  app.get('/api/customers', async (c) => {
    const { limit } = parseInput(listQuery, c.req.query(), 'query');
    const page = await desk.services.store.customers.list({
      per_page: Number(limit ?? 10),
      orderby: 'registered_date',
      order: 'desc',
    });
    return c.json({ customers: page.data.map(customerSummary) });
  });
}
