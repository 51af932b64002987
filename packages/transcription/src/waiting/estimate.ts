/**
 * When a job is likely done, learnt from this client's earlier jobs. Every poll that finds a job unfinished
 * is a request of the rate budget spent for nothing, so the first poll goes where the job has most likely
 * ended, and later ones back off from there.
 *
 * A job's true processing time is never seen: a poll only says "not done by t" (a miss) or "done by t" (a
 * hit). So the estimate is a quantile tracker over these censored observations: a hit before the estimate
 * lowers it a little, a miss after it raises it more, and it settles where a share `QUANTILE` of jobs are
 * done, i.e. about 1 job in 10 needs a second poll. A late poll (one the rate limiter held back) says nothing
 * about the estimate and leaves it alone, so waiting in the limiter does not inflate it.
 *
 * Two trackers: milliseconds per job, for jobs whose audio length is unknown, and milliseconds per second of
 * audio, for jobs submitted with `audioDuration` (the service learns `audio_duration` only as it finishes).
 */

/** The share of jobs expected done at the first poll. */
const QUANTILE = 0.9;
/** Larger steps for the first observations, so a poor prior is left behind within a few jobs. */
const EARLY_STEP = 0.5;
const STEP = 0.25;
const EARLY_OBSERVATIONS = 8;
/** No first poll sooner than this: a submission answer and a poll need the service to do something. */
export const MIN_FIRST_POLL_MS = 500;
/** Nor later than this, whatever was observed (a 10 h file at a slow moment). */
export const MAX_FIRST_POLL_MS = 30 * 60_000;

/**
 * Priors. AssemblyAI: "the vast majority of files sent to our API will complete in under 45 seconds, and
 * with a Real-Time-Factor (RTF) as low as .008x" (docs, FAQ "How long does it take to transcribe a file?").
 * Short files dominate, so a job of unknown length starts at 3 s (the official SDK's fixed poll interval),
 * and a known length at 0.1 s per second of audio (above the best-case RTF, which is for long files).
 */
export const PRIOR_MS = 3_000;
export const PRIOR_MS_PER_AUDIO_SECOND = 100;

/** What one finished job showed: not done `notDoneMs` after submission (0: never seen unfinished), done by `doneByMs`. */
export interface JobObservation {
  notDoneMs: number;
  doneByMs: number;
  /** The transcript's `audio_duration`, seconds, when the service reported one. */
  audioSeconds?: number | null | undefined;
}

class QuantileTracker {
  #value: number;
  #count = 0;

  constructor(initial: number) {
    this.#value = initial;
  }

  get value(): number {
    return this.#value;
  }

  /** The true value lies in (`low`, `high`]. */
  observe(low: number, high: number): void {
    const step = this.#count < EARLY_OBSERVATIONS ? EARLY_STEP : STEP;
    // ±1: a poll placed at the (rounded) estimate is a hit, or a miss, at it.
    if (high <= this.#value + 1) this.#value *= 1 - step * (1 - QUANTILE);
    else if (low >= this.#value - 1) this.#value *= 1 + step * QUANTILE;
    else return;
    this.#count += 1;
  }
}

export class ProcessingEstimate {
  readonly #perJob = new QuantileTracker(PRIOR_MS);
  readonly #perAudioSecond = new QuantileTracker(PRIOR_MS_PER_AUDIO_SECOND);

  /** Milliseconds after submission when a job is likely done; `audioSeconds` when its length is known. */
  firstPollMs(audioSeconds?: number): number {
    const ms = audioSeconds === undefined ? this.#perJob.value : this.#perAudioSecond.value * audioSeconds;
    return Math.round(Math.min(MAX_FIRST_POLL_MS, Math.max(MIN_FIRST_POLL_MS, ms)));
  }

  observe({ notDoneMs, doneByMs, audioSeconds }: JobObservation): void {
    if (!(Number.isFinite(notDoneMs) && Number.isFinite(doneByMs) && doneByMs > notDoneMs)) return;
    this.#perJob.observe(notDoneMs, doneByMs);
    if (typeof audioSeconds === 'number' && Number.isFinite(audioSeconds) && audioSeconds > 0) {
      this.#perAudioSecond.observe(notDoneMs / audioSeconds, doneByMs / audioSeconds);
    }
  }
}

export interface BackoffOptions {
  /** The least delay between two polls of one job. */
  minMs: number;
  /** The most. */
  maxMs: number;
  random?: () => number;
}

/**
 * The delay after the `misses`-th poll that found the job unfinished (1-based): a quarter of the expected
 * processing time, growing 1.5× a miss, between `minMs` and `maxMs`, with ±20 % jitter so jobs submitted
 * together do not poll in bursts.
 */
export function backoffMs(expectedMs: number, misses: number, options: BackoffOptions): number {
  const { minMs, maxMs, random = Math.random } = options;
  const base = (expectedMs / 4) * 1.5 ** Math.max(0, misses - 1);
  const jittered = base * (0.8 + 0.4 * random());
  return Math.round(Math.min(maxMs, Math.max(minMs, jittered)));
}
