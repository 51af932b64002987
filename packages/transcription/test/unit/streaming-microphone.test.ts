/**
 * captureMicrophone's browser glue with the Web Audio objects it uses standing in for a browser's (Node has
 * none): the context is resumed when the browser created it suspended (a context made after an await, as
 * here after getUserMedia, is outside the user's gesture), the worklet's quanta come out as PCM at the
 * session's rate, and stop() releases what the capture took.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureMicrophone } from '../../src/streaming/audio/microphone.js';

const made: FakeContext[] = [];
let initialState: 'suspended' | 'running';

class FakeContext {
  state: string = initialState;
  readonly sampleRate = 48_000;
  resumes = 0;
  closed = false;
  readonly destination = {};
  readonly audioWorklet = { addModule: async (_url: string) => {} };
  constructor() {
    made.push(this);
  }
  async resume() {
    this.resumes += 1;
    this.state = 'running';
  }
  async close() {
    this.closed = true;
    this.state = 'closed';
  }
  createMediaStreamSource() {
    return { connect: () => {}, disconnect: () => {} };
  }
}

let node: { port: { onmessage: ((event: { data: Float32Array }) => void) | null } } | undefined;
class FakeWorkletNode {
  readonly port = { onmessage: null };
  constructor() {
    node = this;
  }
  connect() {}
  disconnect() {}
}

const track = { stopped: false, stop: () => (track.stopped = true) };

beforeEach(() => {
  made.length = 0;
  track.stopped = false;
  vi.stubGlobal('AudioContext', FakeContext);
  vi.stubGlobal('AudioWorkletNode', FakeWorkletNode);
  vi.stubGlobal('navigator', {
    mediaDevices: { getUserMedia: async () => ({ getTracks: () => [track] }) },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('captureMicrophone', () => {
  it('resumes a context the browser created suspended, and only then', async () => {
    for (const state of ['suspended', 'running'] as const) {
      initialState = state;
      const mic = await captureMicrophone({ onAudio: () => {} });
      const context = made.at(-1)!;
      expect(context.resumes).toBe(state === 'suspended' ? 1 : 0);
      expect(context.state).toBe('running');
      await mic.stop();
    }
  });

  it("delivers the worklet's audio as PCM at the session's rate, and stop() releases the microphone", async () => {
    initialState = 'suspended';
    const chunks: Int16Array[] = [];
    const mic = await captureMicrophone({ sampleRate: 16_000, onAudio: (pcm) => chunks.push(pcm) });
    expect([mic.sampleRate, mic.inputRate]).toEqual([16_000, 48_000]);
    // 30 quanta of 128 samples at 48 kHz: 3,840 samples in, 1,280 out (a third), full scale in and out.
    for (let i = 0; i < 30; i++) node!.port.onmessage!({ data: new Float32Array(128).fill(1) });
    const total = chunks.reduce((n, c) => n + c.length, 0);
    expect(Math.abs(total - 1280)).toBeLessThanOrEqual(1);
    expect(chunks.every((c) => c.every((s) => s === 32767))).toBe(true);
    await mic.stop();
    expect(track.stopped).toBe(true);
    expect(made.at(-1)!.closed).toBe(true);
    expect(node!.port.onmessage).toBeNull();
  });
});
