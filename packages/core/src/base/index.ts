/**
 * `@x/core/base`: the ideas every client shares, in modules that import nothing (no ky, no zod, no `node:`),
 * so a browser bundle (the realtime client's) takes them at a few hundred bytes: the error root with
 * `ValidationError` and `RealtimeError`, full-jitter backoff, the injectable clock, log levels and the
 * logger shape. The rest of core builds on these same modules, so there is one of each.
 */

export { type BackoffOptions, backoffDelay, DEFAULT_BACKOFF } from './backoff.js';
export { type Clock, systemClock, Timer } from './clock.js';
export {
  RealtimeError,
  ValidationError,
  type ValidationIssue,
  XError,
  type XErrorOptions,
} from './errors.js';
export { type Log, type Logger, type LogLevel, logs } from './log.js';
