import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Taxes {
  constructor(_context: StoreContext) {}
}
