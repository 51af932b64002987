import { type APIPromise, parseInput, type RequestOptions } from '@x/core';
import type { TranscriptionClient, TranscriptionContext } from '../client.js';
import {
  type StreamingTemporaryToken,
  type StreamingTokenParams,
  streamingTemporaryToken,
  streamingTokenParams,
} from '../schemas/streaming.js';

/**
 * Streaming Speech-to-Text v3 (`streaming.assemblyai.com`): temporary tokens for browsers, and
 * transcribers for Node, which authenticate with the client's API key.
 */
export class Streaming {
  readonly #context: TranscriptionContext;
  readonly #baseUrl: string;
  /** The same client pointed at the streaming host, made on first use (it shares limits and retries). */
  #tokenClient: TranscriptionClient | undefined;

  constructor(context: TranscriptionContext, baseUrl: string) {
    this.#context = context;
    this.#baseUrl = baseUrl;
  }

  /** The streaming host, `https://streaming.assemblyai.com` unless `streamingBaseUrl` says otherwise. */
  get baseUrl(): string {
    return this.#baseUrl;
  }

  /**
   * A single-use token that opens one session within `expires_in_seconds` (1–600), for a browser (which
   * must never hold the API key): `GET /v3/token` with the key. Retried like every GET.
   */
  createTemporaryToken(
    params: StreamingTokenParams,
    options?: RequestOptions,
  ): APIPromise<StreamingTemporaryToken> {
    this.#tokenClient ??= this.#context.client.withOptions({ baseUrl: this.#baseUrl });
    return this.#tokenClient.request(() => ({
      method: 'GET',
      path: '/v3/token',
      query: { ...parseInput(streamingTokenParams, params, 'streaming.createTemporaryToken params') },
      schema: streamingTemporaryToken,
      what: 'streaming.createTemporaryToken',
      options,
    }));
  }
}
