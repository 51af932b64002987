import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Reviews {
  constructor(_context: StoreContext) {}
}
