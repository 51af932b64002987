import type { TranscriptRecord } from './transcripts.js';

export interface JobPoolOptions {
  /** Engine processes at once, across keys. */
  workers: number;
  /** Jobs per key admitted at once (waiting for a worker or running); more are queued with `throttled: true`. */
  concurrencyPerKey: number;
}

export type RunJob = (record: TranscriptRecord, signal: AbortSignal) => Promise<void>;

/**
 * The service's two limits on jobs: a per-key (project) concurrency cap, over which jobs wait in a FIFO
 * marked `throttled` instead of being refused, and the emulator's own bound on engine processes so a burst
 * of jobs cannot fork a recogniser per job.
 */
export class JobPool {
  readonly #options: JobPoolOptions;
  readonly #run: RunJob;
  /** Admitted jobs waiting for a worker, across keys, oldest first. */
  readonly #ready: TranscriptRecord[] = [];
  readonly #throttled = new Map<string, TranscriptRecord[]>();
  readonly #admitted = new Map<string, number>();
  readonly #running = new Map<string, AbortController>();
  readonly #settled = new Set<() => void>();
  #closed = false;

  constructor(options: JobPoolOptions, run: RunJob) {
    this.#options = options;
    this.#run = run;
  }

  submit(record: TranscriptRecord): void {
    if (this.#closed) return;
    const admitted = this.#admitted.get(record.key) ?? 0;
    if (admitted < this.#options.concurrencyPerKey) {
      this.#admitted.set(record.key, admitted + 1);
      this.#ready.push(record);
      // Started after the caller's turn: the creating request answers the job as `queued`, as the service does.
      queueMicrotask(() => this.#pump());
      return;
    }
    record.throttled = true;
    const queue = this.#throttled.get(record.key) ?? [];
    queue.push(record);
    this.#throttled.set(record.key, queue);
  }

  /** Stops a job: a waiting one leaves its queue, a running one is aborted (its engine process killed). */
  cancel(record: TranscriptRecord): void {
    this.#running.get(record.id)?.abort(new Error('transcript deleted'));
    const ready = this.#ready.indexOf(record);
    if (ready !== -1) {
      this.#ready.splice(ready, 1);
      this.#release(record.key);
      this.#pump();
    } else {
      const queue = this.#throttled.get(record.key);
      const at = queue?.indexOf(record) ?? -1;
      if (queue && at !== -1) queue.splice(at, 1);
    }
    this.#notify();
  }

  /** Jobs not finished yet (waiting, throttled or running). */
  get pending(): number {
    let throttled = 0;
    for (const q of this.#throttled.values()) throttled += q.length;
    return this.#ready.length + this.#running.size + throttled;
  }

  /** Resolves when no job is waiting or running. */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const check = () => {
        if (this.pending !== 0) return;
        this.#settled.delete(check);
        resolve();
      };
      this.#settled.add(check);
    });
  }

  /** Aborts running jobs and forgets waiting ones; resolves when every engine process has exited. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#ready.length = 0;
    this.#throttled.clear();
    for (const controller of this.#running.values()) controller.abort(new Error('sandbox closing'));
    await this.idle();
  }

  #pump(): void {
    while (!this.#closed && this.#running.size < this.#options.workers && this.#ready.length > 0) {
      const record = this.#ready.shift()!;
      const controller = new AbortController();
      this.#running.set(record.id, controller);
      void this.#run(record, controller.signal)
        .catch(() => {})
        .finally(() => {
          this.#running.delete(record.id);
          this.#release(record.key);
          this.#pump();
          this.#notify();
        });
    }
  }

  #notify(): void {
    for (const check of [...this.#settled]) check();
  }

  /** A slot of `key` freed: its oldest throttled job is admitted. */
  #release(key: string): void {
    const left = (this.#admitted.get(key) ?? 1) - 1;
    if (left <= 0) this.#admitted.delete(key);
    else this.#admitted.set(key, left);
    const next = this.#throttled.get(key)?.shift();
    if (next) {
      this.#admitted.set(key, (this.#admitted.get(key) ?? 0) + 1);
      this.#ready.push(next);
    }
  }
}
