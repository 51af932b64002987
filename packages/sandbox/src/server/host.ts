import type { Emulator } from '../kit/emulator.js';
import { startServer } from './server.js';

export interface HostOptions {
  port: number;
  host: string;
  https: boolean;
}

/** Builds one emulator; `hostEmulators` calls them in order. */
export type EmulatorFactory = () => Emulator | Promise<Emulator>;

export interface HostedEmulators {
  url: string;
  https: boolean;
  /** PEM of the self-signed certificate when `https`. */
  certificate?: string;
  /** Every emulator, in the order of the factories. */
  emulators: readonly Emulator[];
  /** Closes every emulator (each flushes what it persists), then the server; idempotent. */
  close(): Promise<void>;
}

async function closeAll(emulators: readonly Emulator[]): Promise<void> {
  await Promise.all(emulators.map((e) => e.close()));
}

/**
 * Builds the emulators, mounts them all on one server by their paths and tells each its home URL. The server
 * sees each only through `Emulator`, so a new one needs no wiring here. If anything fails half-way, whatever
 * was built is closed again before the error is passed on.
 */
export async function hostEmulators(
  factories: readonly EmulatorFactory[],
  options: HostOptions,
): Promise<HostedEmulators> {
  const emulators: Emulator[] = [];
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    for (const create of factories) emulators.push(await create());
    server = await startServer({ ...options, emulators });
  } catch (err) {
    await closeAll(emulators);
    throw err;
  }
  for (const e of emulators) e.setHomeUrl(server.url);
  let closing: Promise<void> | null = null;
  return {
    url: server.url,
    https: server.https,
    ...(server.certificate ? { certificate: server.certificate } : {}),
    emulators,
    close() {
      closing ??= (async () => {
        await closeAll(emulators);
        await server.close();
      })();
      return closing;
    },
  };
}
