/**
 * A throwaway PostgreSQL server (Debian's `postgresql` package: initdb and pg_ctl from
 * /usr/lib/postgresql/<version>/bin) in a temporary directory on a free 127.0.0.1 port, with a password,
 * started and stopped by the tests themselves, as the Redis tests run their own redis-server. Under root it
 * runs as the `postgres` user (PostgreSQL refuses to run as root). Missing PostgreSQL is an error, never a
 * skip: install it (`apt-get install postgresql`) or point PG_BIN at its bin directory.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { chown } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Postgres {
  /** `postgres://postgres:<password>@127.0.0.1:<port>/desk` */
  readonly url: string;
  readonly password: string;
  /** A new, empty database on this server; its URL. */
  createDatabase(): Promise<string>;
  /** Stops the server (`immediate`: as a crash would, no checkpoint). The data stays for `start`. */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops it and deletes its directory; idempotent. */
  close(): Promise<void>;
}

export function findPgBin(): string {
  const dirs = process.env.PG_BIN
    ? [process.env.PG_BIN]
    : (() => {
        try {
          return readdirSync('/usr/lib/postgresql')
            .sort((a, b) => Number(b) - Number(a))
            .map((v) => `/usr/lib/postgresql/${v}/bin`);
        } catch {
          return [];
        }
      })();
  for (const dir of dirs) {
    try {
      accessSync(join(dir, 'pg_ctl'), constants.X_OK);
      return dir;
    } catch {}
  }
  throw new Error(
    'PostgreSQL was not found (looked for /usr/lib/postgresql/*/bin/pg_ctl; set PG_BIN to override). ' +
      'The desk’s storage tests need a real server: install it, e.g. `sudo apt-get install -y postgresql`.',
  );
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export async function startPostgres(): Promise<Postgres> {
  const bin = findPgBin();
  const root = process.getuid?.() === 0;
  const as = async (cmd: string, args: string[]) =>
    root ? run('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : run(join(bin, cmd), args);
  const dir = mkdtempSync(join(tmpdir(), 'support-desk-pg-'));
  const data = join(dir, 'data');
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  writeFileSync(join(dir, 'pwfile'), password);
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout), Number(gid));
    await chown(join(dir, 'pwfile'), Number(stdout), Number(gid));
  }
  await as('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=scram-sha-256',
    `--pwfile=${join(dir, 'pwfile')}`,
    '--no-sync',
    '-E',
    'UTF8',
  ]);
  let port = 0;
  const start = async () => {
    await as('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'log'),
      '-o',
      `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off`,
      '-w',
      '-t',
      '30',
      'start',
    ]);
  };
  let lastError: unknown;
  for (let attempt = 0; attempt < 3 && port === 0; attempt++) {
    port = await freePort();
    try {
      await start();
    } catch (error) {
      lastError = error;
      port = 0;
    }
  }
  if (port === 0) {
    rmSync(dir, { recursive: true, force: true });
    throw lastError;
  }
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await as('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']).catch(() => {});
  };
  let databases = 0;
  const createDatabase = async (name = `desk_${++databases}`) => {
    await run(join(bin, 'createdb'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', name], {
      env: { ...process.env, PGPASSWORD: password },
    });
    return `postgres://postgres:${password}@127.0.0.1:${port}/${name}`;
  };
  const url = await createDatabase('desk');
  let closed = false;
  return {
    url,
    password,
    createDatabase: () => createDatabase(),
    stop,
    start,
    async close() {
      if (closed) return;
      closed = true;
      await stop('immediate');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
