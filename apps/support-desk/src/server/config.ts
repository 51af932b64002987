import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import * as z from 'zod/mini';
import type { DeskConfig } from '../shared/api.js';
import type { StorageConfig } from './calls/storage/database.js';
import type { LiveCallLimits } from './live/limits.js';

/**
 * Live calls' streaming model: word-by-word partials (the Universal-3 Pro models send one per pause), in
 * English, as the desk's analysis reads it.
 */
export const DEFAULT_STREAMING_MODEL = 'universal-streaming-english';

/** Everything the server needs, resolved: `startServer(config)` takes this, tests build it directly. */
export interface ServerConfig {
  /** 0 = ephemeral. */
  port: number;
  host: string;
  /**
   * The URL the store and the transcription service use to reach this server's webhooks. Default: the
   * server's own URL, which only services on this machine (the sandbox) can reach.
   */
  publicUrl?: string | undefined;
  store: {
    url: string;
    consumerKey: string;
    consumerSecret: string;
    /** Signs store webhook deliveries (`X-WC-Webhook-Signature`). */
    webhookSecret: string;
    /** Create (or update) the `order.created` and `order.updated` webhooks at start. Default true. */
    registerWebhooks?: boolean | undefined;
  };
  transcription: {
    apiKey: string;
    baseUrl?: string | undefined;
    speechModels: string[];
    /** Sent back by the service in `X-Support-Desk-Webhook` with each notification. */
    webhookSecret: string;
    /** Poll when no webhook came this long after submitting (ms). Default 60 000; 0 polls at once. */
    pollFallbackMs?: number | undefined;
    /**
     * The streaming host (`https://streaming.assemblyai.com`, `https://streaming.eu.assemblyai.com`, or the
     * sandbox's URL): live calls' temporary tokens come from it and the page's socket goes to it.
     */
    streamingBaseUrl: string;
    /** The streaming model of live calls. Default `universal-streaming-english` (word-by-word partials). */
    streamingModel?: string | undefined;
  };
  /**
   * Where calls are kept: `{ dataDir }`, PGlite (embedded PostgreSQL, one desk process per directory), or
   * `{ databaseUrl }`, a PostgreSQL server any number of desk instances share.
   */
  storage: StorageConfig;
  /** How many calls are kept, newest first (older ones are deleted as new ones come). Default 50. */
  keepCalls?: number | undefined;
  /** Bounds on live calls (see `LiveCallLimits`); the defaults suit one desk. */
  liveCalls?: Partial<LiveCallLimits> | undefined;
  realtime: {
    appId: string;
    key: string;
    secret: string;
    /** The HTTP API host (`localhost` for the sandbox) or a cluster. */
    host?: string | undefined;
    port?: number | undefined;
    cluster?: string | undefined;
    useTLS: boolean;
    /** What the page's `RealtimeClient` is given (never the secret). */
    client: DeskConfig['realtime'];
  };
  /** The built page (`vite build`'s output) to serve at `/`; left out under `pnpm dev`, where Vite serves it. */
  staticDir?: string | undefined;
  /** Names of the services shown on the page, e.g. "sandbox" or the store's host. */
  labels?: DeskConfig['services'] | undefined;
  /** Largest accepted recording, in bytes. Default 100 MiB. */
  maxUploadBytes?: number | undefined;
  /** Anything shaped like `console`; default `console`. */
  logger?: Pick<Console, 'info' | 'warn' | 'error'> | undefined;
}

/** The sandbox's endpoints and dev credentials, used for every service `.env` does not configure. */
export interface SandboxDefaults {
  store: { url: string; consumerKey: string; consumerSecret: string };
  transcription: { url: string; apiKey: string };
  realtime: { appId: string; key: string; secret: string; url: string };
}

const optionalText = z.optional(z.string().check(z.trim(), z.minLength(1)));
const port = z.optional(z.string().check(z.regex(/^\d{1,5}$/, 'expected a port number')));

