import { type Sandbox, type SandboxOptions, startSandbox } from '@x/sandbox';
import { Agent, fetch as undiciFetch } from 'undici';
import { StoreClient, type StoreClientOptions } from '../../src/index.js';

export type { Sandbox };

export async function sandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({ port: 0, ...options, store: { rateLimit: false, ...options.store } });
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
