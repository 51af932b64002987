import { AbortError } from '@x/core';

/** A counting semaphore: jobs in flight at the service. */
export class JobSlots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    this.#free = size;
  }

  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) {
      throw new AbortError('Aborted before a job slot was free (maxConcurrentJobs)', {
        cause: signal.reason,
      });
    }
    if (this.#free > 0) this.#free -= 1;
    else {
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', abort);
          resolve();
        };
        const abort = () => {
          const at = this.#waiting.indexOf(grant);
          if (at !== -1) this.#waiting.splice(at, 1);
          reject(
            new AbortError('Aborted while waiting for a job slot (maxConcurrentJobs)', {
              cause: signal?.reason,
            }),
          );
        };
        this.#waiting.push(grant);
        signal?.addEventListener('abort', abort, { once: true });
      });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#free += 1;
    };
  }
}
