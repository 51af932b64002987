/** The setup of the streaming transcriber's hostile tests: a sandbox whose streaming service hears nothing. */
import { afterAll, beforeAll } from 'vitest';
import { sandbox } from './sandbox.js';

/** The streaming parameters every hostile test connects with. */
export const PARAMS = { speech_model: 'universal-streaming-english', sample_rate: 16000 } as const;

/**
 * A recogniser that hears nothing: no final turn ever covers the audio, as in a silent stretch of a call.
 * The hostile tests are about the session (its queue, its end, its reconnects), not its words.
 */
export const deaf = async () => ({
  write: () => true,
  onUpdate: () => {},
  endUtterance: async () => [],
  onError: () => {},
  close: () => {},
});

export type DeafSandbox = Awaited<ReturnType<typeof sandbox>>;

/** A sandbox with the deaf recogniser and no limit on new sessions. */
export function deafSandbox(): Promise<DeafSandbox> {
  return sandbox({ streaming: { recognizer: deaf, newSessionsPerMinute: false } });
}

/**
 * The deaf sandbox a test file shares: started before its first test, closed after its last. The value
 * stands for it (property reads pass through to the running sandbox), so the file's tests use it as the sandbox.
 */
export function deafSandboxForFile(): DeafSandbox {
  let running: DeafSandbox | undefined;
  beforeAll(async () => {
    running = await deafSandbox();
  });
  afterAll(async () => {
    await running?.close();
  });
  return new Proxy({} as DeafSandbox, {
    get(_target, key) {
      if (!running) throw new Error(`sandbox.${String(key)} read before beforeAll started the sandbox`);
      const value: unknown = Reflect.get(running, key, running);
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}
