/**
 * The calls' database failing, over real sockets: a PostgreSQL that is down at startup or goes down under
 * a running desk, a wrong password, a PGlite directory another desk holds. Each is a typed StorageError
 * (a 503 `storage_unavailable` to the page), never a crash, and never shows the password.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRegistry } from '../../src/server/calls/registry.js';
import { openDatabase } from '../../src/server/calls/storage/database.js';
import { configFromEnv, type SandboxDefaults, StorageError, startServer } from '../../src/server/index.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, freshDataDir, removeDataDir, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

let postgres: Postgres;
let desk: Desk;
const api = deskApi(() => desk.server.url);
beforeAll(async () => {
  postgres = await startPostgres();
  desk = await startDesk({ staticDir: undefined, storage: { databaseUrl: postgres.url } });
});
afterAll(async () => {
  await desk?.close();
  await postgres?.close();
});

async function startError(storage: Desk['config']['storage']): Promise<StorageError> {
  const error = await startServer({ ...desk.config, storage }).then(
    async (server) => {
      await server.close();
      throw new Error('the server started');
    },
    (error: unknown) => error,
  );
  expect(error).toBeInstanceOf(StorageError);
  return error as StorageError;
}

describe('a database that fails', () => {
  it('stops the desk from starting with a typed error that hides the password', async () => {
    const wrong = postgres.url.replace(postgres.password, 'not-the-password-xyz');
    const refused = await startError({ databaseUrl: wrong });
    expect(refused).toMatchObject({ status: 503, code: 'storage_unavailable' });
    expect(refused.message).toMatch(/postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/desk: cannot connect/);
    expect(refused.message).toContain('28P01');
    expect(refused.message).not.toContain('not-the-password-xyz');

    const nowhere = await startError({ databaseUrl: 'postgres://u:hunter2-secret@127.0.0.1:9/desk' });
    expect(nowhere.message).toContain('ECONNREFUSED');
    expect(nowhere.message).not.toContain('hunter2-secret');
    for (const databaseUrl of [
      'postgres://u:bad%zzsecret@127.0.0.1:9/desk',
      'postgres://u:x@127.0.0.1:9/desk?password=query-secret',
      'postgres://u:unparsable-secret@[127.0.0.1:9/desk',
      'postgres://u:s@nonexistent.invalid/desk',
    ]) {
      const { message } = await startError({ databaseUrl });
      expect(message).toMatch(/^PostgreSQL at (?:\S+|\(database URL\)): cannot connect: /);
      expect(message).not.toMatch(/secret/);
      // A one-letter password is not masked all over the message.
      expect(message).not.toContain('Po***');
    }
  });

  it('answers 503 while PostgreSQL is down, without crashing, and serves the calls again once it is back', async () => {
    const call = await api.sample('happy');
    expect((await api.finished(call.id)).status).toBe('done');
    await postgres.stop('immediate');
    try {
      const list = await api.json<{ error: { code: string; message: string } }>('/api/calls');
      expect(list.status).toBe(503);
      expect(list.body.error.code).toBe('storage_unavailable');
      expect(list.body.error.message).not.toContain(postgres.password);
      const sample = await api.json<{ error: { code: string } }>('/api/calls/sample', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(sample.status).toBe(503);
      expect(sample.body.error.code).toBe('storage_unavailable');
    } finally {
      await postgres.start();
    }
    expect((await api.list()).map((c) => c.id)).toEqual([call.id]);
    expect(desk.logs.join('\n')).not.toContain(postgres.password);
  });

  it('refuses a database whose schema is newer than this desk knows, and leaves it as it was', async () => {
    const dataDir = await freshDataDir();
    const db = await openDatabase({ dataDir });
    await db.query('INSERT INTO desk_schema (version) VALUES (99)');
    await db.close();
    const error = await startError({ dataDir });
    expect(error.message).toMatch(/has schema version 99; this desk knows up to \d+: upgrade the desk/);
    const again = await openDatabase({ dataDir });
    expect(await again.query('SELECT max(version) AS v FROM desk_schema')).toEqual([{ v: 99 }]);
    await again.close();
    await removeDataDir(dataDir);
  });

  it('reads a call stored before a field existed with that field at its starting value', async () => {
    const dataDir = await freshDataDir();
    const db = await openDatabase({ dataDir });
    const id = '00000000-0000-4000-8000-000000000001';
    const old = {
      id,
      name: 'from an older desk',
      source: 'upload',
      status: 'done',
      createdAt: '2026-01-01T00:00:00.000Z',
    };
    await db.query("INSERT INTO desk_calls (id, status, owner, call) VALUES ($1, 'done', 'old', $2)", [
      id,
      JSON.stringify(old),
    ]);
    const registry = new CallRegistry(db);
    expect(await registry.get(id)).toEqual({
      ...old,
      progress: 0,
      transcriptId: null,
      error: null,
      completedBy: null,
      overall: null,
      summary: null,
      analysis: null,
      live: null,
    });
    await db.close();
    await removeDataDir(dataDir);
  });

  it('refuses a PGlite directory another desk has open', async () => {
    const dataDir = await freshDataDir();
    const first = await startServer({ ...desk.config, storage: { dataDir } });
    try {
      const error = await startError({ dataDir });
      expect(error.message).toContain(`is in use by process ${process.pid}`);
      expect(error.message).toContain('DATABASE_URL');
    } finally {
      await first.close();
    }
    // Closed, it is free again.
    await (await startServer({ ...desk.config, storage: { dataDir } })).close();
    await removeDataDir(dataDir);
  });
});

describe('storage settings', () => {
  const sandbox: SandboxDefaults = {
    store: { url: 'http://127.0.0.1:8787', consumerKey: 'ck', consumerSecret: 'cs' },
    transcription: { url: 'http://127.0.0.1:8787', apiKey: 'sandbox-key' },
    realtime: { appId: '1', key: 'k', secret: 's', url: 'http://127.0.0.1:8787' },
  };
  it('are PGlite under the working directory by default, DESK_DATA_DIR, or DATABASE_URL', () => {
    expect(configFromEnv({}, sandbox).storage).toEqual({ dataDir: `${process.cwd()}/.data/desk` });
    expect(configFromEnv({ DESK_DATA_DIR: '/var/lib/desk' }, sandbox).storage).toEqual({
      dataDir: '/var/lib/desk',
    });
    const url = 'postgresql://desk:pw@db.internal:5432/desk';
    expect(configFromEnv({ DATABASE_URL: url, DESK_KEEP_CALLS: '500' }, sandbox)).toMatchObject({
      storage: { databaseUrl: url },
      keepCalls: 500,
    });
    const bad = () => configFromEnv({ DATABASE_URL: 'mysql://root:pw-in-url@db/desk' }, sandbox);
    expect(bad).toThrow(/DATABASE_URL: expected a postgres/);
    expect(bad).not.toThrow(/pw-in-url/);
    expect(() => configFromEnv({ DESK_KEEP_CALLS: '0' }, sandbox)).toThrow(/DESK_KEEP_CALLS/);
  });
});
