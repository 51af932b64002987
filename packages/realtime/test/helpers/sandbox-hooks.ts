/**
 * The setups the sandbox test files share, as hooks called at the top of a file (as core's `useFaultServer()`;
 * not named `use…`, which biome takes for React hooks): `serverSandbox()` is one emulator and a server SDK for
 * its first app; `clientSandbox()` adds the app's auth endpoints on that server and a fleet of clients,
 * disconnected after each test; `crossSandbox()` is cross.ts's official-and-ours setup. Everything is closed
 * after the file.
 */
import type { RealtimeEmulatorOptions } from '@x/sandbox';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { RealtimeServer } from '../../src/server.js';
import { type Cross, startCross } from './cross.js';
import { type AuthApp, ClientFleet, type RealtimeBox, startAuthApp, startRealtimeBox } from './sandbox.js';

export interface ServerSandbox {
  box: RealtimeBox;
  /** `box.server()`: the first app's, with short retry delays and the master key. */
  server: RealtimeServer;
}

/**
 * Hooks that start and close a `ServerSandbox`, and handles that read through to it once `beforeAll` has run
 * (so a file can destructure them at the top; using one before then throws).
 */
export function serverSandbox(options: RealtimeEmulatorOptions = {}): ServerSandbox {
  let current: ServerSandbox | undefined;
  beforeAll(async () => {
    const box = await startRealtimeBox(options);
    current = { box, server: box.server() };
  });
  afterAll(() => current?.box.close());
  return handles(() => current, ['box', 'server']);
}

export interface ClientSandbox extends ServerSandbox {
  /** Signs with `server`. */
  auth: AuthApp;
  fleet: ClientFleet;
}

/** As `serverSandbox()`, with auth endpoints and clients; the file's own `afterEach` runs before this one's. */
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
  return handles(() => current, ['box', 'server', 'auth', 'fleet']);
}

/** `startCross()` for the file, as a handle that reads through to it. */
export function crossSandbox(): Cross {
  let current: Cross | undefined;
  beforeAll(async () => {
    current = await startCross();
  });
  afterAll(() => current?.close());
  return readThrough(() => started(current, 'cross'));
}

function started<T>(current: T | undefined, what: string): T {
  if (!current) throw new Error(`${what} exists only inside tests (beforeAll has not run yet)`);
  return current;
}

/** One read-through handle per key of what `current()` holds once `beforeAll` has run. */
function handles<T extends object>(current: () => T | undefined, keys: Array<keyof T & string>): T {
  const entries = keys.map((key) => [key, readThrough(() => started(current(), key)[key] as object)]);
  return Object.fromEntries(entries) as T;
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
