import { ValidationError, type ValidationIssue } from '@x/core';
import type { Transcript } from '../schemas/transcripts.js';

/** How `waitUntilDone()` and `transcribe()` wait; every field is checked before any request. */
export interface WaitOptions {
  /**
   * A fixed schedule instead of the learnt one: poll at once, then after `pollInterval` ms, growing 1.5×
   * with jitter up to `maxPollInterval`. Without it, the first poll of `transcribe()` goes where the job is
   * likely done (learnt from this client's earlier jobs), and after a poll that finds it unfinished the delay
   * is a quarter of that estimate growing 1.5× a poll, with jitter, between 1 000 ms and `maxPollInterval`.
   */
  pollInterval?: number;
  /** The most delay between two polls, ms. Default 15 000 ms. */
  maxPollInterval?: number;
  /**
   * The audio's length in seconds, if you know it: the first poll is placed from it (the service reports
   * `audio_duration` only once the job is done), by this client's observed time per second of audio.
   */
  audioDuration?: number;
  /**
   * A webhook will announce the end of this job and your route passes it to `transcripts.notify()`: poll only
   * every `webhookPollInterval`, as a fallback. Default: true in `transcribe()` when `webhook_url` is given.
   */
  expectWebhook?: boolean;
  /** With `expectWebhook`: the fallback polls' interval, ms, at least 1 000. Default 30 000. */
  webhookPollInterval?: number;
  /** Give up after this many ms with a `TranscriptWaitTimeoutError` that carries the transcript id. No default. */
  deadline?: number;
  signal?: AbortSignal;
  /** After every poll, with the transcript as polled: progress reporting (`queued`, `processing`, ...). */
  onStatus?: (transcript: Transcript) => void;
}

/** The wait options after their defaults, checked. */
export interface CheckedWait {
  /** `pollInterval` was given: its fixed schedule instead of the learnt one. */
  fixed: boolean;
  minMs: number;
  maxMs: number;
  audioSeconds: number | undefined;
  webhookPollMs: number;
}

const isMs = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v >= 0;

/** Every wait option checked before any request, each issue naming its option. */
export function checkWaitOptions(
  options: Record<string, unknown>,
  what: string,
  callbacks: readonly string[],
): CheckedWait {
  const issues: ValidationIssue[] = [];
  const { pollInterval, maxPollInterval, deadline, audioDuration, webhookPollInterval, expectWebhook } =
    options;
  const number = (path: string, value: unknown, ok: boolean, rule: string) => {
    if (value !== undefined && !ok) issues.push({ path, message: rule });
  };
  number('pollInterval', pollInterval, isMs(pollInterval), 'must be a number of ms >= 0');
  const minMs = isMs(pollInterval) ? pollInterval : 1_000;
  // A long pollInterval alone should not trip over the default cap.
  const maxMs = maxPollInterval === undefined ? Math.max(15_000, minMs) : (maxPollInterval as number);
  number(
    'maxPollInterval',
    maxPollInterval,
    isMs(maxPollInterval) && maxPollInterval >= minMs,
    'must be a number of ms >= pollInterval',
  );
  number('deadline', deadline, isMs(deadline) && deadline > 0, 'must be a number of ms > 0');
  number(
    'audioDuration',
    audioDuration,
    isMs(audioDuration) && audioDuration > 0,
    'must be the audio length in seconds, > 0',
  );
  number(
    'webhookPollInterval',
    webhookPollInterval,
    isMs(webhookPollInterval) && webhookPollInterval >= 1_000,
    'must be a number of ms >= 1000',
  );
  number('expectWebhook', expectWebhook, typeof expectWebhook === 'boolean', 'must be a boolean');
  for (const name of callbacks) {
    const v = options[name];
    number(name, v, typeof v === 'function', 'must be a function');
  }
  if (issues.length > 0) throw new ValidationError(what, issues);
  return {
    fixed: pollInterval !== undefined,
    minMs,
    maxMs,
    audioSeconds: audioDuration as number | undefined,
    webhookPollMs: (webhookPollInterval as number | undefined) ?? 30_000,
  };
}
