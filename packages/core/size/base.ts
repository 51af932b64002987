/**
 * Everything `@x/core/base` exports, nothing shaken off: the error root with `ValidationError` and
 * `RealtimeError`, backoff, the clock and log levels, which the browser realtime client takes from core.
 * Imports the build, as a user's bundler does; nothing else of core (ky, zod, the HTTP errors) may reach it.
 */
import * as base from '../dist/base.js';

console.log(base);
