import type { Address } from '../data/rows.js';
import { isPlainObject } from '../runtime/values.js';

export const ADDRESS_FIELDS = [
  'first_name',
  'last_name',
  'company',
  'address_1',
  'address_2',
  'city',
  'state',
  'postcode',
  'country',
] as const;

export function blankAddress(withEmail: boolean): Address {
  const a: Address = {
    first_name: '',
    last_name: '',
    company: '',
    address_1: '',
    address_2: '',
    city: '',
    state: '',
    postcode: '',
    country: '',
    phone: '',
  };
  if (withEmail) return { ...a, email: '' };
  return a;
}

/** Copies the string fields of an address body; a `null` email clears it (billing only has one). */
export function applyAddress(target: Address, incoming: unknown): void {
  if (!isPlainObject(incoming)) return;
  for (const f of [...ADDRESS_FIELDS, 'phone', 'email'] as const) {
    if (f === 'email' && !('email' in target)) continue;
    const v = incoming[f];
    if (typeof v === 'string') target[f] = v;
    else if (v === null && f === 'email') target[f] = '';
  }
}
