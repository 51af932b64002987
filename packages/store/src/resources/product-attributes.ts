import type { StoreContext } from './collection.js';

/** Not served yet. */
export class ProductAttributes {
  constructor(_context: StoreContext) {}
}
