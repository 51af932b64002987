/** A store model without a server, for unit tests of the rules. */

import { createProduct } from '../../src/store/catalog/products.js';
import { generateKey } from '../../src/store/data/keys.js';
import type { ProductRec } from '../../src/store/data/rows.js';
import { Store } from '../../src/store/data/store.js';

export function makeStore(): Store {
  return new Store(
    { strictHttps: false, rateLimit: false, batchLimit: 100, maxBodyBytes: 1 << 20, seed: 'none' },
    [generateKey('read_write')],
  );
}

/** A simple product; `stock` turns on stock management with that quantity. */
export function product(
  store: Store,
  price: string,
  stock?: number,
  extra: Record<string, unknown> = {},
): ProductRec {
  return createProduct(store, {
    name: `P ${store.state.seq.post + 1}`,
    regular_price: price,
    ...(stock === undefined ? {} : { manage_stock: true, stock_quantity: stock }),
    ...extra,
  });
}
