import { pollDelay, TimeoutError, waitFor } from '@x/core';
import type { TranscriptionContext } from '../context.js';
import { TranscriptError, TranscriptWaitTimeoutError } from '../errors.js';
import type { Transcript } from '../schemas/transcripts.js';
import { backoffMs } from './estimate.js';
import type { CheckedWait } from './options.js';

/** An answer within this long of its poll counts as the poll's own moment. */
const PROMPT_MS = 250;

export interface TranscriptWait {
  /** Polls one transcript (a `transcripts.get`). */
  get: (id: string, signal: AbortSignal) => Promise<Transcript>;
  signal?: AbortSignal | undefined;
  deadline?: number | undefined;
  onStatus?: ((transcript: Transcript) => void) | undefined;
  /** A webhook is on its way: poll only every `webhookPollMs`, as a fallback. */
  expectWebhook: boolean;
  /** `Date.now()` when the submission was answered, when this wait follows it: the first poll is timed from it. */
  submittedAt?: number | undefined;
}

/**
 * Waits for a transcript to end: the first poll where this client's earlier jobs say it is likely done, then
 * backing off; with a webhook expected, rarely, a notification fetching it at once. Resolves `completed`,
 * rejects `TranscriptError` for `error` and `TranscriptWaitTimeoutError` past the deadline.
 */
export async function waitForTranscript(
  context: TranscriptionContext,
  id: string,
  wait: TranscriptWait,
  checked: CheckedWait,
): Promise<Transcript> {
  const { estimate, pollLimiter, notifications, pollGapMs, activeWaits } = context;
  const { submittedAt, expectWebhook } = wait;
  const expectedMs = estimate.firstPollMs(checked.audioSeconds);
  const since = (at: number) => (submittedAt === undefined ? Number.NaN : at - submittedAt);
  let notDoneMs = 0;
  let last: Transcript | undefined;

  const delayMs = (index: number): number => {
    if (expectWebhook) return index === 0 && submittedAt === undefined ? 0 : checked.webhookPollMs;
    // An explicit pollInterval keeps its documented schedule: poll at once, then pollInterval growing 1.5×.
    if (checked.fixed) {
      const schedule = { intervalMs: checked.minMs, backoff: 1.5, maxIntervalMs: checked.maxMs };
      return index === 0 ? 0 : pollDelay(index - 1, schedule);
    }
    if (index > 0) {
      // A queued job has not started: a whole processing time is still ahead of it.
      const ahead =
        last?.status === 'queued'
          ? expectedMs
          : backoffMs(expectedMs, index, { minMs: checked.minMs, maxMs: checked.maxMs });
      // Polls beyond the polling window's share for each wait only queue in the limiter, ahead of the
      // poll of a job that is done: never poll again sooner than that share allows.
      const share = (pollGapMs ?? 0) * activeWaits.count;
      return Math.min(checked.maxMs, Math.max(checked.minMs, ahead, share));
    }
    // Standalone (no submission time): the job may long be done, so ask at once.
    return submittedAt === undefined ? 0 : Math.max(0, expectedMs - (Date.now() - submittedAt));
  };

  let done: Transcript;
  activeWaits.count += 1;
  try {
    done = await waitFor<Transcript>(
      async (signal) => {
        const asked = Date.now();
        const release = await pollLimiter?.acquire(signal);
        release?.();
        last = await wait.get(id, signal);
        const answered = Date.now();
        if (last.status !== 'completed' && last.status !== 'error')
          notDoneMs = Math.max(notDoneMs, since(asked));
        else if (last.status === 'completed' && submittedAt !== undefined) {
          // A poll answered promptly went when planned: it shows the job done by then, not by the answer
          // (else every hit would land past the estimate and never lower it). One the limiter held back
          // shows it done by the answer only.
          const prompt = answered - asked <= Math.max(PROMPT_MS, expectedMs / 4);
          const doneByMs = since(prompt ? asked : answered);
          estimate.observe({ notDoneMs, doneByMs, audioSeconds: last.audio_duration });
        }
        return last;
      },
      {
        isDone: (t) => t.status === 'completed' || t.status === 'error',
        delayBeforePoll: delayMs,
        wake: (wakeUp) => notifications.subscribe(id, wakeUp),
        // The documented callback takes the transcript only: core's poll number stays out of it.
        onStatus: wait.onStatus && ((t) => wait.onStatus?.(t)),
        signal: wait.signal,
        deadlineMs: wait.deadline,
      },
    );
  } catch (error) {
    if (error instanceof TimeoutError && !(error instanceof TranscriptWaitTimeoutError)) {
      throw new TranscriptWaitTimeoutError(id, last?.status, error);
    }
    throw error;
  } finally {
    activeWaits.count -= 1;
  }
  if (done.status === 'error') throw new TranscriptError(done);
  return done;
}
