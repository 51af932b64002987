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
