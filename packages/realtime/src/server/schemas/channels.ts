import * as z from 'zod/mini';

/** `GET /channels`: occupied channels by name; `user_count` only when asked for (presence prefixes). */
export const channelList = z.looseObject({
  channels: z.record(
    z.string(),
    z.looseObject({ user_count: z.optional(z.number()), subscription_count: z.optional(z.number()) }),
  ),
});
export type ChannelList = z.infer<typeof channelList>;

/** The last event of a cache channel, when `info=cache` asked for it. */
export const channelCache = z.looseObject({ data: z.string(), ttl: z.optional(z.number()) });

/** `GET /channels/{name}`. */
export const channelInfo = z.looseObject({
  occupied: z.boolean(),
  user_count: z.optional(z.number()),
  subscription_count: z.optional(z.number()),
  cache: z.optional(channelCache),
});
export type ChannelInfo = z.infer<typeof channelInfo>;

/** `GET /channels/{presence-name}/users`. */
export const channelUsers = z.looseObject({
  users: z.array(z.looseObject({ id: z.string() })),
});
export type ChannelUsers = z.infer<typeof channelUsers>;
