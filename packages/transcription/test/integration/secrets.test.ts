import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APIError,
  ResponseValidationError,
  TranscriptionClient,
  ValidationError,
  XError,
} from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';

const KEY = 'aai-test-key-0123456789abcdef';

let server: ScriptedServer;
let client: TranscriptionClient;

beforeAll(async () => {
  server = await scriptedServer();
  client = new TranscriptionClient({
    apiKey: KEY,
    baseUrl: server.url,
    rateLimit: false,
    maxRetries: 0,
    logLevel: 'off',
  });
});
afterAll(() => server?.close());

/** Every way an error is commonly shown or shipped to a log. */
function shown(error: unknown): string {
  const e = error as Error;
  return [e.message, String(e), JSON.stringify(e), e.stack ?? ''].join('\n');
}

describe('the API key', () => {
  it.each([
    ['a CR/LF', `${KEY}\r\nX-Injected: 1`],
    ['a trailing newline', `${KEY}\n`],
    ['a NUL', `${KEY}\u0000`],
  ])('with %s is refused in the constructor, naming apiKey without quoting the key', (_name, apiKey) => {
    let error: unknown;
    try {
      new TranscriptionClient({ apiKey, baseUrl: server.url });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues.map((i) => i.path)).toEqual(['apiKey']);
    expect(shown(error)).not.toContain(KEY);
  });

  it('echoed back in x-request-id does not reach an APIError', async () => {
    server.handler = (req, res) => {
      res.writeHead(400, {
        'content-type': 'application/json',
        'x-request-id': `req-${String(req.headers.authorization)}`,
      });
      res.end(JSON.stringify({ error: `bad key ${String(req.headers.authorization)}` }));
    };
    const error = await client.transcripts.get('t1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(APIError);
    expect(server.seen.at(-1)?.headers.authorization).toBe(KEY);
    expect(shown(error)).not.toContain(KEY);
    expect(String((error as APIError).requestId)).not.toContain(KEY);
  });

  it('echoed back in x-request-id of a 200 with a bad body does not reach the ResponseValidationError', async () => {
    server.handler = (req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json',
        'x-request-id': String(req.headers.authorization),
      });
      res.end(JSON.stringify({ id: 7, echoed: req.headers.authorization }));
    };
    const error = await client.transcripts.get('t1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(shown(error)).not.toContain(KEY);
  });

  it('echoed back by an upload endpoint answering 500 does not reach the error', async () => {
    server.handler = (req, res) => {
      res.writeHead(500, { 'x-request-id': `${String(req.headers.authorization)}-1` });
      res.end(`internal error for ${String(req.headers.authorization)}`);
    };
    const error = await client.files.upload(new Uint8Array([1, 2, 3])).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(XError);
    expect(shown(error)).not.toContain(KEY);
  });
});
