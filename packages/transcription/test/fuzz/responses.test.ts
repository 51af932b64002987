import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { TranscriptionClient } from '../../src/index.js';
import { type ScriptedServer, scriptedServer } from '../helpers/http-server.js';
import { expectSettledWell, FUZZ_KEY, type Reply, reply, send, settle } from './replies.js';

/*
 * The client's response handling against a real server answering random statuses, headers and bodies:
 * deep JSON, wrong types, truncated JSON, huge strings, the key echoed back.
 */

let server: ScriptedServer;
let client: TranscriptionClient;

beforeAll(async () => {
  server = await scriptedServer();
  client = new TranscriptionClient({
    apiKey: FUZZ_KEY,
    baseUrl: server.url,
    rateLimit: false,
    // Retries would only repeat the same answer after a backoff; what is fuzzed is one answer's handling.
    maxRetries: 0,
    timeout: 20_000,
    logLevel: 'off',
  });
});
afterAll(() => server?.close());

function answer(r: Reply): void {
  server.handler = (_req, res) => send(res, r);
}

/** After the random answers, an honest one is understood: neither the client nor the server is broken. */
async function stillWorks(): Promise<void> {
  server.handler = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: 't1', status: 'completed', audio_url: 'https://x/a' }));
  };
  expect((await client.transcripts.get('t1')).status).toBe('completed');
}

const surfaces: [string, () => PromiseLike<unknown>][] = [
  ['transcripts.get', () => client.transcripts.get('t1')],
  [
    'transcripts.list',
    async () => {
      // A few pages at most: each answer is the same random reply, so its prev_url may lead anywhere.
      let pages = 0;
      for await (const _page of client.transcripts.list({ limit: 2 }).pages()) if (++pages === 3) break;
    },
  ],
  [
    'transcripts.submit',
    () =>
      client.transcripts.submit({ audio_url: 'https://example.com/a.mp3', speech_models: ['universal-2'] }),
  ],
  ['files.upload', () => client.files.upload(new Uint8Array([1, 2, 3, 4, 5]))],
];

describe('fuzz: responses', () => {
  for (const [surface, call] of surfaces) {
    for (const run of fuzzRuns(250)) {
      it(`${surface} ${run.label}`, async () => {
        let n = 0;
        await fc.assert(
          fc.asyncProperty(reply, async (r) => {
            n++;
            answer(r);
            expectSettledWell(await settle(call));
          }),
          { seed: run.seed, numRuns: run.numRuns },
        );
        reportFuzz(surface, run, n);
        await stillWorks();
      }, 120_000);
    }
  }
});
