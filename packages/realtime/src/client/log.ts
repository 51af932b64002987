import type { Logger } from '@x/core';

/** Anything shaped like `console`; any level may be left out. Silent by default, as pusher-js is. */
export type ClientLogger = Partial<Logger>;

export type Log = (level: keyof Logger, message: string, ...args: unknown[]) => void;

export function makeLog(logger: ClientLogger | undefined): Log {
  return (level, message, ...args) => logger?.[level]?.(`[x/realtime] ${message}`, ...args);
}
