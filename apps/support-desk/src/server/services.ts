import { RealtimeServer } from '@x/realtime/server';
import { StoreClient } from '@x/store';
import { TranscriptionClient } from '@x/transcription';
import { DESK_CHANNEL } from '../shared/api.js';
import type { ServerConfig } from './config.js';
import { describe } from './errors.js';

/** The three SDK clients, made once per server from its configuration. */
export interface Services {
  store: StoreClient;
  transcription: TranscriptionClient;
  realtime: RealtimeServer;
}

export function createServices(config: ServerConfig): Services {
  const r = config.realtime;
  return {
    store: new StoreClient({
      url: config.store.url,
      consumerKey: config.store.consumerKey,
      consumerSecret: config.store.consumerSecret,
    }),
    transcription: new TranscriptionClient({
      apiKey: config.transcription.apiKey,
      ...(config.transcription.baseUrl ? { baseUrl: config.transcription.baseUrl } : {}),
      streamingBaseUrl: config.transcription.streamingBaseUrl,
    }),
    realtime: new RealtimeServer({
      appId: r.appId,
      key: r.key,
      secret: r.secret,
      useTLS: r.useTLS,
      ...(r.cluster ? { cluster: r.cluster } : { host: r.host, port: r.port }),
    }),
  };
}

/**
 * Publishes to every open dashboard. A failed publish is logged, never thrown: the store write or the
 * analysis it reports has happened, and a tab that reconnects reloads the lists anyway.
 */
export class Broadcaster {
  constructor(
    private readonly realtime: RealtimeServer,
    private readonly logger: Pick<Console, 'warn'>,
  ) {}

  /** `socketId`: the connection that should not hear it (the tab whose action it reports), as Pusher allows. */
  async push(event: string, data: unknown, socketId?: string): Promise<void> {
    try {
      await this.realtime.trigger(DESK_CHANNEL, event, data, socketId ? { socketId } : undefined);
    } catch (error) {
      this.logger.warn(`realtime: could not publish ${event}: ${describe(error)}`);
    }
  }
}
