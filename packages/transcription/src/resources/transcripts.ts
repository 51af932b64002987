import {
  APIPromise,
  cursorStrategy,
  type PagePromise,
  parseInput,
  type RequestOptions,
  TimeoutError,
  ValidationError,
  waitFor,
} from '@x/core';
import type { TranscriptionContext } from '../client.js';
import { TranscriptError, TranscriptWaitTimeoutError } from '../errors.js';
import {
  type ParagraphsResponse,
  paragraphsResponse,
  type RedactedAudioResponse,
  redactedAudioResponse,
  type SentencesResponse,
  type SubtitleFormat,
  type SubtitleParams,
  sentencesResponse,
  subtitleFormat,
  subtitleParams,
  type WordSearchResponse,
  wordSearchResponse,
  wordSearchWords,
} from '../schemas/derived.js';
import {
  type ListTranscriptParams,
  listTranscriptParams,
  type TranscriptListItem,
  transcriptList,
} from '../schemas/list.js';
import { type TranscriptParams, transcriptParams } from '../schemas/params.js';
import { type Transcript, transcript } from '../schemas/transcripts.js';
import type { Files, UploadInput, UploadOptions } from './files.js';

export interface WaitOptions {
  /** First delay between polls, ms (default 1 000); later ones grow by 1.5× with jitter up to `maxPollInterval`. */
  pollInterval?: number;
  /** Default 15 000 ms. */
  maxPollInterval?: number;
  /** Give up after this many ms with a `TranscriptWaitTimeoutError` that carries the transcript id. No default. */
  deadline?: number;
  signal?: AbortSignal;
  /** After every poll, with the transcript as polled: progress reporting (`queued`, `processing`, ...). */
  onStatus?: (transcript: Transcript) => void;
}

/** `transcribe()`'s input: the request parameters, with local audio as `audio` or a URL as `audio_url`. */
export type TranscribeParams = Omit<TranscriptParams, 'audio_url'> &
  ({ audio: UploadInput; audio_url?: never } | { audio_url: string; audio?: never });

export interface TranscribeOptions extends WaitOptions {
  /** For the upload of `audio`: progress of the bytes sent. */
  onUploadProgress?: UploadOptions['onProgress'];
}

/** `/v2/transcript`: transcription jobs, their results and the views derived from them. */
export class Transcripts {
  readonly #context: TranscriptionContext;
  readonly #files: Files;

  constructor(context: TranscriptionContext, files: Files) {
    this.#context = context;
    this.#files = files;
  }

