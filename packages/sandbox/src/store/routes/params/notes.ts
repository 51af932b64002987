import type { Specs } from '../../rest/params.js';
import { CONTEXT } from './common.js';

export const NOTE_LIST_SPECS: Specs = {
  context: CONTEXT,
  type: { type: 'string', enum: ['any', 'customer', 'internal'] },
};

export const NOTE_SPECS: Specs = {
  note: { type: 'string', required: true },
  customer_note: { type: 'boolean' },
  added_by_user: { type: 'boolean' },
};
