/**
 * The setup every client-against-the-sandbox test file shares: one emulator, a server SDK for its first app,
 * the app's auth endpoints on that server, and a fleet of clients; the clients are disconnected after each
 * test, the rest closed after the file. Call it at the top of the file, as core's `useFaultServer()` (not
 * named `use…`: biome takes that for a React hook).
 */
import type { RealtimeEmulatorOptions } from '@x/sandbox';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RealtimeServer } from '../../src/server.js';
import { type AuthApp, ClientFleet, type RealtimeBox, startAuthApp, startRealtimeBox } from './sandbox.js';

export interface ClientSandbox {
  box: RealtimeBox;
  /** `box.server()`: the one the auth endpoints sign with. */
  server: RealtimeServer;
  auth: AuthApp;
  fleet: ClientFleet;
}

/**
 * Hooks that start and stop a `ClientSandbox`, and handles that read through to it once `beforeAll` has run
 * (so a file can destructure them at the top; using one before then throws). `afterEach` runs after the
 * file's own, so a file's `afterEach` still sees this test's clients.
 */
export function clientSandbox(options: RealtimeEmulatorOptions = {}): ClientSandbox {
  let current: ClientSandbox | undefined;
  beforeAll(async () => {
    const box = await startRealtimeBox(options);
    const server = box.server();
    const auth = await startAuthApp(server);
    current = { box, server, auth, fleet: new ClientFleet(box.rt, auth) };
  });
  afterEach(() => current?.fleet.disconnectAll());
  afterAll(async () => {
    current?.fleet.disconnectAll();
    await current?.auth.close();
    await current?.box.close();
  });
  const live = <K extends keyof ClientSandbox>(key: K) =>
    readThrough(() => {
      if (!current) throw new Error(`${key} exists only inside tests (beforeAll has not run yet)`);
      return current[key];
    });
  return { box: live('box'), server: live('server'), auth: live('auth'), fleet: live('fleet') };
}

/** An object whose every property read, write and method call goes to what `target()` returns now. */
function readThrough<T extends object>(target: () => T): T {
  return new Proxy({} as T, {
    get(_, key) {
      const object = target();
      const value = Reflect.get(object, key, object);
      // Bound, so methods that use private fields run on the object itself, not on the proxy.
      return typeof value === 'function' ? value.bind(object) : value;
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
  });
}