  /**
   * Starts a job and answers it `queued`. Never retried by default: a repeated submission would be a
   * second, billed job (pass `retryNonIdempotent: true` if you accept that).
   */
  submit(params: TranscriptParams, options?: RequestOptions): APIPromise<Transcript> {
    return this.#context.client.request(async () => {
      const body = this.#checkParams(params, 'transcripts.submit params');
      await this.#modelWindow(body.speech_models[0], options?.signal);
      return {
        method: 'POST',
        path: '/v2/transcript',
        body,
        schema: transcript,
        what: 'transcripts.submit',
        options,
      };
    });
  }

  /** The transcript in its current state; a failed job is returned as is, with `status: "error"`. */
  get(id: string, options?: RequestOptions): APIPromise<Transcript> {
    return this.#context.client.request(() => ({
      method: 'GET',
      path: `/v2/transcript/${checkId(id)}`,
      schema: transcript,
      what: 'transcripts.get',
      options,
    }));
  }

  /**
   * Newest first, following `page_details.prev_url` to older pages: `for await (const t of list())` walks
   * every transcript of the last 90 days. `created`/`completed` stay strings: they carry no UTC offset.
   */
  list(params?: ListTranscriptParams, options?: RequestOptions): PagePromise<TranscriptListItem> {
    return this.#context.client.list<TranscriptListItem>(
      () => ({
        method: 'GET',
        path: '/v2/transcript',
        query: { ...parseInput(listTranscriptParams, params ?? {}, 'transcripts.list params') },
        schema: transcriptList,
        what: 'transcripts.list',
        options,
      }),
      cursorStrategy<TranscriptListItem>({
        items: (body) => (body as { transcripts: TranscriptListItem[] }).transcripts,
        nextUrl: (body) => (body as { page_details: { prev_url: string | null } }).page_details.prev_url,
      }),
    );
  }

  /** Removes the transcript's text and audio at the service; the answer is the scrubbed transcript. */
  delete(id: string, options?: RequestOptions): APIPromise<Transcript> {
    return this.#context.client.request(() => ({
      method: 'DELETE',
      path: `/v2/transcript/${checkId(id)}`,
      schema: transcript,
      what: 'transcripts.delete',
      options,
    }));
  }

  /**
   * Polls until the job is `completed` (resolves) or `error` (rejects with `TranscriptError`). Polls count
   * against the rate limit and together spend at most the client's `pollShare` of it.
   */
  async waitUntilDone(id: string, options: WaitOptions = {}): Promise<Transcript> {
    checkId(id);
    const pollLimiter = this.#context.pollLimiter;
    let last: Transcript | undefined;
    let done: Transcript;
    try {
      done = await waitFor(
        async (signal) => {
          const release = await pollLimiter?.acquire(signal);
          release?.();
          last = await this.get(id, { signal });
          return last;
        },
        {
          isDone: (t) => t.status === 'completed' || t.status === 'error',
          intervalMs: options.pollInterval ?? 1_000,
          maxIntervalMs: options.maxPollInterval ?? 15_000,
          deadlineMs: options.deadline,
          signal: options.signal,
          onStatus: options.onStatus ? (t) => options.onStatus!(t) : undefined,
        },
      );
    } catch (error) {
      if (error instanceof TimeoutError && !(error instanceof TranscriptWaitTimeoutError)) {
        throw new TranscriptWaitTimeoutError(id, last?.status, error);
      }
      throw error;
    }
    if (done.status === 'error') throw new TranscriptError(done);
    return done;
  }

  /**
   * Upload (when given local `audio`), submit and wait: the completed transcript, or a `TranscriptError`.
   * At most `maxConcurrentJobs` of these are at the service at once; the others wait before uploading.
   */
  async transcribe(params: TranscribeParams, options: TranscribeOptions = {}): Promise<Transcript> {
    const { audio, ...rest } = params as TranscribeParams & { audio?: UploadInput };
    const hasUrl = typeof rest.audio_url === 'string';
    if ((audio === undefined) === !hasUrl) {
      throw new ValidationError('transcripts.transcribe params', [
        {
          path: audio === undefined ? 'audio' : 'audio_url',
          message: 'give exactly one of audio (local audio) or audio_url',
        },
      ]);
    }
    // Checked before any upload, so a bad parameter costs no upload.
    this.#checkParams(
      { audio_url: 'https://example.invalid/', ...rest } as TranscriptParams,
      'transcripts.transcribe params',
    );
    const release = await this.#context.jobSlots.acquire(options.signal);
    try {
      let audioUrl = rest.audio_url as string | undefined;
      if (audio !== undefined) {
        if (typeof audio === 'string' && /^https?:\/\//i.test(audio)) audioUrl = audio;
        else {
          const uploaded = await this.#files.upload(audio, {
            signal: options.signal,
            onProgress: options.onUploadProgress,
          });
          audioUrl = uploaded.upload_url;
        }
      }
      const submitted = await this.submit({ ...rest, audio_url: audioUrl! } as TranscriptParams, {
        signal: options.signal,
      });
      if (submitted.status === 'completed') return submitted;
      if (submitted.status === 'error') throw new TranscriptError(submitted);
      return await this.waitUntilDone(submitted.id, options);
    } finally {
      release();
    }
  }

  /** The transcript split into sentences, each with its words. */
  sentences(id: string, options?: RequestOptions): APIPromise<SentencesResponse> {
    return this.#view(id, 'sentences', sentencesResponse, options);
  }

  /** The transcript grouped into paragraphs, each with its words. */
  paragraphs(id: string, options?: RequestOptions): APIPromise<ParagraphsResponse> {
    return this.#view(id, 'paragraphs', paragraphsResponse, options);
  }

  /** Captions as SRT or WebVTT text; `chars_per_caption` caps each caption's length. */
  subtitles(
    id: string,
    format: SubtitleFormat,
    params?: SubtitleParams,
    options?: RequestOptions,
  ): APIPromise<string> {
    const text = this.#context.client.request<string | undefined>(() => {
      parseInput(subtitleFormat, format, 'transcripts.subtitles format');
      const query = parseInput(subtitleParams, params ?? {}, 'transcripts.subtitles params');
      return {
        method: 'GET',
        path: `/v2/transcript/${checkId(id)}/${format}`,
        query: { ...query },
        what: 'transcripts.subtitles',
        options,
      };
    });
    // A transcript without words has an empty caption file, which arrives as no body at all.
    return new APIPromise(text.withResponse().then((r) => ({ ...r, data: r.data ?? '' })));
  }

  /** Where words or phrases (up to 5 words each) occur: counts, timestamps and word indexes. */
  wordSearch(id: string, words: readonly string[], options?: RequestOptions): APIPromise<WordSearchResponse> {
    return this.#context.client.request(() => ({
      method: 'GET',
      path: `/v2/transcript/${checkId(id)}/word-search`,
      query: { words: parseInput(wordSearchWords, words, 'transcripts.wordSearch words').join(',') },
      schema: wordSearchResponse,
      what: 'transcripts.wordSearch',
      options,
    }));
  }

  /** The URL of the audio with PII silenced (for transcripts made with `redact_pii_audio: true`). */
  redactedAudio(id: string, options?: RequestOptions): APIPromise<RedactedAudioResponse> {
    return this.#view(id, 'redacted-audio', redactedAudioResponse, options);
  }

  #view<T>(
    id: string,
    view: string,
    schema: import('zod/mini').ZodMiniType<T>,
    options?: RequestOptions,
  ): APIPromise<T> {
    return this.#context.client.request(() => ({
      method: 'GET',
      path: `/v2/transcript/${checkId(id)}/${view}`,
      schema,
      what: `transcripts.${view}`,
      options,
    })) as APIPromise<T>;
  }

  #checkParams(params: TranscriptParams, what: string): TranscriptParams {
    return parseInput(transcriptParams, params, what, {
      allowUnknownFields: this.#context.allowUnknownFields,
      unknownFieldAdvice: UNKNOWN_FIELD_ADVICE,
    });
  }

  async #modelWindow(model: string | undefined, signal: AbortSignal | undefined): Promise<void> {
    const limiter = model === undefined ? undefined : this.#context.modelLimiters.get(model);
    if (limiter) (await limiter.acquire(signal))();
  }
}

const UNKNOWN_FIELD_ADVICE =
  'the service would ignore it or refuse the request. For a parameter newer than this SDK, create the client with allowUnknownFields: true';

/** Transcript ids go into the path: refuse what would change the path (a slash, `..`) or is empty. */
function checkId(id: string): string {
  if (typeof id !== 'string' || id.trim() === '' || /[/?#\\]|^\.\.?$/.test(id)) {
    throw new ValidationError('transcript id', [
      { path: 'id', message: `must be a transcript id, got ${JSON.stringify(id)}` },
    ]);
  }
  return encodeURIComponent(id);
}
