import { randomUUID } from 'node:crypto';
import type {
  CallAnalysis,
  CallDetail,
  CallStatus,
  CallView,
  LiveTranscriptView,
  StorefrontHelpRequest,
  StorefrontSnapshot,
  StorefrontSummary,
} from '../../shared/api.js';
import type { Database, Row } from './storage/database.js';
import { StorageError } from './storage/errors.js';

/**
 * A call's link as the server keeps it: the request the code stood for (its token renewed by each read),
 * `link`, which code linking made it, so a refresh can tell that the link it read again is still the call's,
 * and `linked_at`, when that code's read began (both absent on links stored before they existed).
 */
export interface StoredLink extends StorefrontHelpRequest {
  link?: string;
  linked_at?: string;
}

export interface CallRecord extends CallView {
  analysis: CallAnalysis | null;
  /** A live call's transcript as it ended (while it runs, the live-call registry has it). */
  live: LiveTranscriptView | null;
  /** The linked cart and order as last read (`linkStorefront` writes it, with `storefront`); absent before. */
  cart?: StorefrontSnapshot;
}

/**
 * What may change on a call after it is created (its id, name, source and creation time never do). The
 * storefront link has its own write: the pipeline's copy of a call must not undo a link made meanwhile.
 */
export type CallChange = Partial<
  Omit<CallRecord, 'id' | 'name' | 'source' | 'createdAt' | 'storefront' | 'cart'>
>;

/**
 * Newest calls kept; older finished ones are deleted as new ones come (the page lists them all). A call still
 * running is never deleted under its pipeline: it goes once it has finished and is older than the newest
 * `keep`.
 */
export const DEFAULT_KEEP_CALLS = 50;
/** Bounds of what one call stores (the schema's CHECKs hold the same): names are short, errors cut. */
const MAX_NAME = 200;
const MAX_ERROR = 2000;
const MAX_VIEW_CHARS = 65_536;
const MAX_DOC_CHARS = 4 * 1024 * 1024;
const MAX_SUMMARY_CHARS = 4096;
const MAX_CART_CHARS = 1024 * 1024;
const MAX_LINK_CHARS = 8192;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

interface CallRow extends Row {
  call: string;
  analysis: string | null;
  live: string | null;
  storefront: string | null;
  cart: string | null;
}

const COLUMNS = 'call, analysis, live, storefront, cart';

/**
 * The desk's calls in the database, newest first, the newest `keep` of them. Every read goes to the
 * database (several instances may share it), and every write is stored before its promise resolves:
 * `create` before the caller sees the call's id, `update` before the caller announces the change.
 */
export class CallRegistry {
  readonly #writes = new Map<string, Promise<unknown>>();

  constructor(
    private readonly db: Database,
    private readonly keep = DEFAULT_KEEP_CALLS,
  ) {}

  async create(
    name: string,
    source: CallView['source'],
    status: CallStatus = 'receiving',
  ): Promise<CallRecord> {
    const call = newCall({
      id: randomUUID(),
      name: [...name].slice(0, MAX_NAME).join(''),
      source,
      status,
      createdAt: new Date().toISOString(),
    });
    await this.db.query(
      'INSERT INTO desk_calls (id, status, transcript_id, owner, call) VALUES ($1, $2, $3, $4, $5)',
      [call.id, call.status, null, this.db.owners.self, encode(stored(call), MAX_VIEW_CHARS, 'call')],
    );
    await this.db.query(
      `DELETE FROM desk_calls WHERE status IN ('done', 'error')
       AND seq <= (SELECT seq FROM desk_calls ORDER BY seq DESC OFFSET $1 LIMIT 1)`,
      [this.keep],
    );
    return call;
  }

  /**
   * Applies `change` to `call` (the caller's copy, at once) and stores it. A call's writes reach the
   * database in the order they were made: a pool's connections could reorder them, and a late progress
   * update would store a stale status.
   */
  async update(call: CallRecord, change: CallChange): Promise<void> {
    await this.#write(call, change, '');
  }

  /**
   * `update`, only while the stored call is not analysing or finished: true when this caller got the call
   * (once per call, whichever instance asks: on a shared database the webhook may reach one instance while
   * another polls). Otherwise `call` becomes what is stored.
   */
  async claim(call: CallRecord, change: CallChange): Promise<boolean> {
    const won = await this.#write(call, change, "AND status NOT IN ('analysing', 'done', 'error')");
    if (!won) Object.assign(call, await this.get(call.id));
    return won;
  }

