import { type Sandbox, type SandboxOptions, startSandbox } from '@x/sandbox';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, expect } from 'vitest';
import { StoreClient, type StoreClientOptions } from '../../src/index.js';

export type { Sandbox };

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, ...options, store: { rateLimit: false, ...options.store } });
}

/**
 * The sandbox a test file shares: started before its first test, closed after its last. The value stands
 * for it (property reads pass through to the running sandbox), so the file's tests use it as the sandbox.
 */
export function sandboxForFile(options: SandboxOptions = {}): Sandbox {
  let running: Sandbox | undefined;
  beforeAll(async () => {
    running = await sandbox(options);
  });
  afterAll(() => running?.close());
  return new Proxy({} as Sandbox, {
    get(_target, key) {
      if (!running) throw new Error(`sandbox.${String(key)} read before beforeAll started the sandbox`);
      const value: unknown = Reflect.get(running, key, running);
      return typeof value === 'function' ? value.bind(running) : value;
    },
  });
}

/** What `promise` rejects with; fails the test when it resolves instead. */
export function rejection<E = Error & Record<string, any>>(promise: PromiseLike<unknown>): Promise<E> {
  return Promise.resolve(promise).then(
    () => expect.fail('expected a rejection'),
    (e: unknown) => e as E,
  );
}

/**
 * A fetch that trusts the sandbox's self-signed certificate as a CA, the way a user would trust a
 * private CA: verification stays on.
 */
export function trustingFetch(certificate: string): StoreClientOptions['fetch'] {
  const dispatcher = new Agent({ connect: { ca: certificate } });
  return ((input: any, init?: any) =>
    undiciFetch(input, { ...init, dispatcher })) as StoreClientOptions['fetch'];
}

export function clientFor(box: Sandbox, overrides: Partial<StoreClientOptions> = {}): StoreClient {
  return new StoreClient({
    url: box.store.url,
    consumerKey: box.store.consumerKey,
    consumerSecret: box.store.consumerSecret,
    rateLimit: false,
    logLevel: 'off',
    ...(box.certificate ? { fetch: trustingFetch(box.certificate) } : {}),
    ...overrides,
  });
}
