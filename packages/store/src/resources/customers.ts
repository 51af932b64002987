import type { BaseClient } from '@x/core';
import {
  customer,
  customerCreateInput,
  customerListParams,
  customerUpdateInput,
} from '../schemas/customers.js';
import { Collection } from './collection.js';

/** Customers cannot be trashed: `delete` always sends `force=true` (pass `reassign` to keep their posts). */
export class Customers extends Collection<
  typeof customer,
  typeof customerCreateInput,
  typeof customerUpdateInput,
  typeof customerListParams
> {
  constructor(client: BaseClient) {
    super(client, '/customers', {
      item: customer,
      create: customerCreateInput,
      update: customerUpdateInput,
      list: customerListParams,
      name: 'customers',
      trashable: false,
    });
  }
}
