import { describe, expect, it } from 'vitest';
import { sleepUnlessAborted } from '../../src/index.js';

describe('sleepUnlessAborted', () => {
  it('resolves after the wait when nothing aborts', async () => {
    await expect(sleepUnlessAborted(1, new AbortController().signal, () => new Error('no'))).resolves.toBe(
      undefined,
    );
    await expect(sleepUnlessAborted(1, undefined, () => new Error('no'))).resolves.toBe(undefined);
  });

  it('rejects with the caller’s error on an abort mid-wait, and at once on a signal already aborted', async () => {
    const controller = new AbortController();
    const waiting = sleepUnlessAborted(60_000, controller.signal, () => new Error('stopped'));
    controller.abort();
    await expect(waiting).rejects.toThrow('stopped');
    // An hour-long wait on an aborted signal settles now, or this test would time out.
    await expect(sleepUnlessAborted(3_600_000, controller.signal, () => 'gone')).rejects.toBe('gone');
  });
});
