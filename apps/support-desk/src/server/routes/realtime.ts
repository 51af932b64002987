import type { Hono } from 'hono';
import * as z from 'zod/mini';
import { DESK_CHANNEL } from '../../shared/api.js';
import type { DeskContext } from '../context.js';
import { HttpError, parseInput } from '../errors.js';

const authBody = z.object({
  socket_id: z.string().check(z.regex(/^\d+\.\d+$/, 'expected a socket id such as "123.456"')),
  channel_name: z.string().check(z.maxLength(164)),
});

/**
 * Channel authorization for the page's `RealtimeClient` (pusher-js's form POST): only the desk's own
 * private channel, signed with the app secret, which never leaves the server.
 */
export function realtimeRoutes(app: Hono, desk: DeskContext): void {
  app.post('/api/realtime/auth', async (c) => {
    const form = await c.req.parseBody();
    const { socket_id, channel_name } = parseInput(authBody, form, 'channel authorization');
    if (channel_name !== DESK_CHANNEL) {
      throw new HttpError(403, `only ${DESK_CHANNEL} is authorised here`, 'forbidden_channel');
    }
    return c.json(await desk.services.realtime.authorizeChannel(socket_id, channel_name));
  });
}
