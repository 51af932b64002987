import * as z from 'zod/mini';

/** Attributes a trigger with `info` asks for, per channel. */
export const channelAttributes = z.looseObject({
  user_count: z.optional(z.number()),
  subscription_count: z.optional(z.number()),
});
export type ChannelAttributes = z.infer<typeof channelAttributes>;

/**
 * `POST /events`: `{}`, or with `info` the attributes of each channel. An empty body is read as `{}`.
 */
export const triggerResult = z._default(
  z.looseObject({ channels: z.optional(z.record(z.string(), channelAttributes)) }),
  {},
);
export type TriggerResult = z.infer<typeof triggerResult>;

/** `POST /batch_events`: `{}`, or with `info` one attributes object per event, in order. */
export const batchResult = z._default(z.looseObject({ batch: z.optional(z.array(channelAttributes)) }), {});
export type BatchResult = z.infer<typeof batchResult>;
