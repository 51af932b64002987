import type { Logger, LogLevel } from '@x/core';

/** Anything shaped like `console`; any level may be left out. Silent by default, as pusher-js is. */
export type ClientLogger = Partial<Logger>;

export type Log = (level: keyof Logger, message: string, ...args: unknown[]) => void;

/** The levels in rising order: a level's position in this string ranks it (`off` last, above them all). */
const LEVELS = 'debug info warn error off';

export function makeLog(logger: ClientLogger | undefined, min: LogLevel = 'warn'): Log {
  return (level, message, ...args) => {
    if (LEVELS.indexOf(level) >= LEVELS.indexOf(min)) logger?.[level]?.(`[x/realtime] ${message}`, ...args);
  };
}
