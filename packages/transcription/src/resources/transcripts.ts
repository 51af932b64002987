import {
  APIPromise,
  cursorStrategy,
  type IdempotencyRecord,
  idempotencyKeyIssue,
  type PagePromise,
  parseInput,
  type RequestOptions,
  runIdempotent,
  ValidationError,
  type WithResponse,
} from '@x/core';
import type { TranscriptionContext } from '../context.js';
import { TranscriptError } from '../errors.js';
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
import { type CheckedWait, checkWaitOptions, type WaitOptions } from '../waiting/options.js';
import { waitForTranscript } from '../waiting/transcript.js';
import { parseWebhook } from '../webhooks.js';
import type { Files, UploadInput, UploadOptions } from './files.js';

export type { WaitOptions };

/** `transcribe()`'s input: the request parameters, with local audio as `audio` or a URL as `audio_url`. */
export type TranscribeParams = Omit<TranscriptParams, 'audio_url'> &
  ({ audio: UploadInput; audio_url?: never } | { audio_url: string; audio?: never });

export interface TranscribeOptions extends WaitOptions {
  /** For the upload of `audio`: progress of the bytes sent. */
  onUploadProgress?: UploadOptions['onProgress'];
  /** One job per key, as for `submit()`. With local `audio`, a repeated call uploads again but submits once. */
  idempotencyKey?: string;
}

/**
 * How far before a key's reservation recovery looks for the job of an attempt whose answer was lost: the
 * service stamps `created` on its own clock, the reservation is on the store's; this absorbs their skew.
 */
