import type { StoreContext } from './collection.js';

/** Not served yet. */
export class ShippingMethods {
  constructor(_context: StoreContext) {}
}
