import type { StoreContext } from './collection.js';

/** Not served yet. */
export class ShippingZones {
  constructor(_context: StoreContext) {}
}
