import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { lastLines } from './process.js';
import {
  audioFrames,
  END_FRAME,
  LineReader,
  type ProgramMessage,
  parseMessage,
  type StreamWord,
  toStreamWords,
} from './streaming-messages.js';
import { PROGRAM } from './streaming-program.js';
import type { RecognizerUpdate, StreamingRecognizer } from './streaming-recognizer.js';
import { EngineError } from './types.js';

export interface RecognizerProcessOptions {
  python: string;
  hmm: string;
  lm: string;
  dict: string;
  maxQueuedMs: number;
  /** PATH for the child (a pyenv shim finds its python through it). */
  path: string;
}

export const STREAMING_INSTALL_HINT = 'apt-get install python3-pocketsphinx pocketsphinx-en-us';

/** An update holds the whole utterance so far (~60 bytes a word): 1 MiB is hours of speech in one utterance. */
const MAX_LINE_BYTES = 1 << 20;
const STDERR_TAIL_BYTES = 4096;
/** Loading the model takes ~0.4 s here; a start that takes this long is stuck, not slow. */
const START_TIMEOUT_MS = 30_000;
/** 16 kHz, 16-bit: bytes of audio per millisecond. */
const BYTES_PER_MS = 32;

type State = 'starting' | 'running' | 'failed' | 'closed';

interface Pending {
  resolve: (words: StreamWord[]) => void;
  reject: (error: unknown) => void;
}

/**
 * One recogniser process and the session's view of it. Every way the process can go wrong (it cannot start,
 * exits, is killed, writes what the program never writes, closes its stdin) ends in one place, `#fail`: before
 * `ready` the start rejects, after it the error listeners hear it once; either way the process group is killed
 * and pending `endUtterance` calls reject. Nothing here throws into a stream's event handler.
 */
export class RecognizerProcess implements StreamingRecognizer {
  /** Settles once the model is loaded (the program's `ready`), or with why it never will be. */
  readonly ready: Promise<void>;
  readonly #options: RecognizerProcessOptions;
  readonly #label: string;
  readonly #child: ChildProcessWithoutNullStreams;
  readonly #lines = new LineReader(MAX_LINE_BYTES);
  readonly #updateListeners: ((update: RecognizerUpdate) => void)[] = [];
  readonly #errorListeners: ((error: Error) => void)[] = [];
  readonly #pending: Pending[] = [];
  #state: State = 'starting';
  #error: Error | undefined;
  #stderr = '';
  #startTimer: NodeJS.Timeout | undefined;
  #readySettle!: (error?: Error) => void;
  /** A byte of a sample whose other byte has not been written yet. */
  #oddByte: Uint8Array | undefined;
  #writtenBytes = 0;
  #consumedMs = 0;
  #utteranceStartMs = 0;

