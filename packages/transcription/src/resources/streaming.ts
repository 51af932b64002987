import { type APIPromise, type BaseClient, parseInput, type RequestOptions, ValidationError } from '@x/core';
import { StreamingTranscriber as NodeTranscriber } from '#transcriber';
import type { TranscriptionClientOptions } from '../client-options.js';
import type { TranscriptionContext } from '../context.js';
import type { StreamingParams } from '../schemas/streaming.js';
import {
  type StreamingTemporaryToken,
  type StreamingTokenParams,
  streamingTemporaryToken,
  streamingTokenParams,
} from '../schemas/streaming-token.js';
import type { StreamingTranscriberOptions } from '../streaming/options.js';
import type { StreamingTranscriber } from '../streaming/transcriber.js';

/**
 * A transcriber's options from the client: the key, host and `allowUnknownFields` come from the client;
 * pass `getToken` (or `token`) to authenticate with temporary tokens instead of the key.
 */
export type TranscriberOptions = Omit<StreamingTranscriberOptions, 'apiKey' | 'baseUrl'>;

/**
 * Streaming Speech-to-Text v3 (`streaming.assemblyai.com`): temporary tokens for browsers, and
 * transcribers for Node, which authenticate with the client's API key.
 */
export class Streaming {
  readonly #context: TranscriptionContext;
  readonly #baseUrl: string;
  readonly #apiKey: string;
  /** The same client pointed at the streaming host, made on first use (it shares limits and retries). */
  #tokenClient: BaseClient<TranscriptionClientOptions> | undefined;

  constructor(context: TranscriptionContext, baseUrl: string, apiKey: string) {
    this.#context = context;
    this.#baseUrl = baseUrl;
    this.#apiKey = apiKey;
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

  /**
   * A live transcriber (Node), authenticated with the client's API key in the `Authorization` header; with
   * `getToken` or `token` in `options`, with temporary tokens instead. The params are checked now: a bad one
   * throws a `ValidationError` naming it before anything connects.
   *
   * Node only: the key cannot go in a browser's WebSocket, and leaving the transcriber out of other
   * runtimes' builds (the `#transcriber` import map) keeps it out of an edge function's bundle. Elsewhere,
   * use `StreamingTranscriber` from `@x/transcription/streaming` with `getToken`.
   */
  transcriber(params: StreamingParams, options: TranscriberOptions = {}): StreamingTranscriber {
    if (!NodeTranscriber) {
      throw new ValidationError('client.streaming.transcriber()', [
        {
          path: '',
          message:
            'runs in Node only (it authenticates with the API key); in a browser, worker or edge runtime use StreamingTranscriber from @x/transcription/streaming with getToken, and createTemporaryToken() on your server',
        },
      ]);
    }
    const useKey = options.getToken === undefined && options.token === undefined;
    return new NodeTranscriber(params, {
      allowUnknownFields: this.#context.allowUnknownFields,
      ...options,
      baseUrl: this.#baseUrl,
      ...(useKey ? { apiKey: this.#apiKey } : {}),
    });
  }
}
