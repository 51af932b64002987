/**
 * The send queue under random failures, against a real node:http server that misbehaves as each event asks
 * (its `data` names the behaviour): answers, 5xx and 429 (retried), soketi's 200 error bodies, reset
 * sockets, headers or bodies that never finish (per-attempt timeout), error bodies past maxErrorBodyBytes,
 * and calls the caller aborts at a random moment. Whatever happens, every call settles, and afterwards no
 * slot is left taken: `queueStats()` is all zeros and the server saw at most `concurrency` at once. A slot
 * leaked by any path (an attempt that throws, a body never read) would deadlock a long-lived client.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { RealtimeServer } from '../../src/server.js';

const KINDS = [
  'ok',
  'slow-ok',
  'soketi-401',
  'soketi-500',
  'status-500',
  'status-429',
  'reset',
  'stall-headers',
  'stall-body',
  'stall-short-body',
  'stall-error-body',
  'big-error',
] as const;
type Kind = (typeof KINDS)[number];

let http: Server;
let port: number;
/** The client under test, and the most calls in flight it reported when a request arrived. */
let current: RealtimeServer | undefined;
let maxInFlight = 0;
const open = new Set<ServerResponse>();

function behave(kind: Kind, res: ServerResponse): void {
  const json = { 'content-type': 'application/json' };
  switch (kind) {
    case 'ok':
      return void res.writeHead(200, json).end('{}');
    case 'slow-ok':
      return void setTimeout(() => res.writeHead(200, json).end('{}'), 5);
    case 'soketi-401':
      return void res.writeHead(200, json).end('{"error":"The secret authentication failed","code":401}');
    case 'soketi-500':
      return void res.writeHead(200, json).end('{"error":"boom","code":500}');
    case 'status-500':
      return void res.writeHead(500).end('Internal error');
    case 'status-429':
      return void res.writeHead(429, { 'retry-after': '0' }).end('slow down');
    case 'reset':
      return void res.socket?.destroy();
    case 'stall-headers':
      return;
    case 'stall-body':
      res.writeHead(200, json).write('{"channels":');
      return;
    case 'stall-short-body':
      // Declares 2 bytes, sends 1: a body short enough to be handed on unread, with its slot freed.
      res.writeHead(200, { ...json, 'content-length': '2' }).write('{');
      return;
    case 'stall-error-body':
      res.writeHead(400, { 'content-type': 'text/plain' }).write('Bad ');
      return;
    case 'big-error':
      return void res.writeHead(400, { 'content-type': 'text/plain' }).end('x'.repeat(200_000));
  }
}

beforeAll(async () => {
  http = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      maxInFlight = Math.max(maxInFlight, current?.queueStats().inFlight ?? 0);
      open.add(res);
      res.on('close', () => open.delete(res));
      const { data } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: string };
      behave(JSON.parse(data) as Kind, res);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(async () => {
  for (const res of open) res.destroy();
  await new Promise((resolve) => http.close(resolve));
});

const call = fc.record({
  kind: fc.constantFrom(...KINDS),
  // Abort after this many ms (0: before the call), or never.
  abortAfter: fc.option(fc.integer({ min: 0, max: 60 }), { nil: undefined }),
});

for (const run of fuzzRuns(12)) {
  it(`server send queue under failures ${run.label}`, { timeout: 120_000 }, async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          concurrency: fc.integer({ min: 1, max: 4 }),
          maxQueue: fc.integer({ min: 0, max: 4 }),
          queueFull: fc.constantFrom('wait' as const, 'reject' as const),
          maxRetries: fc.integer({ min: 0, max: 2 }),
          calls: fc.array(call, { minLength: 1, maxLength: 14 }),
        }),
        async ({ calls, ...options }) => {
          n++;
          maxInFlight = 0;
          const server = new RealtimeServer({
            appId: 'fuzz',
            key: 'key',
            secret: 'secret',
            host: '127.0.0.1',
            port,
            useTLS: false,
            rateLimit: false,
            coalesce: false,
            timeout: 150,
            maxErrorBodyBytes: 1024,
            retry: { baseDelayMs: 1, maxDelayMs: 5 },
            logLevel: 'off',
            ...options,
          });
          current = server;
          const outcomes = await Promise.allSettled(
            calls.map(({ kind, abortAfter }) => {
              const controller = new AbortController();
              if (abortAfter === 0) controller.abort();
              else if (abortAfter !== undefined) setTimeout(() => controller.abort(), abortAfter);
              return server.trigger(
                'fuzz',
                'e',
                JSON.stringify(kind),
                {},
                {
                  signal: controller.signal,
                  retryNonIdempotent: true,
                },
              );
            }),
          );
          expect(outcomes).toHaveLength(calls.length);
          // Only an answered call succeeds: an error in a 200 body, a cut body or a timeout never does.
          for (const [i, outcome] of outcomes.entries())
            if (outcome.status === 'fulfilled') expect(['ok', 'slow-ok']).toContain(calls[i]!.kind);
          expect(server.queueStats()).toEqual({ inFlight: 0, queued: 0, held: 0 });
          expect(maxInFlight).toBeLessThanOrEqual(options.concurrency);
        },
      ),
      { seed: run.seed, numRuns: run.numRuns },
    );
    reportFuzz('server send queue', run, n);
  });
}
