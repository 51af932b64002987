import { randomInt } from 'node:crypto';
import pg from 'pg';
import type { Database, Row, Sql } from './database.js';
import { mask, passwordsOf, redactUrl, StorageError } from './errors.js';

/** The first key of the desk's advisory locks (the second is an instance's owner id). */
const OWNER_LOCK_CLASS = 0x0de5;

/**
 * A PostgreSQL server shared by any number of desk instances: every read goes to it (no local cache), so
 * a call one instance creates is in every instance's list.
 */
export async function openPostgres(url: string): Promise<Database> {
  const where = redactUrl(url);
  const passwords = passwordsOf(url);
  // `where` is redacted already; the driver's message is masked in case it quotes the connection string.
  const fail = (error: unknown, doing: string) =>
    new StorageError(`PostgreSQL at ${where}: ${doing}: ${mask(describePg(error), passwords)}`);

  let pool: pg.Pool;
  try {
    pool = new pg.Pool({ connectionString: url, connectionTimeoutMillis: 5000, max: 5 });
  } catch (error) {
    throw fail(error, 'bad DATABASE_URL');
  }
  // An idle connection that drops (the server restarted) is replaced on the next query; without a
  // listener, the pool's 'error' event would end the process.
  pool.on('error', () => {});

  // The owner id is held as a session advisory lock for this process's life: another instance that can
  // take it knows this one is gone.
  const self = randomInt(1, 2 ** 31 - 1);
  let holder: pg.PoolClient;
  try {
    holder = await pool.connect();
    holder.on('error', () => {});
    await holder.query('SELECT pg_advisory_lock($1, $2)', [OWNER_LOCK_CLASS, self]);
  } catch (error) {
    await pool.end().catch(() => {});
    throw fail(error, 'cannot connect');
  }

  const run = async <R extends Row>(client: pg.Pool | pg.PoolClient, text: string, params?: unknown[]) => {
    try {
      return (await client.query<R>(text, params)).rows;
    } catch (error) {
      throw fail(error, 'query failed');
    }
  };
  return {
    where,
    query: (text, params) => run(pool, text, params),
    async transaction(fn) {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw fail(error, 'cannot connect');
      }
      const sql: Sql = { query: (text, params) => run(client, text, params) };
      try {
        await sql.query('BEGIN');
        const result = await fn(sql);
        await sql.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    owners: {
      self: String(self),
      async isGone(owner) {
        const id = Number(owner);
        if (!Number.isInteger(id) || id === self) return id !== self;
        const [row] = await run<{ gone: boolean }>(holder, 'SELECT pg_try_advisory_lock($1, $2) AS gone', [
          OWNER_LOCK_CLASS,
          id,
        ]);
        if (row?.gone) await run(holder, 'SELECT pg_advisory_unlock($1, $2)', [OWNER_LOCK_CLASS, id]);
        return row?.gone === true;
      },
    },
    async close() {
      // Unlocked before closing: the server frees a dropped connection's locks a moment after it drops,
      // and a desk starting right after this one would take this one's calls for a live instance's.
      await holder.query('SELECT pg_advisory_unlock($1, $2)', [OWNER_LOCK_CLASS, self]).catch(() => {});
      holder.release(true);
      await pool.end().catch(() => {});
    },
  };
}

/** The URL's password as written and decoded (both could be quoted back). */
/** The driver's message, with its SQLSTATE when it has one (28P01: wrong password, 3D000: no such db...). */
function describePg(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? `${error.message} (${code})` : error.message;
}
