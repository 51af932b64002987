import type { CallPipeline } from './calls/pipeline.js';
import type { CallRegistry } from './calls/registry.js';
import type { ServerConfig } from './config.js';
import type { LiveCalls } from './live/live-calls.js';
import type { Broadcaster, Services } from './services.js';
import type { SpeechTool } from './speech.js';

/** What every route handler may use; built once by `startServer`. */
export interface DeskContext {
  config: ServerConfig;
  services: Services;
  broadcaster: Broadcaster;
  registry: CallRegistry;
  pipeline: CallPipeline;
  live: LiveCalls;
  speech: SpeechTool | null;
  logger: Pick<Console, 'info' | 'warn' | 'error'>;
}
