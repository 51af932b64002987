import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@x/sandbox';
import { StoreClient } from '@x/store';
import { openDatabase } from '../../src/server/calls/storage/database.js';
import { migrate } from '../../src/server/calls/storage/schema.js';
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

/**
 * A fresh PGlite directory: a copy of one made (and migrated) once per test process, since creating
 * PostgreSQL's data directory takes PGlite seconds and each desk needs its own.
 */
export async function freshDataDir(): Promise<string> {
  template ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'support-desk-template-'));
    const db = await openDatabase({ dataDir: dir });
    await migrate(db);
    await db.close();
    return dir;
  })();
  const dir = await mkdtemp(join(tmpdir(), 'support-desk-data-'));
  await cp(await template, dir, { recursive: true });
  return dir;
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
  const sandbox = await startSandbox({
    store: { seed: 'demo' },
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
  const changes = typeof overrides === 'function' ? overrides(base) : overrides;
  const ownDir = changes.storage ? null : await freshDataDir();
  const config: ServerConfig = { ...base, ...(ownDir ? { storage: { dataDir: ownDir } } : {}), ...changes };
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    await sandbox.close();
    if (ownDir) await rm(ownDir, { recursive: true, force: true });
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
      if (ownDir) await rm(ownDir, { recursive: true, force: true });
    },
  };
  return desk;
}
