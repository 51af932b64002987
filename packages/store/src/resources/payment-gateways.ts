import type { StoreContext } from './collection.js';

/** Not served yet. */
export class PaymentGateways {
  constructor(_context: StoreContext) {}
}
