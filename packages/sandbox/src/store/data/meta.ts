import { isPlainObject } from '../runtime/values.js';
import type { Meta } from './rows.js';
import type { Store } from './store.js';
import { nextId } from './tables.js';

/**
 * The positions of rows sharing one id or one key, smallest first. Removals are lazy (a popped position is
 * checked against the row still there), so every write costs a logarithm instead of a scan of the list.
 */
class Positions {
  private readonly heap: number[] = [];

  push(pos: number): void {
    const h = this.heap;
    h.push(pos);
    for (let i = h.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (h[parent]! <= h[i]!) break;
      [h[parent], h[i]] = [h[i]!, h[parent]!];
      i = parent;
    }
  }

  /** The smallest position for which `live` holds, dropping the stale ones above it. */
  first(live: (pos: number) => boolean): number {
    const h = this.heap;
    while (h.length > 0 && !live(h[0]!)) {
      const last = h.pop()!;
      if (h.length === 0) break;
      h[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && h[l]! < h[m]!) m = l;
        if (r < h.length && h[r]! < h[m]!) m = r;
        if (m === i) break;
        [h[m], h[i]] = [h[i]!, h[m]!];
        i = m;
      }
    }
    return h.length > 0 ? h[0]! : -1;
  }
}

function positionsOf<K>(map: Map<K, Positions>, key: K): Positions {
  let p = map.get(key);
  if (!p) {
    p = new Positions();
    map.set(key, p);
  }
  return p;
}

/**
 * `meta_data` writes as WC_Data::set_meta_data() takes them: an entry updates the one with its `id` (else its
 * `key`), a `null` value deletes it, a new key gets the next meta id. Rows are found through indexes by id
 * and by key (the first one in order wins), so a body of many thousand entries is not quadratic work that
 * would hold every other client's request.
 */
export function applyMeta(store: Store, existing: Meta[], incoming: unknown): Meta[] {
  if (!Array.isArray(incoming)) return existing;
  const rows: (Meta | undefined)[] = [...existing];
  const byId = new Map<unknown, Positions>();
  const byKey = new Map<unknown, Positions>();
  rows.forEach((row, pos) => {
    positionsOf(byId, row!.id).push(pos);
    positionsOf(byKey, row!.key).push(pos);
  });
  const find = (map: Map<unknown, Positions>, field: 'id' | 'key', value: unknown): number =>
    map.get(value)?.first((pos) => rows[pos]?.[field] === value) ?? -1;
  for (const m of incoming) {
    if (!isPlainObject(m) || typeof m.key !== 'string') continue;
    const withId = typeof m.id === 'number' ? find(byId, 'id', m.id) : -1;
    const idx = withId >= 0 ? withId : find(byKey, 'key', m.key);
    if (m.value === null || m.value === undefined) {
      if (idx >= 0 && m.value === null) rows[idx] = undefined;
      continue;
    }
    if (idx >= 0) {
      const row = rows[idx]!;
      if (row.key !== m.key) positionsOf(byKey, m.key).push(idx);
      rows[idx] = { ...row, key: m.key, value: m.value };
    } else {
      const row = { id: nextId(store.state, 'meta'), key: m.key, value: m.value };
      positionsOf(byId, row.id).push(rows.length);
      positionsOf(byKey, row.key).push(rows.length);
      rows.push(row);
    }
  }
  return rows.filter((row): row is Meta => row !== undefined);
}
