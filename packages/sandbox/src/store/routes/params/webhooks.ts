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
