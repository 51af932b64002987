import { TimeoutError, XError } from '@x/core';
import type { Transcript } from './schemas/transcripts.js';

/**
 * A transcript that ended in `status: "error"`. The service answers such a job with HTTP 200, so this is
 * not an `APIError`: the request worked, the transcription did not. Thrown by `transcribe()` and
 * `waitUntilDone()`; `get()` returns the transcript as it is.
 */
export class TranscriptError extends XError {
  static override readonly brand: string = 'TranscriptError';
  readonly transcriptId: string;
  /** The service's own words, e.g. "File does not appear to contain audio. ..." */
  readonly serviceMessage: string;
  readonly transcript: Transcript;

  constructor(transcript: Transcript) {
    const serviceMessage = transcript.error ?? 'no error message';
    super(`Transcript ${transcript.id} failed: ${serviceMessage}`);
    this.transcriptId = transcript.id;
    this.serviceMessage = serviceMessage;
    this.transcript = transcript;
  }

  override toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, transcriptId: this.transcriptId };
  }
}

/**
 * `waitUntilDone()` gave up before the job finished. The job goes on at the service (and is billed): the id
 * is here so the caller can wait again or fetch it later, rather than submit a duplicate.
 */
export class TranscriptWaitTimeoutError extends TimeoutError {
  static override readonly brand: string = 'TranscriptWaitTimeoutError';
  readonly transcriptId: string;
  /** The last status seen, if any poll answered. */
  readonly lastStatus: string | undefined;

  constructor(transcriptId: string, lastStatus: string | undefined, cause: TimeoutError) {
    super(
      `${cause.message}. Transcript ${transcriptId} is still being processed; call waitUntilDone("${transcriptId}") again or get() it later instead of submitting it again.`,
      { cause, timeout: cause.timeout, phase: cause.phase },
    );
    this.transcriptId = transcriptId;
    this.lastStatus = lastStatus;
  }

  override toJSON(): Record<string, unknown> {
    return { ...super.toJSON(), transcriptId: this.transcriptId, lastStatus: this.lastStatus };
  }
}
