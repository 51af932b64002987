import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Reports {
  constructor(_context: StoreContext) {}
}
