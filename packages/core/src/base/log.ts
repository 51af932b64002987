/** Log levels and the logger shape of every client: the HTTP clients' and the browser realtime client's. */

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Anything shaped like `console` works, pino and winston included. */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

/** One line at one level, as a function: what sockets and the realtime client log through. */
export type Log = (level: Exclude<LogLevel, 'off'>, message: string, ...args: unknown[]) => void;

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/**
 * True when a line at `level` passes `threshold`. A threshold that is no level lets nothing through (a number
 * compared with undefined is false), so a misspelt `logLevel` stays quiet rather than logging everything.
 */
export function logs(level: Exclude<LogLevel, 'off'>, threshold: LogLevel): boolean {
  return RANK[level] >= RANK[threshold];
}
