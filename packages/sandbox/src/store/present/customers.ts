import { createHash } from 'node:crypto';
import type { CustomerRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { wcDate } from '../runtime/values.js';

export function presentCustomer(store: Store, c: CustomerRec): Record<string, unknown> {
  const hash = createHash('md5').update(c.email.trim().toLowerCase()).digest('hex');
  return {
    id: c.id,
    date_created: wcDate(c.created),
    date_created_gmt: wcDate(c.created),
    date_modified: wcDate(c.modified),
    date_modified_gmt: wcDate(c.modified),
    email: c.email,
    first_name: c.first_name,
    last_name: c.last_name,
    role: c.role,
    username: c.username,
    billing: c.billing,
    shipping: c.shipping,
    is_paying_customer: c.is_paying_customer,
    avatar_url: `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`,
    meta_data: c.meta_data,
    _links: {
      self: [{ href: store.restUrl(`/customers/${c.id}`) }],
      collection: [{ href: store.restUrl('/customers') }],
    },
  };
}