/** The environment variables `.env.example` documents. */
export const envSchema = z.looseObject({
  PORT: port,
  HOST: optionalText,
  PUBLIC_URL: z.optional(z.url()),
  STORE_URL: z.optional(z.url()),
  STORE_CONSUMER_KEY: optionalText,
  STORE_CONSUMER_SECRET: optionalText,
  STORE_WEBHOOK_SECRET: optionalText,
  ASSEMBLYAI_API_KEY: optionalText,
  ASSEMBLYAI_BASE_URL: z.optional(z.url()),
  ASSEMBLYAI_SPEECH_MODELS: optionalText,
  ASSEMBLYAI_STREAMING_URL: z.optional(z.url()),
  ASSEMBLYAI_STREAMING_MODEL: optionalText,
  TRANSCRIPTION_WEBHOOK_SECRET: optionalText,
  TRANSCRIPTION_POLL_FALLBACK_MS: z.optional(z.string().check(z.regex(/^\d+$/, 'expected milliseconds'))),
  PUSHER_APP_ID: optionalText,
  PUSHER_KEY: optionalText,
  PUSHER_SECRET: optionalText,
  PUSHER_CLUSTER: optionalText,
  DATABASE_URL: z.optional(
    z.string().check(z.regex(/^postgres(?:ql)?:\/\//, 'expected a postgres:// or postgresql:// URL')),
  ),
  DESK_DATA_DIR: optionalText,
  DESK_KEEP_CALLS: z.optional(z.string().check(z.regex(/^[1-9]\d{0,5}$/, 'expected a count of calls'))),
});

/** PGlite's directory when neither DATABASE_URL nor DESK_DATA_DIR is set, under the working directory. */
export const DEFAULT_DATA_DIR = '.data/desk';
export type Env = z.infer<typeof envSchema>;

/** Which services `.env` configures; the others come from the sandbox. */
export function configuredServices(env: Env): { store: boolean; transcription: boolean; realtime: boolean } {
  return {
    store: Boolean(env.STORE_URL || env.STORE_CONSUMER_KEY || env.STORE_CONSUMER_SECRET),
    transcription: Boolean(env.ASSEMBLYAI_API_KEY),
    realtime: Boolean(env.PUSHER_APP_ID || env.PUSHER_KEY || env.PUSHER_SECRET),
  };
}

function requireVars(env: Env, names: readonly (keyof Env & string)[], service: string): void {
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0) throw new Error(`${service}: set ${missing.join(', ')} in .env (see .env.example)`);
}

/**
 * The server's configuration from environment variables; a service without credentials uses the sandbox
 * (`sandbox`), or is an error when there is none.
 */
export function configFromEnv(
  rawEnv: Record<string, string | undefined>,
  sandbox: SandboxDefaults | null,
): ServerConfig {
  const parsed = envSchema.safeParse(rawEnv);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`.env: ${problems}`);
  }
  const env = parsed.data;
  const real = configuredServices(env);
  const needSandbox = (service: string) => {
    if (!sandbox) throw new Error(`${service} is not configured in .env and no sandbox is running`);
    return sandbox;
  };
  if (real.store) requireVars(env, ['STORE_URL', 'STORE_CONSUMER_KEY', 'STORE_CONSUMER_SECRET'], 'store');
  if (real.realtime)
    requireVars(env, ['PUSHER_APP_ID', 'PUSHER_KEY', 'PUSHER_SECRET', 'PUSHER_CLUSTER'], 'realtime');
  const secret = () => randomBytes(24).toString('base64url');

  const store = real.store
    ? {
        url: env.STORE_URL!,
        consumerKey: env.STORE_CONSUMER_KEY!,
        consumerSecret: env.STORE_CONSUMER_SECRET!,
      }
    : needSandbox('store').store;
  const transcription = real.transcription
    ? {
        apiKey: env.ASSEMBLYAI_API_KEY!,
        baseUrl: env.ASSEMBLYAI_BASE_URL,
        streamingBaseUrl: env.ASSEMBLYAI_STREAMING_URL ?? streamingHostFor(env.ASSEMBLYAI_BASE_URL),
      }
    : {
        apiKey: needSandbox('transcription').transcription.apiKey,
        baseUrl: needSandbox('transcription').transcription.url,
        // The sandbox serves /v3/token and the /v3/ws socket beside /v2, on the same port.
        streamingBaseUrl: needSandbox('transcription').transcription.url,
      };
  let realtime: ServerConfig['realtime'];
  if (real.realtime) {
    realtime = {
      appId: env.PUSHER_APP_ID!,
      key: env.PUSHER_KEY!,
      secret: env.PUSHER_SECRET!,
      cluster: env.PUSHER_CLUSTER!,
      useTLS: true,
      client: { key: env.PUSHER_KEY!, cluster: env.PUSHER_CLUSTER!, forceTLS: true },
    };
  } else {
    const r = needSandbox('realtime').realtime;
    realtime = realtimeForSandbox(r);
  }
  return {
    port: Number(env.PORT ?? 5174),
    host: env.HOST ?? '127.0.0.1',
    publicUrl: env.PUBLIC_URL,
    store: { ...store, webhookSecret: env.STORE_WEBHOOK_SECRET ?? secret() },
    transcription: {
      ...transcription,
      speechModels: (env.ASSEMBLYAI_SPEECH_MODELS ?? 'universal-3-5-pro,universal-2')
        .split(',')
        .map((m) => m.trim()),
      streamingModel: env.ASSEMBLYAI_STREAMING_MODEL,
      webhookSecret: env.TRANSCRIPTION_WEBHOOK_SECRET ?? secret(),
      pollFallbackMs:
        env.TRANSCRIPTION_POLL_FALLBACK_MS !== undefined
          ? Number(env.TRANSCRIPTION_POLL_FALLBACK_MS)
          : undefined,
    },
    realtime,
    storage: env.DATABASE_URL
      ? { databaseUrl: env.DATABASE_URL }
      : { dataDir: resolve(env.DESK_DATA_DIR ?? DEFAULT_DATA_DIR) },
    keepCalls: env.DESK_KEEP_CALLS !== undefined ? Number(env.DESK_KEEP_CALLS) : undefined,
    labels: {
      store: real.store ? new URL(env.STORE_URL!).host : 'sandbox (demo data)',
      transcription: real.transcription ? 'AssemblyAI' : 'sandbox (PocketSphinx)',
      realtime: real.realtime ? `Pusher (${env.PUSHER_CLUSTER})` : 'sandbox',
    },
  };
}

