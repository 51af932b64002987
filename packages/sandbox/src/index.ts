import { startServer } from './server/server.js';
import {
  createStoreEmulator,
  type StoreEmulatorOptions,
  type StoreFault,
  type StoreSandbox,
} from './store/emulator.js';
import type { StoreKey } from './store/model/keys.js';

export type { StoreEmulatorOptions, StoreFault, StoreKey, StoreSandbox };
export { createStoreEmulator };

export interface SandboxOptions {
  /** 0 = ephemeral (default). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Serve HTTPS with an in-memory self-signed certificate (exposed as `certificate`). */
  https?: boolean;
  /** Persist the store state to this JSON file (loaded at start, written atomically, debounced). */
  dataFile?: string;
  store?: StoreEmulatorOptions;
}

export interface Sandbox {
  url: string;
  https: boolean;
  /** PEM of the self-signed certificate when `https`, so clients can trust it as a CA. */
  certificate?: string;
  store: StoreSandbox;
  close(): Promise<void>;
}

/** Starts the sandbox server with the WooCommerce REST API v3 emulator mounted at `/`. */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const emulator = await createStoreEmulator(options.store, { dataFile: options.dataFile });
  const server = await startServer({
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    https: options.https ?? false,
    // The store answers `/wp-json/...` and `/?rest_route=`, so it takes `/`: WordPress routes from the root.
    emulators: [{ name: 'store', prefixes: ['/'], fetch: emulator.app.fetch }],
  });
  emulator.setHomeUrl(server.url);
  let closing: Promise<void> | null = null;
  return {
    url: server.url,
    https: server.https,
    ...(server.certificate ? { certificate: server.certificate } : {}),
    store: emulator.handle,
    close() {
      closing ??= (async () => {
        await emulator.close();
        await server.close();
      })();
      return closing;
    },
  };
}
