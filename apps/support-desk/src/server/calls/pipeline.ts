import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { StoreClient } from '@x/store';
import { type Transcript, TranscriptError, type TranscriptionClient } from '@x/transcription';
import { type CallView, DeskEvents } from '../../shared/api.js';
import { analyseSentiment, type TranscriptInput } from '../analysis/summary.js';
import { describe } from '../errors.js';
import { customerSummary } from '../present.js';
import type { Broadcaster } from '../services.js';
import { linkCallToStore } from './link-store.js';
import {
  type CallChange,
  type CallRecord,
  type CallRegistry,
  isFinished,
  logName,
  view,
} from './registry.js';

/** The header the transcription service sends back with each notification, holding our secret. */
export const TRANSCRIPTION_WEBHOOK_HEADER = 'X-Support-Desk-Webhook';

export interface PipelineOptions {
  store: StoreClient;
  transcription: TranscriptionClient;
  broadcaster: Broadcaster;
  registry: CallRegistry;
  speechModels: string[];
  /** Where the service posts notifications; null when it cannot reach this server (then it polls). */
  webhook: { url: string; secret: string } | null;
  pollFallbackMs: number;
  logger: Pick<Console, 'info' | 'warn' | 'error'>;
}

/**
 * What the desk asks of every uploaded call beyond its words: two voices told apart (an agent and a
 * customer), the service naming which is which, the entities, a summary and the action items. The
 * customer's role is read from the service's answer when it gives one (see analysis/speakers.ts).
 */
export const CALL_UNDERSTANDING = {
  speaker_labels: true,
  speakers_expected: 2,
  entity_detection: true,
  speech_understanding: {
    request: {
      speaker_identification: { speaker_type: 'role', known_values: ['Agent', 'Customer'] },
      summarization: {},
      action_items: {},
    },
  },
} satisfies Partial<Parameters<TranscriptionClient['transcripts']['submit']>[0]>;

/** How long between status events while the server uploads to the transcription service. */
const PROGRESS_EVERY_MS = 250;

/**
 * One call from a local audio file to an analysed transcript: upload with `@x/transcription`, submit with
 * sentiment analysis and content safety, learn of completion from the webhook (polling only when it does
 * not come in time), analyse, write to the store, and tell every dashboard at each step.
 */
export class CallPipeline {
  readonly #timers = new Map<string, NodeJS.Timeout>();
  readonly #polls = new Map<string, AbortController>();
  #closed = false;

  constructor(private readonly o: PipelineOptions) {}

  /** Starts the work and returns at once; progress arrives as `call-status` events. */
  start(call: CallRecord, audioPath: string, removeAfterUpload: boolean): void {
    void this.#run(call, audioPath, removeAfterUpload);
  }

