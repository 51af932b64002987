/**
 * What a typical user of `@x/realtime/server` ships to an edge runtime or a worker: one `RealtimeServer`,
 * a channel auth endpoint, a trigger and a webhook check. size-limit bundles this with esbuild (minified,
 * browser platform, @x/core, ky and zod/mini included) and checks the gzip size against the limit in
 * package.json. Encrypted channels load NaCl on demand, in their own chunk, so it is not counted here.
 */
import { RealtimeServer } from '../dist/server.js';

const pusher = new RealtimeServer({ appId: '123456', key: 'app-key', secret: 'app-secret', cluster: 'eu' });

export async function auth(request: Request): Promise<Response> {
  const form = await request.formData();
  return Response.json(
    await pusher.authorizeChannel(String(form.get('socket_id')), String(form.get('channel_name'))),
  );
}

export async function webhook(request: Request): Promise<Response> {
  const { events } = await pusher.verifyWebhook(await request.text(), request.headers);
  await pusher.trigger('private-orders', 'webhook-events', { count: events.length });
  return new Response(null, { status: 200 });
}
