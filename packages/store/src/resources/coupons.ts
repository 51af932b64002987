import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Coupons {
  constructor(_context: StoreContext) {}
}
