import { isPlainObject } from '../values.js';
import type { Meta } from './records.js';
import { nextId } from './state.js';
import type { Store } from './store.js';

/**
 * `meta_data` writes as WC_Data::set_meta_data() takes them: an entry updates the one with its `id` (else its
 * `key`), a `null` value deletes it, a new key gets the next meta id.
 */
export function applyMeta(store: Store, existing: Meta[], incoming: unknown): Meta[] {
  if (!Array.isArray(incoming)) return existing;
  const out = [...existing];
  for (const m of incoming) {
    if (!isPlainObject(m) || typeof m.key !== 'string') continue;
    const byId = typeof m.id === 'number' ? out.findIndex((x) => x.id === m.id) : -1;
    const idx = byId >= 0 ? byId : out.findIndex((x) => x.key === m.key);
    if (m.value === null || m.value === undefined) {
      if (idx >= 0 && m.value === null) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = { ...out[idx]!, key: m.key, value: m.value };
    else out.push({ id: nextId(store.state, 'meta'), key: m.key, value: m.value });
  }
  return out;
}
