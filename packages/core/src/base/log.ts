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

/** The levels in rising order: a level's position ranks it (`off` last, above them all). */
const LEVELS: readonly string[] = ['debug', 'info', 'warn', 'error', 'off'];

/** True when a line at `level` passes `threshold`; a threshold that is no level lets nothing through. */
export function logs(level: Exclude<LogLevel, 'off'>, threshold: LogLevel): boolean {
  const rank = LEVELS.indexOf(threshold);
  return rank >= 0 && LEVELS.indexOf(level) >= rank;
}
