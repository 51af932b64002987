/**
 * The one SQL surface the desk's calls use, over two backends with one dialect: PGlite (PostgreSQL compiled
 * to WASM, in a local directory: no server to run) by default, and a PostgreSQL server when several desk
 * instances must share their calls.
 */
export type Row = Record<string, unknown>;

export interface Sql {
  query<R extends Row = Row>(text: string, params?: unknown[]): Promise<R[]>;
}

export interface Database extends Sql {
  /** Where the data lives, safe to log (no password). */
  readonly where: string;
  /** Runs `fn` in one transaction on one connection (committed when it resolves, rolled back if it throws). */
  transaction<T>(fn: (sql: Sql) => Promise<T>): Promise<T>;
  /** This process's claim on the calls it is working on (see `Owners`). */
  readonly owners: Owners;
  close(): Promise<void>;
}

/**
 * Which desk process works on a call, so that on startup a desk resumes the unfinished calls of processes
 * that died and leaves alone those of processes still running (several instances on one PostgreSQL).
 */
export interface Owners {
  /** This process's owner id, stored with the calls it creates or takes over. */
  readonly self: string;
  /** Whether the process that owns `owner` is gone (its calls are for the taking). */
  isGone(owner: string): Promise<boolean>;
}

/** Where the calls are stored: a PGlite directory, or a PostgreSQL server. */
export type StorageConfig = { dataDir: string } | { databaseUrl: string };

export async function openDatabase(config: StorageConfig): Promise<Database> {
  if ('databaseUrl' in config) {
    const { openPostgres } = await import('./postgres.js');
    return openPostgres(config.databaseUrl);
  }
  const { openPglite } = await import('./pglite.js');
  return openPglite(config.dataDir);
}