  async #run(call: CallRecord, audioPath: string, removeAfterUpload: boolean): Promise<void> {
    const { transcription } = this.o;
    try {
      await this.#update(call, { status: 'uploading', progress: 0 });
      let lastSent = 0;
      const uploaded = await transcription.files
        .upload(audioPath, {
          onProgress: ({ loaded, total }) => {
            const now = Date.now();
            if (!total || now - lastSent < PROGRESS_EVERY_MS) return;
            lastSent = now;
            this.#update(call, { progress: Math.min(loaded / total, 1) }).catch(() => {}); // the next one will do
          },
        })
        .finally(() =>
          removeAfterUpload ? rm(dirname(audioPath), { recursive: true, force: true }) : undefined,
        );
      const submitted = await transcription.transcripts.submit({
        audio_url: uploaded.upload_url,
        speech_models: this.o.speechModels,
        sentiment_analysis: true,
        content_safety: true,
        ...CALL_UNDERSTANDING,
        ...(this.o.webhook
          ? {
              webhook_url: this.o.webhook.url,
              webhook_auth_header_name: TRANSCRIPTION_WEBHOOK_HEADER,
              webhook_auth_header_value: this.o.webhook.secret,
            }
          : {}),
      });
      await this.#update(call, { transcriptId: submitted.id, status: 'transcribing', progress: 1 });
      this.#schedulePoll(submitted.id, this.o.webhook ? this.o.pollFallbackMs : 0);
    } catch (error) {
      // A failure before the upload began (the database refused the status) leaves the file here.
      if (removeAfterUpload) await rm(dirname(audioPath), { recursive: true, force: true }).catch(() => {});
      await this.#fail(call, error);
    }
  }

  /** The webhook said the job ended: fetch it and finish. Unknown or finished transcripts are ignored. */
  async onWebhook(transcriptId: string): Promise<void> {
    // Never throws (the route answers the service before this runs): a database that is down is logged.
    const call = await this.o.registry.byTranscript(transcriptId).catch((error: unknown) => {
      this.o.logger.warn(`transcript ${transcriptId}: ${describe(error)}`);
      return undefined;
    });
    if (!call || isFinished(call.status) || call.status === 'analysing') return;
    this.#stopPolling(transcriptId);
    let transcript: Transcript;
    try {
      transcript = await this.o.transcription.transcripts.get(transcriptId);
    } catch (error) {
      // The job is fine at the service; only this fetch failed (a 5xx past the retries, a dropped
      // connection). Failing the call here lost a finished transcript, and a replayed notification could
      // fail the call the first one was about to analyse: poll instead, which fails the call if it fails.
      this.o.logger.warn(`transcript ${transcriptId}: ${describe(error)}; polling`);
      this.#schedulePoll(transcriptId, 0);
      return;
    }
    // A notification that ran ahead of the job's state: keep waiting, by polling.
    if (transcript.status !== 'completed' && transcript.status !== 'error')
      this.#schedulePoll(transcriptId, 0);
    else await this.#finish(call, transcript, 'webhook');
  }

  #schedulePoll(transcriptId: string, afterMs: number): void {
    if (this.#closed) return;
    const timer = setTimeout(() => {
      this.#timers.delete(transcriptId);
      this.#poll(transcriptId).catch((error) =>
        this.o.logger.warn(`transcript ${transcriptId}: ${describe(error)}`),
      );
    }, afterMs);
    timer.unref();
    this.#timers.set(transcriptId, timer);
  }

  async #poll(transcriptId: string): Promise<void> {
    const call = await this.o.registry.byTranscript(transcriptId);
    if (!call || isFinished(call.status) || call.status === 'analysing') return;
    if (this.o.webhook) this.o.logger.warn(`transcript ${transcriptId}: no webhook yet, polling`);
    const controller = new AbortController();
    this.#polls.set(transcriptId, controller);
    try {
      const transcript = await this.o.transcription.transcripts.waitUntilDone(transcriptId, {
        pollInterval: 1000,
        maxPollInterval: 5000,
        signal: controller.signal,
      });
      await this.#finish(call, transcript, 'polling');
    } catch (error) {
      if (controller.signal.aborted) return; // the webhook came first, or the server is closing
      if (error instanceof TranscriptError) await this.#finish(call, error.transcript, 'polling');
      else await this.#fail(call, error);
    } finally {
      this.#polls.delete(transcriptId);
    }
  }

  #stopPolling(transcriptId: string): void {
    clearTimeout(this.#timers.get(transcriptId));
    this.#timers.delete(transcriptId);
    this.#polls.get(transcriptId)?.abort();
  }

  async #finish(call: CallRecord, transcript: Transcript, by: 'webhook' | 'polling'): Promise<void> {
    if (isFinished(call.status) || call.status === 'analysing') return;
    if (transcript.status === 'error') {
      await this.#fail(call, new Error(`transcription failed: ${transcript.error ?? 'unknown error'}`));
      return;
    }
    await this.analyse(call, transcript, by);
  }

  /**
   * The analysis every call ends with, whatever brought its transcript (a finished job, or a live call's
   * final turns): sentiment, the store lookup, the order note and the customer tag, then `call-analyzed`.
   * Once per call: a call already analysing or finished is left alone. Never throws (a failure is the
   * call's `error`).
   */
  async analyse(call: CallRecord, transcript: TranscriptInput, by: CallView['completedBy']): Promise<void> {
    if (isFinished(call.status) || call.status === 'analysing') return;
    try {
      // Claimed in the database: another instance sharing it may be analysing this call already.
      if (!(await this.o.registry.claim(call, { status: 'analysing', completedBy: by }))) return;
      await this.o.broadcaster.push(DeskEvents.callStatus, view(call));
      const sentiment = analyseSentiment(transcript);
      const { updatedCustomer, ...link } = await linkCallToStore(this.o.store, sentiment);
      await this.o.registry.update(call, {
        analysis: { ...sentiment, ...link },
        status: 'done',
        overall: sentiment.overall,
        summary: link.summary,
      });
      if (updatedCustomer)
        await this.o.broadcaster.push(DeskEvents.customerUpserted, customerSummary(updatedCustomer));
      this.o.logger.info(
        `call ${logName(call)}: ${sentiment.overall}, orders ${link.orderNumbers.join(', ') || 'none'}`,
      );
      await this.o.broadcaster.push(DeskEvents.callAnalyzed, view(call));
    } catch (error) {
      await this.#fail(call, error);
    }
  }

  async #update(call: CallRecord, change: CallChange): Promise<void> {
    await this.o.registry.update(call, change);
    await this.o.broadcaster.push(DeskEvents.callStatus, view(call));
  }

  async #fail(call: CallRecord, error: unknown): Promise<void> {
    this.o.logger.warn(`call ${logName(call)}: ${describe(error)}`);
    // Never throws (its callers run unawaited): a failure the database cannot take is only logged.
    try {
      // Not over a done call: this copy may be stale (another instance analysed the call meanwhile).
      if (await this.o.registry.fail(call, describe(error)))
        await this.o.broadcaster.push(DeskEvents.callStatus, view(call));
    } catch (stored) {
      this.o.logger.error(`call ${logName(call)}: failure not stored: ${describe(stored)}`);
    }
  }

  /** Stops every wait and timer; jobs already submitted go on at the service. */
  close(): void {
    this.#closed = true;
    for (const id of [...this.#timers.keys(), ...this.#polls.keys()]) this.#stopPolling(id);
  }
}
