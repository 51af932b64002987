import type { StoreContext } from './collection.js';

/** Not served yet. */
export class Settings {
  constructor(_context: StoreContext) {}
}
