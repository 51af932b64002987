import type { Database } from './database.js';
import { StorageError } from './errors.js';

/**
 * The schema, one migration per version, applied in order at startup. Append, never edit: a database at
 * version n has run exactly the first n.
 *
 * A call's fields are JSON text, not columns: the page's shape (`CallView`) changes with the app and needs
 * no migration, and text holds any string the app holds (PostgreSQL's text and jsonb refuse U+0000, which
 * JSON text escapes). Columns are only what queries select or order by. The CHECKs bound each document.
 */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE desk_calls (
     seq bigserial PRIMARY KEY,
     id uuid NOT NULL UNIQUE,
     status text NOT NULL,
     transcript_id text,
     owner text NOT NULL,
     call text NOT NULL CHECK (length(call) <= 65536),
     analysis text CHECK (length(analysis) <= 4194304),
     live text CHECK (length(live) <= 4194304)
   );
   CREATE INDEX desk_calls_transcript_id ON desk_calls (transcript_id);
   CREATE INDEX desk_calls_unfinished ON desk_calls (status) WHERE status NOT IN ('done', 'error');`,
  // 2: a call's link to the customer's cart (storefront/): what the page sees of it (`storefront`, the
  // summary; `cart`, the snapshot) apart from what it must never see (`storefront_link`: the cart token).
  `ALTER TABLE desk_calls ADD COLUMN storefront text CHECK (length(storefront) <= 4096);
   ALTER TABLE desk_calls ADD COLUMN cart text CHECK (length(cart) <= 1048576);
   ALTER TABLE desk_calls ADD COLUMN storefront_link text CHECK (length(storefront_link) <= 8192);`,
];

/** The version `migrate` brings a database to. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Any 64-bit key: the advisory lock that makes two desks starting at once migrate one after the other. */
const MIGRATION_LOCK = 0x0de5_5c4e_3a00;

/** Brings the database to the newest schema; a database newer than this desk is refused. */
export async function migrate(db: Database): Promise<number> {
  return db.transaction(async (sql) => {
    await sql.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await sql.query(
      'CREATE TABLE IF NOT EXISTS desk_schema (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const [row] = await sql.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM desk_schema',
    );
    const current = row?.version ?? 0;
    if (current > MIGRATIONS.length) {
      throw new StorageError(
        `${db.where} has schema version ${current}; this desk knows up to ${MIGRATIONS.length}: upgrade the desk`,
      );
    }
    for (let version = current + 1; version <= MIGRATIONS.length; version++) {
      for (const statement of MIGRATIONS[version - 1]!.split(/;\s*(?=CREATE|ALTER|DROP|UPDATE)/))
        await sql.query(statement);
      await sql.query('INSERT INTO desk_schema (version) VALUES ($1)', [version]);
    }
    return MIGRATIONS.length;
  });
}
