import type { BaseClient } from '@x/core';

/** What the resources share: the client that sends, and the app's settings they check input against. */
export interface RealtimeContext {
  client: BaseClient<object>;
  /** `/apps/{appId}`: every HTTP API path starts with it, and the signature covers it. */
  appPath: string;
  maxPayloadBytes: number;
  masterKey: Uint8Array | undefined;
  coalesce: boolean;
}
