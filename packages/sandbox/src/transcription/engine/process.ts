import { spawn } from 'node:child_process';
import { abortReason, EngineError } from './types.js';

export interface RunOptions {
  signal?: AbortSignal;
  timeoutMs: number;
  /** PATH for the child, so it resolves helpers from the same place its own binary was found. */
  path: string;
  /** Names the tool in timeout and failure messages. */
  label: string;
}

export interface RunResult {
  stdout: string;
  /** The last lines only: enough to explain a failure, bounded however chatty the tool is. */
  stderrTail: string;
}

const STDERR_TAIL_BYTES = 4096;

/**
 * Runs one engine tool to completion. On abort or timeout the child is killed (SIGKILL: the tools keep no state
 * worth a graceful stop) and the promise settles only after it has exited, so a caller that sees the rejection
 * (a worker slot being freed) knows no process is left behind.
 */
export function runTool(file: string, args: string[], options: RunOptions): Promise<RunResult> {
  const { signal, timeoutMs, label } = options;
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      env: { PATH: options.path, LANG: 'C' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const stdout: Buffer[] = [];
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL_BYTES);
    });

    // Why it failed, when we stopped it; decided once, reported when the child is gone.
    let stopped: unknown;
    const stop = (reason: unknown) => {
      if (stopped !== undefined) return;
      stopped = reason;
      child.kill('SIGKILL');
    };
    const onAbort = () => stop(abortReason(signal as AbortSignal));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(
      () =>
        stop(new EngineError('timeout', `${label} did not finish within ${timeoutMs} ms and was stopped.`)),
      timeoutMs,
    );

    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      outcome();
    };
    child.on('error', (error) => {
      // A child that never started (no pid) may get no 'close' event, so settle here.
      if (child.pid !== undefined) return;
      settle(() =>
        reject(
          new EngineError('failed', `${label} could not be started: ${error.message}`, { cause: error }),
        ),
      );
    });
    // 'close' (not 'exit'): the process is gone and its pipes are drained, so the output is whole.
    child.on('close', (code, killedBy) =>
      settle(() => {
        if (stopped !== undefined) return reject(stopped);
        if (code !== 0) {
          const why = killedBy ? `was killed by ${killedBy}` : `exited with status ${code}`;
          return reject(new EngineError('failed', `${label} ${why}: ${lastLines(stderr)}`));
        }
        resolve({ stdout: Buffer.concat(stdout).toString('utf8'), stderrTail: stderr });
      }),
    );
  });
}

/** The tail of a tool's log, one line, for an error message. */
export function lastLines(log: string, count = 3): string {
  const lines = log
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.slice(-count).join(' | ') || '(no output)';
}
