import { createServer, Agent as HttpsAgent, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { createNativeSender } from '#transfer';
import { BaseClient, type ClientOptions, ConnectionError, type FetchLike } from '../../src/index.js';
import { testCertificate, trustingFetch } from '../helpers/tls.js';

const echo = z.looseObject({ method: z.string(), contentType: z.optional(z.string()), body: z.string() });

class TestClient extends BaseClient {
  constructor(options: ClientOptions) {
    super(
      { rateLimit: false, maxRetries: 0, ...options },
      { packageName: '@x/test', packageVersion: '1.0.0' },
    );
  }
  echo(method: 'GET' | 'POST', body?: unknown) {
    return this.request({ method, path: '/echo', body, schema: echo });
  }
}

let server: Server;
let url: string;
let trusting: ReturnType<typeof trustingFetch>;
let ca: string;
beforeAll(async () => {
  const { key, cert } = await testCertificate();
  server = createServer({ key, cert }, (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          method: req.method,
          contentType: req.headers['content-type'],
          body: Buffer.concat(parts).toString('utf8'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  trusting = trustingFetch(cert);
  ca = cert;
});
afterAll(async () => {
  await trusting.close();
  await new Promise((resolve) => server.close(resolve));
});

describe('the ky transport with a custom fetch', () => {
  it("undici's own fetch with an Agent that trusts a private CA gets (url, init) with the original body", async () => {
    const calls: Array<{ input: unknown; body: unknown }> = [];
    const recording: FetchLike = (input, init) => {
      calls.push({ input, body: init.body });
      return trusting.fetch(input, init);
    };
    const client = new TestClient({ baseURL: url, fetch: recording });

    expect(await client.echo('GET')).toMatchObject({ method: 'GET', body: '' });
    const posted = await client.echo('POST', { a: 1 });
    expect(posted).toMatchObject({ method: 'POST', contentType: 'application/json', body: '{"a":1}' });

    const form = new FormData();
    form.set('field', 'value');
    const sentForm = await client.echo('POST', form);
    // The boundary in the header matches the body: the form was encoded once, by the fetch that sent it.
    const boundary = sentForm.contentType?.split('boundary=')[1];
    expect(boundary).toBeTruthy();
    expect(sentForm.body).toContain(`--${boundary}`);

    expect(calls.map((c) => typeof c.input)).toEqual(['string', 'string', 'string']);
    expect(calls[1]!.body).toBe('{"a":1}');
    expect(calls[2]!.body).toBeInstanceOf(Blob);
  });

  it('without the trusting fetch the same call fails as a ConnectionError naming the certificate problem', async () => {
    const client = new TestClient({ baseURL: url });
    const error = await client.echo('GET').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/SELF_SIGNED|self-signed|certificate/i);
  });
});

describe("the client's own agent", () => {
  it('an https.Agent that trusts a private CA carries ordinary GETs and POSTs on the native path', async () => {
    const agent = new HttpsAgent({ ca, keepAlive: true });
    const client = new TestClient({ baseURL: url, agent });
    if (createNativeSender === undefined) {
      // The vitest `fetch` project: ordinary requests go through fetch, which has no use for an http.Agent.
      await expect(client.echo('GET')).rejects.toBeInstanceOf(ConnectionError);
      agent.destroy();
      return;
    }
    expect(await client.echo('GET')).toMatchObject({ method: 'GET', body: '' });
    expect(await client.echo('POST', { a: 1 })).toMatchObject({
      method: 'POST',
      contentType: 'application/json',
      body: '{"a":1}',
    });
    const sentForm = await client.echo('POST', new URLSearchParams({ q: 'x y' }));
    expect(sentForm).toMatchObject({ body: 'q=x+y' });
    expect(sentForm.contentType).toMatch(/^application\/x-www-form-urlencoded/);
    agent.destroy();
  });
});