  constructor(options: RecognizerProcessOptions) {
    this.#options = options;
    this.#label = `the streaming recogniser (${options.python})`;
    this.ready = new Promise((resolve, reject) => {
      this.#readySettle = (error) => (error ? reject(error) : resolve());
    });
    // Its own process group (detached), so close() can kill whatever it started with one signal, and a
    // Ctrl+C meant for the sandbox reaches the sandbox, which then closes its sessions. -I: no user site,
    // no PYTHON* variables, no working directory on sys.path, so the Debian binding is what gets imported.
    this.#child = spawn(options.python, ['-I', '-c', PROGRAM, options.hmm, options.lm, options.dict], {
      detached: true,
      env: { PATH: options.path, LANG: 'C' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const child = this.#child;
    child.on('error', (error: NodeJS.ErrnoException) => {
      // After a start, 'error' means a failed kill or message; the exit is reported by 'close'.
      if (child.pid !== undefined) return;
      const missing = error.code === 'ENOENT' || error.code === 'EACCES';
      this.#fail(
        new EngineError(
          missing ? 'unavailable' : 'failed',
          `${this.#label} could not be started: ${error.message}.${missing ? ` Install it with: ${STREAMING_INSTALL_HINT}` : ''}`,
          { cause: error },
        ),
      );
    });
    // EPIPE when the process is gone: that is reported by 'close', with its exit status and log.
    child.stdin.on('error', () => {});
    child.stdout.on('data', (chunk: Buffer) => this.#read(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });
    // 'close', not 'exit': the output is drained first, so the program's own error line is read before this.
    child.on('close', (code, signal) => {
      const why = signal ? `was killed by ${signal}` : `exited with status ${code}`;
      this.#fail(new EngineError('failed', `${this.#label} ${why}: ${lastLines(this.#stderr)}`));
    });
    this.#startTimer = setTimeout(
      () =>
        this.#fail(
          new EngineError('timeout', `${this.#label} did not load its model within ${START_TIMEOUT_MS} ms.`),
        ),
      START_TIMEOUT_MS,
    );
  }

  write(pcm: Uint8Array): boolean {
    if (this.#state !== 'running') return false;
    let bytes = pcm;
    if (this.#oddByte) {
      bytes = Buffer.concat([this.#oddByte, pcm]);
      this.#oddByte = undefined;
    }
    if (bytes.length % 2 === 1) {
      this.#oddByte = bytes.slice(-1);
      bytes = bytes.subarray(0, -1);
    }
    if (bytes.length > 0) {
      this.#child.stdin.write(audioFrames(bytes));
      this.#writtenBytes += bytes.length;
    }
    return this.#writtenMs - this.#consumedMs <= this.#options.maxQueuedMs;
  }

  onUpdate(listener: (update: RecognizerUpdate) => void): void {
    this.#updateListeners.push(listener);
  }

  endUtterance(): Promise<StreamWord[]> {
    if (this.#state !== 'running') return Promise.reject(this.#error ?? closedError());
    this.#child.stdin.write(END_FRAME);
    return new Promise((resolve, reject) => this.#pending.push({ resolve, reject }));
  }

  onError(listener: (error: Error) => void): void {
    this.#errorListeners.push(listener);
    // A failure before anyone listened is still told, once, to each listener.
    const error = this.#error;
    if (this.#state === 'failed' && error) queueMicrotask(() => listener(error));
  }

  close(): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    const wasStarting = this.#state === 'starting';
    this.#state = 'closed';
    this.#stop(closedError(), wasStarting);
  }

  get #writtenMs(): number {
    return Math.floor(this.#writtenBytes / BYTES_PER_MS);
  }

  #fail(error: Error): void {
    if (this.#state === 'closed' || this.#state === 'failed') return;
    const wasStarting = this.#state === 'starting';
    this.#state = 'failed';
    this.#error = error;
    this.#stop(error, wasStarting);
    if (!wasStarting) for (const listener of this.#errorListeners) listener(error);
  }

  #stop(reason: Error, wasStarting: boolean): void {
    clearTimeout(this.#startTimer);
    const child = this.#child;
    // Only while it runs: once it has exited, its pid (and group id) may already belong to someone else.
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }
    // Drop the audio still buffered for it and stop reading what it may still be writing.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream.destroy();
    if (wasStarting) this.#readySettle(reason);
    for (const pending of this.#pending.splice(0)) pending.reject(reason);
  }

  #read(chunk: Buffer): void {
    const lines = this.#lines.push(chunk);
    if (!lines) {
      this.#fail(
        new EngineError('failed', `${this.#label} wrote a line longer than ${MAX_LINE_BYTES} bytes.`),
      );
      return;
    }
    for (const line of lines) {
      if (this.#state === 'closed' || this.#state === 'failed') return;
      const message = parseMessage(line);
      const problem = message ? this.#handle(message) : 'something that is not a recogniser message';
      if (problem) {
        const excerpt = JSON.stringify(line.length > 80 ? `${line.slice(0, 80)}…` : line);
        this.#fail(new EngineError('failed', `${this.#label} wrote ${problem}: ${excerpt}`));
      }
    }
  }

  /** Acts on one message; returns what is wrong with it when it does not fit the conversation so far. */
  #handle(message: ProgramMessage): string | undefined {
    if (message.type === 'error') {
      this.#fail(
        message.kind === 'unavailable'
          ? new EngineError(
              'unavailable',
              `python3-pocketsphinx is not installed for ${this.#options.python} (${message.message}). Install it with: ${STREAMING_INSTALL_HINT}`,
            )
          : new EngineError(
              'failed',
              `${this.#label} failed: ${message.message} (is the model installed? ${STREAMING_INSTALL_HINT})`,
            ),
      );
      return undefined;
    }
    if (message.type === 'ready') {
      if (this.#state !== 'starting') return 'a second ready';
      this.#state = 'running';
      clearTimeout(this.#startTimer);
      this.#readySettle();
      return undefined;
    }
    if (this.#state !== 'running') return 'a result before ready';
    // The program reports audio it has consumed: never less than before, never more than it was sent.
    if (message.audioMs < this.#consumedMs || message.audioMs > this.#writtenMs) {
      return `a position of ${message.audioMs} ms (consumed ${this.#consumedMs} ms, sent ${this.#writtenMs} ms)`;
    }
    this.#consumedMs = message.audioMs;
    const words = toStreamWords(message.words, this.#utteranceStartMs, message.audioMs);
    if (message.type === 'final') {
      const pending = this.#pending.shift();
      if (!pending) return 'a final result nobody asked for';
      this.#utteranceStartMs = message.audioMs;
      pending.resolve(words);
      return undefined;
    }
    const update: RecognizerUpdate = { words, audioMs: message.audioMs, inSpeech: message.inSpeech };
    for (const listener of this.#updateListeners) listener(update);
    return undefined;
  }
}

/** What calls pending or made after `close()` reject with: a cancellation, as an aborted fetch is. */
function closedError(): Error {
  return new DOMException('The streaming recogniser was closed.', 'AbortError');
}