  /**
   * Marks the call failed with `error`, unless the stored call is done: a failure seen through a stale copy
   * (a poll that gave up while another instance analysed the call) never undoes an analysis. True when
   * written; otherwise `call` becomes what is stored.
   */
  async fail(call: CallRecord, error: string): Promise<boolean> {
    const written = await this.#write(call, { status: 'error', error }, "AND status <> 'done'");
    if (!written) Object.assign(call, await this.get(call.id));
    return written;
  }

  async #write(call: CallRecord, change: CallChange, condition: string): Promise<boolean> {
    const next = { ...call, ...change };
    if (next.error !== null && next.error.length > MAX_ERROR)
      next.error = `${next.error.slice(0, MAX_ERROR)}…`;
    const sets = ['status = $2', 'transcript_id = $3', 'call = $4', 'owner = $5'];
    const params: unknown[] = [
      call.id,
      next.status,
      key(next.transcriptId),
      encode(stored(next), MAX_VIEW_CHARS, 'call'),
      this.db.owners.self,
    ];
    // The large documents are written only when they change.
    if ('analysis' in change) {
      params.push(next.analysis && encode(next.analysis, MAX_DOC_CHARS, 'analysis'));
      sets.push(`analysis = $${params.length}`);
    }
    if ('live' in change) {
      params.push(next.live && encode(next.live, MAX_DOC_CHARS, 'live'));
      sets.push(`live = $${params.length}`);
    }
    Object.assign(call, next);
    const previous = this.#writes.get(call.id) ?? Promise.resolve();
    const write = previous
      .catch(() => {})
      .then(() =>
        this.db.query(
          `UPDATE desk_calls SET ${sets.join(', ')} WHERE id = $1 ${condition} RETURNING storefront`,
          params,
        ),
      );
    this.#writes.set(call.id, write);
    try {
      const rows = await write;
      // The copy's link is what is stored: the events the writer sends next must not show an older one.
      Object.assign(call, linked({ storefront: (rows[0]?.storefront as string | undefined) ?? null }));
      return rows.length > 0;
    } finally {
      if (this.#writes.get(call.id) === write) this.#writes.delete(call.id);
    }
  }

  /**
   * Links the call to a customer's cart: `link` (the cart token and order key, which only the server reads
   * back, with `storefrontLink`), the snapshot and its summary, stored before it resolves. Reads finish in
   * any order, so a write never replaces a snapshot read later than its own, and a refresh (`refreshOf`:
   * the link it read again) never replaces another link: either is `'stale'` and leaves `call` as it was.
   * `'gone'` when the call was deleted as older than the newest kept.
   */
  async linkStorefront(
    call: CallRecord,
    link: StoredLink,
    cart: StorefrontSnapshot,
    summary: StorefrontSummary,
    refreshOf?: StoredLink,
  ): Promise<'linked' | 'stale' | 'gone'> {
    const rows = await this.db.query<{ call: string }>(
      `UPDATE desk_calls SET storefront = $2, cart = $3, storefront_link = $4
       WHERE id = $1 AND (cart IS NULL OR (cart::json ->> 'readAt') <= $5)
       AND (NOT $6::boolean OR (storefront_link::json ->> 'link') IS NOT DISTINCT FROM $7)
       RETURNING call`,
      [
        call.id,
        encode(summary, MAX_SUMMARY_CHARS, 'storefront summary'),
        encode(cart, MAX_CART_CHARS, 'cart'),
        encode(link, MAX_LINK_CHARS, 'storefront link'),
        cart.readAt,
        refreshOf !== undefined,
        refreshOf?.link ?? null,
      ],
    );
    if (rows.length === 0) {
      const [exists] = await this.db.query('SELECT 1 FROM desk_calls WHERE id = $1', [call.id]);
      return exists ? 'stale' : 'gone';
    }
    // The call as stored now: `call` was read before the store was, and the call may have moved on
    // (a live call ended meanwhile) in what the caller announces next.
    Object.assign(call, JSON.parse(rows[0]!.call) as CallView, { storefront: summary, cart });
    return 'linked';
  }

  /** The cart token and order of the call's storefront link, for the server's own reads only. */
  async storefrontLink(id: string): Promise<StoredLink | null> {
    if (!UUID.test(id)) return null;
    const [row] = await this.db.query<{ storefront_link: string | null }>(
      'SELECT storefront_link FROM desk_calls WHERE id = $1::uuid',
      [id],
    );
    return parse(row?.storefront_link ?? null);
  }

  async get(id: string): Promise<CallRecord | undefined> {
    if (!UUID.test(id)) return undefined;
    const [row] = await this.db.query<CallRow>(`SELECT ${COLUMNS} FROM desk_calls WHERE id = $1::uuid`, [id]);
    return row && record(row);
  }

