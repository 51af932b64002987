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
/** A webhook subscription: deliveries of `topic` to `delivery_url`, signed with its secret. */
export interface Webhook extends z.infer<typeof webhook> {}

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
const webhookCreateShape = z.strictObject({
  ...z.partial(z.strictObject(webhookFields)).shape,
  topic: webhookFields.topic,
  delivery_url: webhookFields.delivery_url,
});
export interface WebhookCreateInput extends z.input<typeof webhookCreateShape> {}
export const webhookCreateInput: z.ZodMiniType<WebhookCreateInput, WebhookCreateInput> = webhookCreateShape;
const webhookUpdateShape = z.partial(z.strictObject(webhookFields));
export interface WebhookUpdateInput extends z.input<typeof webhookUpdateShape> {}
export const webhookUpdateInput: z.ZodMiniType<WebhookUpdateInput, WebhookUpdateInput> = webhookUpdateShape;
const webhookListShape = z.strictObject({
  ...collectionParams,
  orderby: z.optional(openEnum(['date', 'id', 'include', 'title', 'slug', 'modified'])),
  status: z.optional(openEnum(['all', 'active', 'paused', 'disabled'])),
});
export interface WebhookListParams extends z.input<typeof webhookListShape> {}
export const webhookListParams: z.ZodMiniType<WebhookListParams, WebhookListParams> = webhookListShape;
