import {
  createRealtimeEmulator,
  type RealtimeChannelSummary,
  type RealtimeEmulator,
  type RealtimeEmulatorOptions,
  type RealtimeSandbox,
  type RealtimeStats,
} from './realtime/emulator.js';
import type { RealtimeHttpFault } from './realtime/http/faults.js';
import {
  REALTIME_DEV_APP,
  type RealtimeApp,
  type RealtimeAppOptions,
  type RealtimeWebhookTarget,
} from './realtime/model/apps.js';
import type { RealtimeWebhookOptions, WebhookStats } from './realtime/model/webhooks.js';
import { type EmulatorFactory, hostEmulators } from './server/host.js';
import { STORE_DEV_KEYS, type StoreKey } from './store/data/keys.js';
import {
  createStoreEmulator,
  type StoreEmulator,
  type StoreEmulatorOptions,
  type StoreFault,
  type StoreSandbox,
} from './store/emulator.js';
import {
  createTranscriptionEmulator,
  TRANSCRIPTION_DEV_KEY,
  type TranscriptionEmulator,
  type TranscriptionEmulatorOptions,
  type TranscriptionFault,
  type TranscriptionSandbox,
} from './transcription/emulator.js';

// Types the options and emulators above refer to, so users can name them.
export type {
  Emulator,
  EmulatorHandle,
  FetchHandler,
  Mountable,
  NodeEnv,
  SocketHandler,
  SocketRoute,
} from './kit/emulator.js';
export type { RateLimit } from './kit/rate-windows.js';
export type { StatsSnapshot } from './kit/stats.js';
export type { RealtimeEmulator } from './realtime/emulator.js';
export type { SubscriptionCountThrottle } from './realtime/model/counts.js';
export type { RealtimeWebhookTiming } from './realtime/model/webhooks.js';
export type { SocketCounters } from './realtime/ws/connection.js';
export type { KeyPermissions } from './store/data/keys.js';
export type { StoreApiEmulatorOptions, StoreEmulator } from './store/emulator.js';
export type { StoreApiRateLimit } from './store/routes/store-api/rate-limit.js';
export type { TranscriptionEmulator } from './transcription/emulator.js';
export {
  createEngine,
  type Engine,
  type EngineConfig,
  EngineError,
  type EngineResult,
  type EngineWord,
} from './transcription/engine/index.js';
export type { PocketSphinxOptions } from './transcription/engine/pocketsphinx.js';
export type {
  AudioHeader,
  EngineErrorCode,
  TranscribeOptions,
  WordVoice,
} from './transcription/engine/types.js';
export type { WebhookOptions as TranscriptionWebhookOptions } from './transcription/model/webhooks.js';
export {
  type Conversation,
  type ConversationTurn,
  synthesizeConversation,
  turnAt,
} from './transcription/speakers/conversation.js';
export {
  normaliseWords,
  SPEECH_VOICES,
  type SpeechVoice,
  type SynthesizeOptions,
  synthesizeSpeech,
  wordErrorRate,
} from './transcription/speech.js';
export type { RefusalCode, StreamingRefusal } from './transcription/streaming/faults.js';
export type {
  RecognizerUpdate,
  StreamingRecognizer,
  StreamingRecognizerFactory,
  StreamWord,
} from './transcription/streaming/recognizer.js';
export type {
  StreamingEmulatorOptions,
  StreamingSandbox,
  StreamingStats,
} from './transcription/streaming/service.js';
export type { StreamingSessionInfo } from './transcription/streaming/session.js';
export type {
  RealtimeApp,
  RealtimeAppOptions,
  RealtimeChannelSummary,
  RealtimeEmulatorOptions,
  RealtimeHttpFault,
  RealtimeSandbox,
  RealtimeStats,
  RealtimeWebhookOptions,
  RealtimeWebhookTarget,
  StoreEmulatorOptions,
  StoreFault,
  StoreKey,
  StoreSandbox,
  TranscriptionEmulatorOptions,
  TranscriptionFault,
  TranscriptionSandbox,
  WebhookStats as RealtimeWebhookStats,
};
export {
  createRealtimeEmulator,
  createStoreEmulator,
  createTranscriptionEmulator,
  REALTIME_DEV_APP,
  STORE_DEV_KEYS,
  TRANSCRIPTION_DEV_KEY,
};

