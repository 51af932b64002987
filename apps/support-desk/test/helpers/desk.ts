import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@x/sandbox';
import { StoreClient } from '@x/store';
import { openDatabase } from '../../src/server/calls/storage/database.js';
import { migrate, SCHEMA_VERSION } from '../../src/server/calls/storage/schema.js';
import {
  type RunningServer,
  realtimeForSandbox,
  type ServerConfig,
  startServer,
} from '../../src/server/index.js';

export const staticDir = fileURLToPath(new URL('../../dist/web', import.meta.url));
export const artifacts = fileURLToPath(new URL('../../test-artifacts', import.meta.url));

export interface Desk {
  sandbox: Sandbox;
  server: RunningServer;
  config: ServerConfig;
  /** The store as the tests see it, to check what the app wrote. */
  store: StoreClient;
  logs: string[];
  /**
   * Stops the app server (its database too) and starts a new one on the same port, storage and sandbox, as
   * a redeploy would; `server` is the new one.
   */
  restart(): Promise<void>;
  close(): Promise<void>;
}

let template: Promise<string> | undefined;
/** The directories `freshDataDir` made; a desk deletes its own when it closes. */
const fresh = new Set<string>();

/** A migrated PGlite directory, one per PGlite and schema version, shared by every test run. */
async function templateDir(): Promise<string> {
  const pglite = JSON.parse(
    await readFile(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  const path = join(tmpdir(), `support-desk-pglite-${pglite.version}-schema-${SCHEMA_VERSION}`);
  if (existsSync(join(path, 'ready'))) return path;
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-template-'));
  const db = await openDatabase({ dataDir: dir });
  await migrate(db);
  await db.close();
  await writeFile(join(dir, 'ready'), '');
  // Two test processes may build it at once: the first rename wins, the other copy goes.
  await rename(dir, path).catch(() => rm(dir, { recursive: true, force: true }));
  return path;
}

/**
 * A fresh PGlite directory: a copy of a migrated template, since creating PostgreSQL's data directory
 * takes PGlite seconds and each desk needs its own. A desk started on it deletes it when it closes.
 */
export async function freshDataDir(): Promise<string> {
  template ??= templateDir();
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-data-'));
  await cp(await template, dir, { recursive: true });
  await rm(join(dir, 'ready'));
  fresh.add(dir);
  return dir;
}

/** Deletes a directory `freshDataDir` made (nothing else). */
export async function removeDataDir(dir: string): Promise<void> {
  if (!fresh.delete(dir)) return;
  await rm(dir, { recursive: true, force: true });
}

/**
 * The whole app in-process on ephemeral ports: the sandbox (demo store, transcription, realtime) and the
 * app server serving the built page, configured as `pnpm dev` configures them. Calls go to a fresh PGlite
 * directory (deleted by `close`) unless `overrides.storage` says where. `overrides` may be a function of
 * the configuration, to change part of a nested setting.
 */
export async function startDesk(
  overrides: Partial<ServerConfig> | ((base: ServerConfig) => Partial<ServerConfig>) = {},
): Promise<Desk> {
  // The storefront page calls the Store API from the app server's origin, known once it listens (below).
  const storefrontOrigins: string[] = [];
  const sandbox = await startSandbox({
    store: { seed: 'demo', storeApi: { allowedOrigins: storefrontOrigins } },
    transcription: {
      rateLimit: false,
      webhooks: { retryDelayMs: 200 },
      streaming: { newSessionsPerMinute: false },
    },
    realtime: true,
  });
  const logs: string[] = [];
  const record = (...args: unknown[]) => logs.push(args.map(String).join(' '));
  const rt = sandbox.realtime!;
  const base: ServerConfig = {
    port: 0,
    host: '127.0.0.1',
    store: {
      url: sandbox.store.url,
      consumerKey: sandbox.store.consumerKey,
      consumerSecret: sandbox.store.consumerSecret,
      webhookSecret: 'store-webhook-secret-for-tests',
    },
    transcription: {
      apiKey: sandbox.transcription!.apiKey,
      baseUrl: sandbox.url,
      streamingBaseUrl: sandbox.url,
      speechModels: ['universal-2'],
      webhookSecret: 'transcription-webhook-secret-for-tests',
    },
    realtime: realtimeForSandbox({ appId: rt.appId, key: rt.key, secret: rt.secret, url: rt.url }),
    staticDir,
    labels: { store: 'sandbox (demo data)', transcription: 'sandbox', realtime: 'sandbox' },
    logger: { info: record, warn: record, error: record },
    storage: { dataDir: '' },
  };
  // A fresh directory of freshDataDir's, given or made here, goes when the desk closes.
  const changes = typeof overrides === 'function' ? overrides(base) : overrides;
  const config: ServerConfig = { ...base, ...changes };
  if (!changes.storage) config.storage = { dataDir: await freshDataDir() };
  const cleanup = () => ('dataDir' in config.storage ? removeDataDir(config.storage.dataDir) : undefined);
  let server: RunningServer;
  try {
    server = await startServer(config);
    // The emulator reads the list on each request; a restart keeps the port, so the origin holds.
    storefrontOrigins.push(new URL(server.url).origin);
  } catch (error) {
    await sandbox.close();
    await cleanup();
    throw error;
  }
  const store = new StoreClient({
    url: sandbox.store.url,
    consumerKey: sandbox.store.consumerKey,
    consumerSecret: sandbox.store.consumerSecret,
  });
  const desk: Desk = {
    sandbox,
    server,
    config,
    store,
    logs,
    async restart() {
      // On the same port, as a redeploy behind one address: an open page's requests reach the new server.
      const port = Number(new URL(desk.server.url).port);
      await desk.server.close();
      desk.server = await startServer({ ...config, port });
    },
    async close() {
      await desk.server.close();
      await sandbox.close();
      await cleanup();
    },
  };
  return desk;
}
