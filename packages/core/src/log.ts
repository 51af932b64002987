import type { Redactor } from './internal/redact.js';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'off';

/** Anything shaped like `console` works, pino and winston included. */
export interface Logger {
  debug(message: string, ...args: unknown[]): void;
  info(message: string, ...args: unknown[]): void;
  warn(message: string, ...args: unknown[]): void;
  error(message: string, ...args: unknown[]): void;
}

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, off: 100 };

/** Wraps a user's logger: drops lines below the level and scrubs every known secret from what remains. */
export class RedactingLogger implements Logger {
  readonly #target: Logger;
  readonly #threshold: number;
  readonly #redactor: Redactor;

  constructor(target: Logger, level: LogLevel, redactor: Redactor) {
    this.#target = target;
    this.#threshold = RANK[level];
    this.#redactor = redactor;
  }

  enabled(level: Exclude<LogLevel, 'off'>): boolean {
    return RANK[level] >= this.#threshold;
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
    if (typeof value === 'string') return this.#redactor.redact(value);
    if (value === null || typeof value !== 'object' || depth > 6) return value;
    if (value instanceof Error) return this.#redactor.redact(String(value.message));
    if (Array.isArray(value)) return value.map((v) => this.#scrub(v, depth + 1));
    // Objects with their own toJSON (errors, Secret, auth strategies) decide their own safe form.
    const plain =
      typeof (value as { toJSON?: unknown }).toJSON === 'function'
        ? (value as { toJSON(): unknown }).toJSON()
        : value;
    if (plain === null || typeof plain !== 'object') return this.#scrub(plain, depth + 1);
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(plain)) out[key] = this.#scrub(inner, depth + 1);
    return out;
  }
}