const RECOVERY_SKEW_MS = 5 * 60_000;

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
   * second, billed job (pass `retryNonIdempotent: true` if you accept that). With an `idempotencyKey`
   * (kept by the client: the service has none), a repeated or concurrent call with the same key answers
   * the first call's transcript instead of submitting again; see the README for what it guarantees.
   */
  submit(params: TranscriptParams, options?: RequestOptions): APIPromise<Transcript> {
    if (options?.idempotencyKey === undefined) return this.#post(params, options);
    return new APIPromise(this.#submitOnce(params, options, 'transcripts.submit'));
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
   * Waits until the job is `completed` (resolves) or `error` (rejects with `TranscriptError`): polls at once,
   * then backs off from when this client's earlier jobs took to finish. Polls count against the rate limit
   * and together spend at most the client's `pollShare` of it; a `notify()` for the job polls at once.
   */
  async waitUntilDone(id: string, options: WaitOptions = {}): Promise<Transcript> {
    const checked = checkWaitOptions({ ...options }, 'transcripts.waitUntilDone options', ['onStatus']);
    return await this.#wait(id, options, checked);
  }

  /**
   * Hands a webhook notification, from your route, to this client's waits: a `transcribe()` or
   * `waitUntilDone()` waiting on its `transcript_id` fetches the transcript now instead of at its next poll.
   * Takes the raw body or parsed JSON, as `parseWebhook` (a `ValidationError` for anything else). Check the
   * request with `verifyWebhook` first; even so, a notification only wakes a wait, which reads the result
   * from the service. True when a wait was woken; one that starts later (within 10 min) is woken at once.
   */
  notify(body: unknown): boolean {
    const notification = parseWebhook(body);
    const id = (notification as { transcript_id?: unknown }).transcript_id;
    return typeof id === 'string' && this.#context.notifications.notify(id);
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
    // Checked before any upload, so a bad parameter or key costs no upload.
    const checked = checkWaitOptions({ ...options }, 'transcripts.transcribe options', [
      'onStatus',
      'onUploadProgress',
    ]);
    const key = options.idempotencyKey;
    const keyIssue = key === undefined ? undefined : idempotencyKeyIssue(key);
    if (keyIssue) throw new ValidationError('transcripts.transcribe options', [keyIssue]);
    this.#checkParams(
      { audio_url: 'https://example.invalid/', ...rest } as TranscriptParams,
      'transcripts.transcribe params',
    );
    const release = await this.#context.jobSlots.acquire(options.signal);
    try {
      let audioUrl = rest.audio_url as string | undefined;
      let uploaded = false;
      if (audio !== undefined) {
        if (typeof audio === 'string' && /^https?:\/\//i.test(audio)) audioUrl = audio;
        else {
          const upload = await this.#files.upload(audio, {
            signal: options.signal,
            onProgress: options.onUploadProgress,
          });
          audioUrl = upload.upload_url;
          uploaded = true;
        }
      }
      const params = { ...rest, audio_url: audioUrl! } as TranscriptParams;
      const submitted =
        key === undefined
          ? await this.submit(params, { signal: options.signal })
          : (
              await this.#submitOnce(
                params,
                { signal: options.signal, idempotencyKey: key },
                'transcripts.transcribe',
                // Each upload has a new URL: the key stands for the other parameters.
                uploaded ? { ...rest, audio: 'uploaded' } : undefined,
              )
            ).data;
      if (submitted.status === 'completed') return submitted;
      if (submitted.status === 'error') throw new TranscriptError(submitted);
      const expectWebhook = options.expectWebhook ?? typeof rest.webhook_url === 'string';
      return await this.#wait(submitted.id, { ...options, expectWebhook }, checked, Date.now());
    } finally {
      release();
    }
  }

  #wait(id: string, options: WaitOptions, checked: CheckedWait, submittedAt?: number): Promise<Transcript> {
    checkId(id);
    return waitForTranscript(
      this.#context,
      id,
      {
        get: (transcriptId, signal) => this.get(transcriptId, { signal }),
        signal: options.signal,
        deadline: options.deadline,
        onStatus: options.onStatus,
        expectWebhook: options.expectWebhook ?? false,
        submittedAt,
      },
      checked,
    );
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

  #post(params: TranscriptParams, options?: RequestOptions): APIPromise<Transcript> {
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

  /** `fingerprint`: what the key stands for, when not the request itself (a local upload's URL differs each time). */
  async #submitOnce(
    params: TranscriptParams,
    options: RequestOptions,
    what: string,
    fingerprint?: unknown,
  ): Promise<WithResponse<Transcript>> {
    const { idempotencyKey: key, ...rest } = options;
    const issue = idempotencyKeyIssue(key);
    if (issue) throw new ValidationError(`${what} options`, [issue]);
    const body = this.#checkParams(params, `${what} params`);
    const { store, leaseMs, ttlMs } = this.#context.idempotency;
    return runIdempotent({
      store,
      key: key!,
      fingerprint: fingerprint ?? body,
      sent: body.audio_url,
      leaseMs,
      ttlMs,
      signal: rest.signal,
      send: async (deadline) => {
        // Ends (aborted, never retried) before the lease does, so nobody takes the key over meanwhile.
        const left = Math.max(1, deadline - Date.now());
        const totalTimeout = Math.min(rest.totalTimeout ?? left, left);
        const sent = await this.#post(body, { ...rest, totalTimeout }).withResponse();
        return { id: sent.data.id, value: sent };
      },
      recover: (record) => this.#recover(record, rest.signal),
      fetch: (id) => this.get(id, { signal: rest.signal }).withResponse(),
    });
  }

  /**
   * Jobs an earlier attempt of `record` may have created: created since its reservation (less the skew)
   * with an `audio_url` it sent. The list is newest first, so the walk stops at the first older one.
   */
  async #recover(record: IdempotencyRecord, signal: AbortSignal | undefined): Promise<string[]> {
    const from = record.since - RECOVERY_SKEW_MS;
    const ids: string[] = [];
    for await (const item of this.list({ limit: 200 }, { signal })) {
      // `created` has no offset; the service's clock is UTC (as its `created_on` filter is).
      const created = Date.parse(
        /[zZ]|[+-]\d\d:?\d\d$/.test(item.created) ? item.created : `${item.created}Z`,
      );
      if (created < from) break;
      if (record.sent.includes(item.audio_url)) ids.push(item.id);
    }
    return ids;
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
