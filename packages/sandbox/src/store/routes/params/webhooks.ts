import type { Specs } from '../../rest/params.js';
import { WEBHOOK_STATUSES } from '../../webhooks/webhooks.js';
import { collectionSpecs } from './common.js';

export const WEBHOOK_SPECS: Specs = {
  name: { type: 'string' },
  status: { type: 'string', enum: WEBHOOK_STATUSES },
  topic: { type: 'string' },
  delivery_url: { type: 'string' },
  secret: { type: 'string' },
};

export const WEBHOOK_CREATE_SPECS: Specs = {
  ...WEBHOOK_SPECS,
  topic: { type: 'string', required: true },
  delivery_url: { type: 'string', required: true },
};

export const WEBHOOK_LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'title']),
  status: { type: 'string', enum: ['all', ...WEBHOOK_STATUSES] },
};

/**
 * WC_REST_Webhooks_V1_Controller: update_item() changes topic, delivery URL, secret, status and name only when
 * `! empty()`; create_item() never reads the status, so an empty one leaves the default.
 */
export function webhookArgs(p: Record<string, unknown>, creating: boolean): Record<string, unknown> {
  const keys = creating ? ['status'] : ['name', 'topic', 'delivery_url', 'secret', 'status'];
  for (const k of keys) if (p[k] === '') delete p[k];
  return p;
}
