import { type Logger, type LogLevel, logs } from './base/log.js';
import type { Redactor } from './internal/redact.js';

export type { Log, Logger, LogLevel } from './base/log.js';

/** Wraps a user's logger: drops lines below the level and scrubs every known secret from what remains. */
export class RedactingLogger implements Logger {
  readonly #target: Logger;
  readonly #threshold: LogLevel;
  readonly #redactor: Redactor;

  constructor(target: Logger, level: LogLevel, redactor: Redactor) {
    this.#target = target;
    this.#threshold = level;
    this.#redactor = redactor;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return logs(level, this.#threshold);
  }

  debug(message: string, ...args: unknown[]): void {
    this.#emit('debug', message, args);
  }
  info(message: string, ...args: unknown[]): void {
    this.#emit('info', message, args);
  }
  warn(message: string, ...args: unknown[]): void {
    this.#emit('warn', message, args);
  }
  error(message: string, ...args: unknown[]): void {
    this.#emit('error', message, args);
  }

  #emit(level: Exclude<LogLevel, 'off'>, message: string, args: unknown[]): void {
    if (!this.enabled(level)) return;
    this.#target[level](this.#redactor.redact(message), ...args.map((arg) => this.#scrub(arg, 0)));
  }

  #scrub(value: unknown, depth: number): unknown {
    if (value instanceof Error) return this.#redactor.redact(String(value.message));
    // Objects with their own toJSON (errors, Secret, auth strategies) decide their own safe form.
    if (
      value !== null &&
      typeof value === 'object' &&
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
    ) {
      return this.#redactor.redactDeep((value as { toJSON(): unknown }).toJSON(), depth);
    }
    return this.#redactor.redactDeep(value, depth);
  }
}