export interface SandboxOptions {
  /** 0 = ephemeral (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve HTTPS (and WSS) with an in-memory self-signed certificate (exposed as `certificate`). */
  https?: boolean;
  /** Persist the store's state to this JSON file: a snapshot plus a journal fsynced before each write is answered. */
  dataFile?: string;
  /**
   * The WooCommerce REST API v3 emulator's options. The store starts unless `store: false` is passed (see
   * `SandboxSelection`), so `startSandbox()` is the store as before and `sandbox.store` is typed as present.
   */
  store?: StoreEmulatorOptions;
  /**
   * The AssemblyAI v2 compatible transcription emulator (`/v2/...`), off unless asked for: `true` for its
   * defaults. It transcribes with PocketSphinx when installed; without it jobs end in `error` saying what to install.
   */
  transcription?: TranscriptionEmulatorOptions | boolean;
  /**
   * The Pusher Channels compatible emulator (protocol 7 WebSocket at `/app/{key}`, HTTP API under `/apps`,
   * webhooks), off unless asked for: `true` for its defaults (one app, `REALTIME_DEV_APP`).
   */
  realtime?: RealtimeEmulatorOptions | boolean;
}

/**
 * The options with the store switched explicitly: `true` starts it with its defaults, `false` leaves it out.
 * Kept apart from `SandboxOptions` so a `SandboxOptions` value always means "with the store" (and
 * `{ ...options.store }` stays spreadable, which `true` would not be).
 */
export type SandboxSelection = Omit<SandboxOptions, 'store'> & { store: StoreEmulatorOptions | boolean };

/**
 * A running sandbox. `HasStore` says whether the store is known to be there: `true` (the default) types
 * `store` as present, `false` as absent, `boolean` (a `SandboxSelection` decided at run time) as optional.
 */
export type Sandbox<HasStore extends boolean = true> = {
  url: string;
  https: boolean;
  /** PEM of the self-signed certificate when `https`, so clients can trust it as a CA. */
  certificate?: string;
  /** Present when `transcription` was asked for. */
  transcription?: TranscriptionSandbox;
  /** Present when `realtime` was asked for. */
  realtime?: RealtimeSandbox;
  /** Closes every emulator (flushing `dataFile`), then the server; idempotent. */
  close(): Promise<void>;
} & ([HasStore] extends [true]
  ? { store: StoreSandbox }
  : [HasStore] extends [false]
    ? { store?: undefined }
    : { store?: StoreSandbox });

/**
 * Starts one server with the emulators asked for. The store is on unless `store: false`, transcription is on
 * and realtime when asked for. Everything started is closed by `close()`; if
 * starting fails half-way, what did start is closed again.
 */
export async function startSandbox(
  options: Omit<SandboxOptions, 'store'> & { store: false },
): Promise<Sandbox<false>>;
export async function startSandbox(
  options: Omit<SandboxOptions, 'store'> & { store: StoreEmulatorOptions | true },
): Promise<Sandbox<true>>;
export async function startSandbox(options: SandboxSelection): Promise<Sandbox<boolean>>;
// Last, so `Parameters<typeof startSandbox>[0]` is the everyday options type.
export async function startSandbox(options?: SandboxOptions): Promise<Sandbox<true>>;
export async function startSandbox(
  options: SandboxOptions | SandboxSelection = {},
): Promise<Sandbox<boolean>> {
  const storeOptions = options.store === undefined || options.store === true ? {} : options.store;
  if (options.dataFile !== undefined && !storeOptions) {
    throw new TypeError('x-sandbox: dataFile persists the store, which this sandbox does not start');
  }

  // Each factory keeps its emulator's own type here, so the sandbox's fields stay typed; the hosting is one loop.
  let store: StoreEmulator | undefined;
  let transcription: TranscriptionEmulator | undefined;
  let realtime: RealtimeEmulator | undefined;
  const factories: EmulatorFactory[] = [];
  if (storeOptions) {
    factories.push(async () => {
      store = await createStoreEmulator(storeOptions, { dataFile: options.dataFile });
      return store;
    });
  }
  const transcriptionOptions = options.transcription;
  if (transcriptionOptions) {
    factories.push(async () => {
      transcription = await createTranscriptionEmulator(
        transcriptionOptions === true ? {} : transcriptionOptions,
      );
      return transcription;
    });
  }
  const realtimeOptions = options.realtime;
  if (realtimeOptions) {
    factories.push(() => {
      realtime = createRealtimeEmulator(realtimeOptions === true ? {} : realtimeOptions);
      return realtime;
    });
  }
  const hosted = await hostEmulators(factories, {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    https: options.https ?? false,
  });
  return {
    url: hosted.url,
    https: hosted.https,
    ...(hosted.certificate ? { certificate: hosted.certificate } : {}),
    ...(store ? { store: store.handle } : {}),
    ...(transcription ? { transcription: transcription.handle } : {}),
    ...(realtime ? { realtime: realtime.handle } : {}),
    close: hosted.close,
  };
}
