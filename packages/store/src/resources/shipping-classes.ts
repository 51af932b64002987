import type { StoreContext } from './collection.js';

/** Not served yet. */
export class ShippingClasses {
  constructor(_context: StoreContext) {}
}
