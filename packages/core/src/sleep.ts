/**
 * Waits `ms`, or rejects with `abortError()` once `signal` aborts (at once if it already has). The listener is
 * removed on both paths, since a loop may sleep many times on one signal.
 */
export function sleepUnlessAborted(
  ms: number,
  signal: AbortSignal | undefined,
  abortError: () => unknown,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', abort, { once: true });
  });
}
