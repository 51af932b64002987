/**
 * Hostile review of the streaming emulator (issue 18), over real sockets: a client that opens sessions and
 * drops them at once must not make the sandbox run more recogniser processes than `maxConcurrentSessions`
 * (measured with the real recogniser: 30 connects dropped at once left 30 python3 processes loading the
 * model for ~5 s after every session was gone, `stats().open` already 0).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, type StreamingRecognizer, startSandbox } from '../../src/index.js';
import { StreamClient } from '../helpers/streaming.js';

/**
 * A recogniser seam whose starts wait for `release()`, as a real one waits for its model to load (~0.4 s
 * of a python3 process, longer under load): counts what was started and closed, so "processes alive" is
 * exact without timing anything.
 */
class GatedRecognizers {
  started = 0;
  closed = 0;
  #gates: (() => void)[] = [];

  get alive(): number {
    return this.started - this.closed;
  }

  factory = (): Promise<StreamingRecognizer> => {
    this.started += 1;
    let closed = false;
    const recognizer: StreamingRecognizer = {
      write: () => true,
      onUpdate: () => {},
      endUtterance: async () => [],
      onError: () => {},
      close: () => {
        if (!closed) this.closed += 1;
        closed = true;
      },
    };
    return new Promise((resolve) => this.#gates.push(() => resolve(recognizer)));
  };

  release(): void {
    for (const open of this.#gates.splice(0)) open();
  }
}

const MAX_CONCURRENT = 2;
const recognizers = new GatedRecognizers();
let gated: Sandbox<false>;

beforeAll(async () => {
  const streaming = { newSessionsPerMinute: false, maxConcurrentSessions: MAX_CONCURRENT } as const;
  gated = await startSandbox({
    store: false,
    transcription: { streaming: { ...streaming, recognizer: recognizers.factory } },
  });
});

afterAll(async () => {
  recognizers.release();
  await gated?.close();
});

/** A raw client of `box`'s socket with the key, `query` as given. */
function connect(box: Sandbox<false>, query: string): StreamClient {
  const { streaming, apiKey } = box.transcription!;
  return new StreamClient(`${streaming.url}?${query}`, { headers: { Authorization: apiKey } });
}

describe('streaming emulator, hostile', () => {
  it('maxConcurrentSessions bounds the recogniser processes: sessions dropped while theirs start do not free their place', async () => {
    // Each connect is dropped right after Begin, before its recogniser has started: the emulator forgets
    // the session at once, but its recogniser (a python3 loading its model) goes on starting.
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const client = connect(gated, 'sample_rate=16000');
      const first = await client.next(() => true);
      if (first.type === 'Begin') client.ws.terminate();
      codes.push((await client.closed).code);
    }
    // The README: "the sandbox bounds this too, since each session runs a recogniser process".
    expect(recognizers.alive).toBeLessThanOrEqual(MAX_CONCURRENT);
    expect(codes.filter((code) => code === 3009).length).toBe(6 - recognizers.started);
    recognizers.release();
    await new Promise((resolve) => setImmediate(resolve));
    // Every recogniser started is closed once its session is gone.
    expect(recognizers.alive).toBe(0);
  });
});
