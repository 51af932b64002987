import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { CallPipeline } from './calls/pipeline.js';
import { CallRegistry } from './calls/registry.js';
import { resumeCalls } from './calls/resume.js';
import { openDatabase } from './calls/storage/database.js';
import { migrate } from './calls/storage/schema.js';
import { DEFAULT_STREAMING_MODEL, type ServerConfig, websocketBase } from './config.js';
import type { DeskContext } from './context.js';
import { describe } from './errors.js';
import { DEFAULT_LIVE_CALL_LIMITS } from './live/limits.js';
import { LiveCalls } from './live/live-calls.js';
import { STORE_WEBHOOK_PATH, TRANSCRIPTION_WEBHOOK_PATH } from './routes/webhooks.js';
import { Broadcaster, createServices } from './services.js';
import { findSpeechTool } from './speech.js';
import { ensureStoreWebhooks } from './store-webhooks.js';

export type { StorageConfig } from './calls/storage/database.js';
export { StorageError } from './calls/storage/errors.js';
export type { SandboxDefaults, ServerConfig } from './config.js';
export { configFromEnv, realtimeForSandbox } from './config.js';

export interface RunningServer {
  /** The server's own URL, e.g. `http://127.0.0.1:5174`. */
  url: string;
  /** Whether the store now delivers order webhooks here. */
  storeWebhooks: boolean;
  speechTool: string | null;
  /** Where the calls are stored (no password). */
  storage: string;
  /** Stops polling, closes the HTTP server, then the database; idempotent. */
  close(): Promise<void>;
}

const DEFAULT_POLL_FALLBACK_MS = 60_000;

/**
 * Starts the support desk's server: the calls' database (migrated to the newest schema; a database that is
 * down rejects with a `StorageError`), the SDK clients, the API, the webhook receivers and, with
 * `staticDir`, the built page. Registers the store webhooks once it listens, so deliveries find it, then
 * resumes or fails the calls a stopped desk left unfinished.
 */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = config.logger ?? console;
  const db = await openDatabase(config.storage);
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  const services = createServices(config);
  const broadcaster = new Broadcaster(services.realtime, logger);
  const registry = new CallRegistry(db, config.keepCalls);
  const speech = await findSpeechTool();

  let url = '';
  const webhookBase = () => (config.publicUrl ?? url).replace(/\/$/, '');
  const pipelineOptions = {
    store: services.store,
    transcription: services.transcription,
    broadcaster,
    registry,
    speechModels: config.transcription.speechModels,
    webhook: null as { url: string; secret: string } | null,
    pollFallbackMs: config.transcription.pollFallbackMs ?? DEFAULT_POLL_FALLBACK_MS,
    logger,
  };
  const pipeline = new CallPipeline(pipelineOptions);
  const live = new LiveCalls({
    streaming: services.transcription.streaming,
    websocketUrl: websocketBase(config.transcription.streamingBaseUrl),
    speechModel: config.transcription.streamingModel ?? DEFAULT_STREAMING_MODEL,
    registry,
    pipeline,
    broadcaster,
    limits: { ...DEFAULT_LIVE_CALL_LIMITS, ...config.liveCalls },
    logger,
  });
  const desk: DeskContext = { config, services, broadcaster, registry, pipeline, live, speech, logger };
  const app = createApp(desk);

  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
    s.once('error', reject);
  }).catch(async (error: unknown) => {
    await db.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  url = `http://${host}:${address.port}`;
  pipelineOptions.webhook = {
    url: `${webhookBase()}${TRANSCRIPTION_WEBHOOK_PATH}`,
    secret: config.transcription.webhookSecret,
  };

  let storeWebhooks = false;
  if (config.store.registerWebhooks !== false) {
    try {
      await ensureStoreWebhooks(
        services.store,
        `${webhookBase()}${STORE_WEBHOOK_PATH}`,
        config.store.webhookSecret,
      );
      storeWebhooks = true;
    } catch (error) {
      logger.warn(
        `store webhooks not registered (orders created elsewhere will show on reload): ${describe(error)}`,
      );
    }
  }

  // After the webhook URL is known: a resumed call's job may finish and notify at once.
  const resumed = await resumeCalls({ registry, pipeline, broadcaster, logger }).catch((error: unknown) => {
    logger.warn(`unfinished calls not resumed: ${describe(error)}`);
    return null;
  });
  if (resumed && resumed.resumed + resumed.failed > 0)
    logger.info(`unfinished calls: ${resumed.resumed} resumed, ${resumed.failed} marked failed`);
  logger.info(`calls stored in ${db.where}`);

  let closing: Promise<void> | null = null;
  return {
    url,
    storeWebhooks,
    speechTool: speech?.name ?? null,
    storage: db.where,
    close() {
      closing ??= new Promise<void>((resolve) => {
        pipeline.close();
        live.close();
        server.close(() => resolve());
        (server as { closeAllConnections?: () => void }).closeAllConnections?.();
      }).then(() => db.close());
      return closing;
    },
  };
}
