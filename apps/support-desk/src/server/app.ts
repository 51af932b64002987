import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { DeskContext } from './context.js';
import { errorResponse, HttpError } from './errors.js';
import { callRoutes } from './routes/calls.js';
import { dataRoutes } from './routes/data.js';
import { liveCallRoutes } from './routes/live-calls.js';
import { realtimeRoutes } from './routes/realtime.js';
import { storefrontRoutes } from './routes/storefront.js';
import { webhookRoutes } from './routes/webhooks.js';

/** Form and JSON bodies of the page's own requests (recordings and webhooks have their own limits). */
const MAX_FORM_BYTES = 64 * 1024;

/** The HTTP surface: `/api/*` for the page and the services' webhooks, and the built page when given. */
export function createApp(desk: DeskContext): Hono {
  const app = new Hono();
  const formLimit = bodyLimit({
    maxSize: MAX_FORM_BYTES,
    onError: () => {
      throw new HttpError(413, `request body larger than ${MAX_FORM_BYTES} bytes`, 'too_large');
    },
  });
  app.use('/api/realtime/*', formLimit);
  app.use('/api/calls/sample', formLimit);
  app.use('/api/live-calls/*', formLimit);
  app.use('/api/live-calls', formLimit);

  dataRoutes(app, desk);
  callRoutes(app, desk);
  liveCallRoutes(app, desk);
  realtimeRoutes(app, desk);
  webhookRoutes(app, desk);
  storefrontRoutes(app, desk);
  app.all('/api/*', (c) => {
    throw new HttpError(404, `no route ${c.req.method} ${c.req.path}`, 'not_found');
  });

  const { staticDir } = desk.config;
  if (staticDir) {
    app.use('/*', serveStatic({ root: staticDir }));
    // Anything else is the single page itself.
    app.get('*', async (c) => c.html(await readFile(join(staticDir, 'index.html'), 'utf8')));
  }

  app.onError((error, c) => {
    const { status, body, log, headers } = errorResponse(error);
    if (log)
      desk.logger.error(`${c.req.method} ${c.req.path}: ${error instanceof Error ? error.stack : error}`);
    return c.json(body, status as 400, headers);
  });
  return app;
}
