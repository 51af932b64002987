import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { Database, Row } from './database.js';
import { StorageError } from './errors.js';

/** The lock files this process holds: its pid in a lock file says nothing else (see `lock`). */
const held = new Set<string>();

/**
 * Only one process may open a PGlite directory (it is PostgreSQL's data directory, run in this process):
 * a second desk on it would corrupt it. The lock file names the holder's pid and its start time; a lock
 * whose process is gone (killed) is taken over. The start time tells a reused pid from the holder: in a
 * container the desk is the same pid after every restart, and a lock a killed desk left would otherwise
 * name a live process (this one) for ever.
 */
async function lock(path: string): Promise<() => Promise<void>> {
  const me = `${process.pid} ${await startedAt(process.pid)}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(path, me, { flag: 'wx' });
      held.add(path);
      return async () => {
        held.delete(path);
        await rm(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const [pid, started] = (await readFile(path, 'utf8').catch(() => '')).split(' ');
    const holder = Number(pid);
    // This process's own lock is held too: a second desk in one process would open the directory twice.
    const live =
      holder === process.pid
        ? held.has(path)
        : Number.isInteger(holder) &&
          holder > 0 &&
          alive(holder) &&
          // A lock without a start time (an older desk's) is judged by its pid alone.
          (started === undefined || (await startedAt(holder)) === started);
    if (live) {
      throw new StorageError(
        `the desk's data directory ${resolve(path, '..')} is in use by process ${holder}: one desk process ` +
          'per directory (set DATABASE_URL to share calls between instances)',
      );
    }
    await rm(path, { force: true });
  }
  throw new StorageError(`could not lock the desk's data directory (${path})`);
}

/** When process `pid` started (clock ticks since boot, from /proc), or '' where /proc is not there. */
async function startedAt(pid: number): Promise<string> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  // Fields after the command name (which may hold spaces), the start time is field 22 of the line.
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * PGlite in `dir` (created if missing). Each statement is on disk when it resolves (PGlite's default,
 * full durability), so what the desk acknowledged survives the process being killed.
 */
export async function openPglite(dir: string): Promise<Database> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    throw new StorageError(`cannot create the desk's data directory ${dir}: ${(error as Error).message}`);
  }
  const unlock = await lock(join(dir, 'desk.lock'));
  let db: PGlite;
  try {
    db = await PGlite.create(join(dir, 'pg'));
  } catch (error) {
    await unlock();
    throw new StorageError(`cannot open the embedded database in ${dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  const self = randomUUID();
  return {
    where: `PGlite in ${resolve(dir)}`,
    async query<R extends Row>(text: string, params?: unknown[]) {
      return (await db.query<R>(text, params)).rows;
    },
    transaction(fn) {
      return db.transaction((tx) =>
        fn({ query: async <R extends Row>(t: string, p?: unknown[]) => (await tx.query<R>(t, p)).rows }),
      );
    },
    // The lock makes this process the directory's only user: every other owner is a process that ended.
    owners: { self, isGone: async (owner) => owner !== self },
    async close() {
      if (!db.closed) await db.close();
      await unlock();
    },
  };
}
