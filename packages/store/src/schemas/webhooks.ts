import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { collectionParams, links, wcDate } from './common.js';

export const webhookStatus = openEnum(['active', 'paused', 'disabled']);

export const webhook = z.looseObject({
  id: z.number(),
  name: z.string(),
  status: webhookStatus,
  topic: z.string(),
  resource: z.string(),
  event: z.string(),
  hooks: z.optional(z.array(z.string())),
  delivery_url: z.string(),
  date_created: wcDate,
  date_created_gmt: wcDate,
  date_modified: wcDate,
  date_modified_gmt: wcDate,
  _links: links,
});
export type Webhook = z.infer<typeof webhook>;

const webhookFields = {
  name: z.string(),
  status: webhookStatus,
  topic: z
    .string()
    .check(
      z.regex(
        /^(coupon|customer|order|product)\.(created|updated|deleted|restored)$|^product\.published$|^action\..+/,
        'expected a topic such as "order.created" or "action.<hook>"',
      ),
    ),
  delivery_url: z.url(),
  secret: z.string(),
  api_version: z.optional(openEnum(['wp_api_v3', 'wp_api_v2', 'wp_api_v1', 'legacy_v3'])),
};
export const webhookCreateInput = z.looseObject({
  ...z.partial(z.looseObject(webhookFields)).shape,
  topic: webhookFields.topic,
  delivery_url: webhookFields.delivery_url,
});
export type WebhookCreateInput = z.input<typeof webhookCreateInput>;
export const webhookUpdateInput = z.partial(z.looseObject(webhookFields));
export type WebhookUpdateInput = z.input<typeof webhookUpdateInput>;
export const webhookListParams = z.looseObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  status: z.optional(openEnum(['all', 'active', 'paused', 'disabled'])),
});
export type WebhookListParams = z.input<typeof webhookListParams>;
