/**
 * The client's options, apart from the client: the resources' context (`context.ts`) is built from them
 * too, and importing them from `client.ts` would close a circle through the resources the client makes.
 */
import type { ClientOptions, IdempotencyStore, RateLimitOptions } from '@x/core';

export interface TranscriptionClientOptions extends Omit<ClientOptions, 'baseURL' | 'auth'> {
  /** An AssemblyAI API key (sent bare in `Authorization`, as the service expects). */
  apiKey: string;
  /** Default `https://api.assemblyai.com`; `https://api.eu.assemblyai.com` for the EU. */
  baseUrl?: string;
  /**
   * The streaming host, for `/v3/token` and the `/v3/ws` WebSocket. Default `https://streaming.assemblyai.com`;
   * `https://streaming.eu.assemblyai.com` for the EU.
   */
  streamingBaseUrl?: string;
  /**
   * Extra client-side windows for creating transcripts with particular models (keyed by the first of
   * `speech_models`), on top of the client's `rateLimit` (default 60 requests a minute).
   */
  modelRateLimits?: Record<string, RateLimitOptions>;
  /**
   * At most this many jobs of `transcripts.transcribe()` in flight at the service at once; more wait in the
   * client before they are uploaded and submitted. Default 5 (the service's free-tier concurrency).
   */
  maxConcurrentJobs?: number;
  /**
   * The share (0..1] of the client's rate limit that polling may spend, across all waits at once, so
   * polling never starves submissions and uploads. Default 0.5.
   */
  pollShare?: number;
  /**
   * Send parameters this SDK does not know (a parameter newer than this SDK) instead of rejecting them
   * with a `ValidationError`. Default false: a misspelt parameter would otherwise be ignored by the service.
   */
  allowUnknownFields?: boolean;
  /**
   * Where the `idempotencyKey`s of `transcripts.submit()` and `transcribe()` are remembered (the service has
   * no idempotency key, so the client keeps one). Default: in this client's memory. A `RedisIdempotencyStore`
   * (`@x/core/redis`) shares them between processes.
   */
  idempotency?: IdempotencyOptions;
}

export interface IdempotencyOptions {
  store?: IdempotencyStore;
  /**
   * How long a submit may hold its key before another caller may take it over (after asking the service
   * whether the first one arrived). Bounds the submit request too. Default 120 000 ms.
   */
  leaseMs?: number;
  /** How long a key is remembered after its last change. Default 24 h. */
  ttlMs?: number;
}
