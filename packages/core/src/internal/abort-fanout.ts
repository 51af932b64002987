/**
 * One `abort` listener per caller signal, whatever the number of attempts in flight on it. Concurrent calls
 * given one signal (`Promise.all` over a batch with one AbortController, the common way to cancel a batch)
 * each added a listener of their own, and past 10 Node printed "Possible EventTarget memory leak detected"
 * on both request paths, though every listener was removed when its attempt ended.
 */
const fanouts = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `listener` once when `signal` aborts; the returned function unregisters it. */
export function whenAborted(signal: AbortSignal, listener: () => void): () => void {
  let listeners = fanouts.get(signal);
  if (!listeners) {
    const created = new Set<() => void>();
    listeners = created;
    fanouts.set(signal, created);
    signal.addEventListener(
      'abort',
      () => {
        fanouts.delete(signal);
        for (const each of created) each();
      },
      { once: true },
    );
  }
  const set = listeners;
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}