/**
 * The streaming host that goes with a REST base URL: the EU one for EU data residency (audio and transcripts
 * stay in the EU only when both hosts are EU ones), else the default, edge-routed host.
 */
export function streamingHostFor(restBaseUrl: string | undefined): string {
  const eu = restBaseUrl !== undefined && new URL(restBaseUrl).hostname === 'api.eu.assemblyai.com';
  return eu ? 'https://streaming.eu.assemblyai.com' : 'https://streaming.assemblyai.com';
}

/** The WebSocket form of a streaming base URL, as the page shows it (`https:` → `wss:`, `http:` → `ws:`). */
export function websocketBase(streamingBaseUrl: string): string {
  return streamingBaseUrl.replace(/^http(s?):/, 'ws$1:').replace(/\/+$/, '');
}

/** The realtime settings for a sandbox emulator at `url` (HTTP API and WebSocket share its port). */
export function realtimeForSandbox(r: SandboxDefaults['realtime']): ServerConfig['realtime'] {
  const url = new URL(r.url);
  const tls = url.protocol === 'https:';
  const port = Number(url.port || (tls ? 443 : 80));
  return {
    appId: r.appId,
    key: r.key,
    secret: r.secret,
    host: url.hostname,
    port,
    useTLS: tls,
    client: { key: r.key, wsHost: url.hostname, wsPort: port, wssPort: port, forceTLS: tls },
  };
}
