import { type Log, type Logger, type LogLevel, logs } from '@x/core/base';

export type { Log } from '@x/core/base';

/** Anything shaped like `console`; any level may be left out. Silent by default, as pusher-js is. */
export type ClientLogger = Partial<Logger>;

export function makeLog(logger: ClientLogger | undefined, min: LogLevel = 'warn'): Log {
  return (level, message, ...args) => {
    if (logs(level, min)) logger?.[level]?.(`[x/realtime] ${message}`, ...args);
  };
}
