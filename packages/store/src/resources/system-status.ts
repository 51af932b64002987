import type { StoreContext } from './collection.js';

/** Not served yet. */
export class SystemStatus {
  constructor(_context: StoreContext) {}
}