  async byTranscript(transcriptId: string): Promise<CallRecord | undefined> {
    const [row] = await this.db.query<CallRow>(
      `SELECT ${COLUMNS} FROM desk_calls WHERE transcript_id = $1 ORDER BY seq DESC LIMIT 1`,
      [key(transcriptId)],
    );
    return row && record(row);
  }

  async list(): Promise<CallView[]> {
    const rows = await this.db.query<{ call: string; storefront: string | null }>(
      'SELECT call, storefront FROM desk_calls ORDER BY seq DESC LIMIT $1',
      [this.keep],
    );
    return rows.map((row) => ({ ...(JSON.parse(row.call) as CallView), ...linked(row) }));
  }

  /**
   * The unfinished calls whose process is gone (killed, or stopped mid-call), now owned by this one: on
   * startup, the desk resumes or fails each.
   */
  async adoptOrphans(): Promise<CallRecord[]> {
    const { owners } = this.db;
    const unfinished = await this.db.query<{ owner: string }>(
      "SELECT DISTINCT owner FROM desk_calls WHERE status NOT IN ('done', 'error') AND owner <> $1",
      [owners.self],
    );
    const adopted: CallRecord[] = [];
    for (const { owner } of unfinished) {
      if (!(await owners.isGone(owner))) continue;
      const rows = await this.db.query<CallRow>(
        `UPDATE desk_calls SET owner = $1 WHERE owner = $2 AND status NOT IN ('done', 'error')
         RETURNING ${COLUMNS}`,
        [owners.self, owner],
      );
      adopted.push(...rows.map(record));
    }
    return adopted;
  }
}

/** A transcript id as a lookup key: the one character PostgreSQL's text cannot hold is replaced. */
function key(transcriptId: string | null): string | null {
  return transcriptId === null ? null : transcriptId.replaceAll('\0', '\uFFFD');
}

function encode(value: unknown, max: number, field: string): string {
  const text = JSON.stringify(value);
  if (text.length > max)
    throw new StorageError(
      `the call's ${field} is ${text.length} characters as JSON, more than ${max} stored`,
      {
        status: 507,
        code: 'too_large_to_store',
      },
    );
  return text;
}

/** A call as created: what it is given, every other field at its starting value. */
function newCall(given: Pick<CallRecord, 'id' | 'name' | 'source' | 'status' | 'createdAt'>): CallRecord {
  return {
    ...given,
    progress: 0,
    transcriptId: null,
    error: null,
    completedBy: null,
    overall: null,
    summary: null,
    analysis: null,
    live: null,
  };
}

function record(row: CallRow): CallRecord {
  const stored = JSON.parse(row.call) as CallView;
  return {
    // A field added to calls since this one was stored reads as a new call's value, not undefined.
    ...newCall(stored),
    ...stored,
    analysis: parse(row.analysis),
    live: parse(row.live),
    ...linked(row),
  };
}

/** A call's storefront link, only once there is one: an unlinked call has neither field. */
function linked(row: { storefront: string | null; cart?: string | null }): {
  storefront?: StorefrontSummary;
  cart?: StorefrontSnapshot;
} {
  return {
    ...(row.storefront === null ? {} : { storefront: JSON.parse(row.storefront) as StorefrontSummary }),
    ...(row.cart === null || row.cart === undefined
      ? {}
      : { cart: JSON.parse(row.cart) as StorefrontSnapshot }),
  };
}

function parse<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** A call without its analysis: what realtime events carry (Pusher's events are at most 10 KB). */
export function view(call: CallRecord): CallView {
  const { analysis: _analysis, live: _live, cart: _cart, ...rest } = call;
  return rest;
}

/** The call's own JSON column: its storefront summary has a column of its own (`linkStorefront`). */
function stored(call: CallRecord): CallView {
  const { storefront: _storefront, ...rest } = view(call);
  return rest;
}

/** The call with its analysis and, for a live call, its transcript (`live`, when still running). */
export function detail(call: CallRecord, live: LiveTranscriptView | null = null): CallDetail {
  return { ...call, live: live ?? call.live };
}

/**
 * Characters JSON leaves as they are but a log viewer does not: U+0085, U+2028 and U+2029 end lines in some
 * viewers, and the bidirectional controls (U+061C, U+200E–F, U+202A–E, U+2066–9) reorder what follows them.
 */
const LOG_UNSAFE = /[\u0085\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * A call's name as logs quote it: a name is whatever the uploader typed, and a newline, a line separator,
 * a bidirectional override or a terminal escape in it would forge or disguise log lines.
 */
export function logName(call: Pick<CallView, 'name'>): string {
  return JSON.stringify(call.name).replace(
    LOG_UNSAFE,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

export function isFinished(status: CallStatus): boolean {
  return status === 'done' || status === 'error';
}
