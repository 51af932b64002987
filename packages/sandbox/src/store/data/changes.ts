import { isPlainObject } from '../runtime/values.js';
import { COLLECTIONS, type Collection, type Sequences, type StoreState } from './tables.js';

/**
 * One journal entry: the records a write left behind (a deleted one by id) and the id sequences after it.
 * Whole records, not field changes, so replaying an entry twice is harmless and the last entry for a record wins.
 */
export interface ChangeEntry {
  seq: Sequences;
  put?: Partial<Record<Collection, { id: number }[]>>;
  del?: Partial<Record<Collection, number[]>>;
}

/**
 * The records touched since the last commit. Model writes mark every record they change (marking one too many
 * only writes it again); `everything` (a reset, a seed) asks for a whole snapshot instead of an entry.
 */
export class Changes {
  private touched = new Map<Collection, Set<number>>();
  everything = false;

  mark(collection: Collection, id: number): void {
    const ids = this.touched.get(collection);
    if (ids) ids.add(id);
    else this.touched.set(collection, new Set([id]));
  }

  clear(): void {
    this.touched.clear();
    this.everything = false;
  }

  /** The entry for what was marked, read from the state as it is now; clears the marks. */
  take(state: StoreState): ChangeEntry | null {
    if (this.touched.size === 0) return null;
    const put: NonNullable<ChangeEntry['put']> = {};
    const del: NonNullable<ChangeEntry['del']> = {};
    for (const [collection, ids] of this.touched) {
      const kept: { id: number }[] = [];
      const gone: number[] = [];
      for (const id of ids) {
        const rec = state[collection].get(id);
        if (rec) kept.push(rec);
        else gone.push(id);
      }
      if (kept.length > 0) put[collection] = kept;
      if (gone.length > 0) del[collection] = gone;
    }
    this.touched.clear();
    return { seq: { ...state.seq }, put, del };
  }
}

function isCollection(name: string): name is Collection {
  return (COLLECTIONS as readonly string[]).includes(name);
}

/** Replays one journal entry onto `state`; throws a description of what is wrong with a malformed one. */
export function applyEntry(state: StoreState, entry: unknown): void {
  if (!isPlainObject(entry) || !isPlainObject(entry.seq)) throw new Error('the entry has no id sequences');
  const seq = entry.seq;
  for (const key of Object.keys(state.seq) as (keyof Sequences)[]) {
    const n = seq[key];
    if (n === undefined) continue;
    if (!Number.isSafeInteger(n) || (n as number) < 0) throw new Error(`seq.${key} is not a count`);
    // Ids are never handed out twice: a sequence only moves forward.
    state.seq[key] = Math.max(state.seq[key], n as number);
  }
  for (const [part, lists] of [
    ['put', entry.put],
    ['del', entry.del],
  ] as const) {
    if (lists === undefined) continue;
    if (!isPlainObject(lists)) throw new Error(`${part} is not an object`);
    for (const [name, list] of Object.entries(lists)) {
      if (!isCollection(name)) throw new Error(`${part} names an unknown collection "${name}"`);
      if (!Array.isArray(list)) throw new Error(`${part}.${name} is not a list`);
      const map = state[name] as Map<number, unknown>;
      for (const item of list) {
        if (part === 'del') {
          if (!Number.isSafeInteger(item))
            throw new Error(`del.${name} holds a non-id ${JSON.stringify(item)}`);
          map.delete(item as number);
        } else {
          if (!isPlainObject(item) || !Number.isSafeInteger(item.id))
            throw new Error(`put.${name} holds a record without a numeric id`);
          map.set(item.id as number, item);
        }
      }
    }
  }
}
