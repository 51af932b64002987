import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Data {
  constructor(_context: StoreContext) {}
}
