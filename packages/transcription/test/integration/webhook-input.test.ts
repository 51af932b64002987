import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebhook, ValidationError, verifyWebhook } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

const HEADER = { name: 'X-Hook-Secret', value: 'hook-secret-value' };

/**
 * A webhook receiver as the README shows one: verify the header, parse the raw body. It answers with the
 * outcome (the error's class name on failure), so the test sees what parseWebhook did with each body.
 */
let receiver: ScriptedServer;

beforeAll(async () => {
  receiver = await scriptedServer((req, res) => {
    try {
      if (!verifyWebhook(req.headers, HEADER)) return void res.writeHead(401).end();
      // Serialised before the head is written, so a notification too deep to serialise still gets an answer.
      const notification = JSON.stringify(parseWebhook(req.body));
      res.writeHead(200, { 'content-type': 'application/json' }).end(notification);
    } catch (error) {
      res.writeHead(error instanceof ValidationError ? 400 : 500).end((error as Error).name);
    }
  });
});
afterAll(() => receiver?.close());

function post(body: string, headers: Record<string, string> = { [HEADER.name]: HEADER.value }) {
  return fetch(receiver.url, { method: 'POST', body, headers });
}

const deepArrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
const deepObjects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;

describe('parseWebhook with deeply nested bodies', () => {
  it.each([
    ['arrays in an unknown field', `{"transcript_id":"t1","status":"completed","x":${deepArrays(10_000)}}`],
    ['objects in an unknown field', `{"transcript_id":"t1","status":"completed","x":${deepObjects(10_000)}}`],
    ['objects at the root', deepObjects(10_000)],
    ['a hundred thousand arrays', deepArrays(100_000)],
  ])('%s is a ValidationError, and the receiver keeps answering', async (_name, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(await res.text()).toBe('ValidationError');
    const ok = await post('{"transcript_id":"t1","status":"completed"}');
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ transcript_id: 't1', status: 'completed' });
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await post(`{"transcript_id":"t1","status":"completed","note":"${'[{'.repeat(5_000)}\\""}`);
    expect(res.status).toBe(200);
  });

  it('a parsed value nested 10,000 levels is a ValidationError too, and a cycle is no hang', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 10_000; i++) deep = { a: deep };
    expect(() => parseWebhook({ transcript_id: 't1', status: 'completed', x: deep })).toThrow(
      ValidationError,
    );
    const cyclic: Record<string, unknown> = { transcript_id: 't1', status: 'completed' };
    cyclic.self = cyclic;
    expect(parseWebhook(cyclic)).toMatchObject({ transcript_id: 't1' });
  });

  it('text that is not JSON says so', async () => {
    const res = await post('{"transcript_id":');
    expect(res.status).toBe(400);
    expect(() => parseWebhook('not json')).toThrow(/is not JSON/);
  });
});

describe('verifyWebhook with odd input', () => {
  it('a header value that is not a string is no match, not a crash', () => {
    expect(verifyWebhook({ 'x-hook-secret': 123 as never }, HEADER)).toBe(false);
    expect(verifyWebhook({ 'x-hook-secret': [] }, HEADER)).toBe(false);
    expect(verifyWebhook({ 'x-hook-secret': [7 as never] }, HEADER)).toBe(false);
  });

  it('bad arguments are ValidationErrors naming them, never quoting the secret', () => {
    expect(() => verifyWebhook(null as never, HEADER)).toThrow(ValidationError);
    expect(() => verifyWebhook({}, { name: '', value: 'x' })).toThrow(/expected/);
    try {
      verifyWebhook(null as never, HEADER);
    } catch (error) {
      expect(JSON.stringify(error)).not.toContain(HEADER.value);
    }
  });

  it('a request without the header is refused by the receiver', async () => {
    const res = await post('{"transcript_id":"t1","status":"completed"}', {});
    expect(res.status).toBe(401);
  });
});
