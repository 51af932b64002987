import type { Store } from '../model/store.js';
import type { Router } from '../wp/router.js';

/** Not served yet. */
export function registerReports(_router: Router, _store: Store): void {}
