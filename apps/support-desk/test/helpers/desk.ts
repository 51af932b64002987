import { fileURLToPath } from 'node:url';
import { type Sandbox, startSandbox } from '@x/sandbox';
import { StoreClient } from '@x/store';
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
  close(): Promise<void>;
}

/**
 * The whole app in-process on ephemeral ports: the sandbox (demo store, transcription, realtime) and the
 * app server serving the built page, configured as `pnpm dev` configures them.
 */
export async function startDesk(overrides: Partial<ServerConfig> = {}): Promise<Desk> {
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
  const config: ServerConfig = {
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
    ...overrides,
  };
  let server: RunningServer;
  try {
    server = await startServer(config);
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  const store = new StoreClient({
    url: sandbox.store.url,
    consumerKey: sandbox.store.consumerKey,
    consumerSecret: sandbox.store.consumerSecret,
  });
  return {
    sandbox,
    server,
    config,
    store,
    logs,
    async close() {
      await server.close();
      await sandbox.close();
    },
  };
}
