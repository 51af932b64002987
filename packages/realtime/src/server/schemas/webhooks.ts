import * as z from 'zod/mini';

/** The events Pusher posts to an app's webhook URL (pusher.com/docs/channels/server_api/webhooks). */
const channelEvent = <N extends string>(name: N) =>
  z.looseObject({ name: z.literal(name), channel: z.string() });

export const channelOccupied = channelEvent('channel_occupied');
export const channelVacated = channelEvent('channel_vacated');
export const memberAdded = z.extend(channelEvent('member_added'), { user_id: z.string() });
export const memberRemoved = z.extend(channelEvent('member_removed'), { user_id: z.string() });
/** `data` is what the client sent (an object in soketi's webhooks, a string in Pusher's docs). */
export const clientEvent = z.extend(channelEvent('client_event'), {
  event: z.string(),
  data: z.unknown(),
  socket_id: z.string(),
  user_id: z.optional(z.string()),
});
export const cacheMiss = channelEvent('cache_miss');
export const subscriptionCount = z.extend(channelEvent('subscription_count'), {
  subscription_count: z.number(),
});

export const webhookEvent = z.discriminatedUnion('name', [
  channelOccupied,
  channelVacated,
  memberAdded,
  memberRemoved,
  clientEvent,
  cacheMiss,
  subscriptionCount,
]);
export type WebhookEvent = z.infer<typeof webhookEvent>;
export type WebhookEventName = WebhookEvent['name'];

/** An event whose name this SDK does not know yet (kept, not rejected: the service may add kinds). */
export const unknownWebhookEvent = z.looseObject({ name: z.string() });
export type UnknownWebhookEvent = z.infer<typeof unknownWebhookEvent>;

/** The body as posted: `{ time_ms, events }`; more than one event when batch webhooks are enabled. */
export const webhookBody = z.looseObject({
  time_ms: z.number(),
  events: z.array(unknownWebhookEvent),
});
