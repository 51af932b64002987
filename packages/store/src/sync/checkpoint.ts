import * as z from 'zod/mini';

/** Orders and products: keyset on `date_modified_gmt`. */
export interface ModifiedCheckpoint {
  v: 1;
  resource: 'orders' | 'products';
  /** A GMT second, `YYYY-MM-DDTHH:MM:SS`: every record modified before it has been seen; null: from the start. */
  modified_gmt: string | null;
  /** The ids seen that were modified at exactly `modified_gmt`. */
  ids: number[];
  /** `[id, date_modified_gmt]` seen that were modified after `modified_gmt` (a stretch read again). */
  ahead?: Array<[number, string]>;
  /** The largest local-GMT offset (seconds) seen since the store's clock last fell back. */
  offset?: number;
  /** The first GMT second seen with a smaller offset than `offset`: local order is not GMT order before it. */
  lower_from?: string;
}

/** Customers: one scan in id order, with `modified_after` compared in the client. */
export interface CustomerCheckpoint {
  v: 1;
  resource: 'customers';
  /** GMT second; the scan yields customers modified after it (strictly); null: every customer. */
  modified_after: string | null;
  /** The last customer id the scan has gone past (0: not started). */
  after_id: number;
  /** How many customers had ids up to `after_id` when last read: where the next page starts. */
  offset: number;
  /** The server's clock (`Date` header) when the scan began: the next scan's `modified_after`. */
  started: string | null;
  /** `[id, date_modified_gmt]` the previous scan yielded after this one's `modified_after`: not yielded again. */
  skip: Array<[number, string]>;
  /** `[id, date_modified_gmt]` this scan yielded that changed after it began: the next scan's `skip`. */
  seen: Array<[number, string]>;
}

/** Plain JSON: persist it anywhere and pass it back as `checkpoint` to resume. */
export type SyncCheckpoint = ModifiedCheckpoint | CustomerCheckpoint;

/** Where a sync keeps its checkpoint between runs: written after each page the caller has finished. */
export interface CheckpointStore {
  get(key: string): SyncCheckpoint | undefined | Promise<SyncCheckpoint | undefined>;
  set(key: string, checkpoint: SyncCheckpoint): void | Promise<void>;
}

/** The default: checkpoints live as long as the client (copies, so a caller cannot change one in place). */
export class MemoryCheckpointStore implements CheckpointStore {
  readonly #saved = new Map<string, string>();
  get(key: string): SyncCheckpoint | undefined {
    const saved = this.#saved.get(key);
    return saved === undefined ? undefined : JSON.parse(saved);
  }
  set(key: string, checkpoint: SyncCheckpoint): void {
    this.#saved.set(key, JSON.stringify(checkpoint));
  }
}

export interface SyncOptions {
  /** Only records modified after this instant (strictly, to the second, as WooCommerce compares). Not with `checkpoint`. */
  modified_after?: string | Date;
  /** Resume here (from `run.checkpoint` or a page's `checkpoint`). Default: the store's checkpoint for `key`. */
  checkpoint?: SyncCheckpoint;
  /** Default: in memory, one per client and resource. */
  checkpointStore?: CheckpointStore;
  /** The checkpoint's name in the store. Default: the resource (`orders`). */
  key?: string;
  /** Records per request, 1 to 100. Default 100. */
  per_page?: number;
}

export interface SyncPage<T> {
  items: T[];
  /** Where the sync stands after this page. */
  checkpoint: SyncCheckpoint;
}

/** 10000-01-01: past it an ISO date needs six digits. */
const MAX_SECONDS = 253402300800;
/** Two days: more than any local-GMT offset, however the store's clock was set. */
const MAX_OFFSET = 172_800;
const SECOND = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const INSTANT = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(\.\d+)?([Zz]|[+-]\d{2}:?\d{2})?$/;
export const toSeconds = (gmt: string): number => Date.parse(`${gmt}Z`) / 1000;
export const fromSeconds = (s: number): string => new Date(s * 1000).toISOString().slice(0, 19);
const gmtSecond = z
  .string()
  .check(
    z.refine(
      (s) => SECOND.test(s) && toSeconds(s) >= 0 && toSeconds(s) < MAX_SECONDS,
      'expected a GMT second YYYY-MM-DDTHH:MM:SS from 1970 on',
    ),
  );
const count = z.number().check(z.int(), z.gte(0), z.lte(Number.MAX_SAFE_INTEGER));
const id = z.number().check(z.int(), z.gte(1), z.lte(Number.MAX_SAFE_INTEGER));
/**
 * How many ids or versions a checkpoint holds (a bound on what a file or store hands back). The sync never
 * writes more: past it, it forgets the versions it would list last, so those come once more (never skipped).
 * @internal Lowered by tests.
 */
export const checkpointLimits = { versions: 100_000 };
const bounded = <T extends z.ZodMiniType>(item: T) =>
  z
    .array(item)
    .check(
      z.refine(
        (list) => list.length <= checkpointLimits.versions,
        'too many entries for a checkpoint (more than the sync writes)',
      ),
    );
const versions = bounded(z.tuple([id, gmtSecond]));

/** An RFC 3339 date-time (no offset: GMT), or a Date, to whole seconds; NaN when it is neither. */
export function instantSeconds(value: string | Date): number {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000);
  const m = INSTANT.exec(value);
  if (!m) return Number.NaN;
  const zone =
    !m[4] || m[4] === 'z' ? 'Z' : m[4].length === 5 ? `${m[4].slice(0, 3)}:${m[4].slice(3)}` : m[4];
  return Math.floor(Date.parse(`${m[1]}T${m[2]}${zone}`) / 1000);
}

export function checkpointSchema(resource: string) {
  return resource === 'customers'
    ? z.strictObject({
        v: z.literal(1),
        resource: z.literal('customers'),
        modified_after: z.nullable(gmtSecond),
        after_id: count,
        offset: count,
        started: z.nullable(gmtSecond),
        skip: versions,
        seen: versions,
      })
    : z.strictObject({
        v: z.literal(1),
        resource: z.literal(resource as 'orders'),
        modified_gmt: z.nullable(gmtSecond),
        // Only the ids of one second.
        ids: bounded(id),
        ahead: z.optional(versions),
        offset: z.optional(z.number().check(z.int(), z.gte(-MAX_OFFSET), z.lte(MAX_OFFSET))),
        lower_from: z.optional(gmtSecond),
      });
}

export function optionsSchema(checkpoint: z.ZodMiniType) {
  return z.strictObject({
    modified_after: z.optional(
      z.union([z.string(), z.date()]).check(
        z.refine((v) => {
          const s = instantSeconds(v);
          return s > 0 && s < MAX_SECONDS - 1;
        }, 'expected an RFC 3339 date-time (e.g. 2026-11-27T05:00:00Z) or a valid Date after 1970'),
      ),
    ),
    checkpoint: z.optional(checkpoint),
    checkpointStore: z.optional(
      z.custom<CheckpointStore>(
        (v) =>
          typeof (v as CheckpointStore)?.get === 'function' &&
          typeof (v as CheckpointStore)?.set === 'function',
        'expected an object with get(key) and set(key, checkpoint)',
      ),
    ),
    key: z.optional(z.string().check(z.minLength(1), z.maxLength(200))),
    per_page: z.optional(z.number().check(z.int(), z.gte(1), z.lte(100))),
  });
}
