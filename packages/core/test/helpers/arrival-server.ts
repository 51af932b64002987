/**
 * A node:http server on 127.0.0.1:<free port> that records when each request arrives, as the server
 * sees it (`performance.now()` when the request head has been parsed). Used to check client-side rate
 * limiting from the server's point of view, and reusable wherever a test needs to know what reached
 * the wire and when.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Arrival {
  /** `performance.now()` of the test process when the request arrived. */
  at: number;
  method: string;
  /** Path and query, e.g. `/orders?page=2`. */
  url: string;
  headers: IncomingMessage['headers'];
}

export interface ArrivalServer {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:53211`. */
  readonly url: string;
  /** Every request so far, in arrival order. */
  readonly arrivals: readonly Arrival[];
  /** Arrival times only, ascending. */
  times(): number[];
  /** Forgets the recorded arrivals (between tests sharing one server). */
  reset(): void;
  /** Closes open connections and the server. */
  close(): Promise<void>;
}

export interface ArrivalServerOptions {
  /** Answers each request; default `200 {"ok":true}`. The body has been read when it is called. */
  respond?: (request: IncomingMessage, response: ServerResponse, body: string) => void;
  /**
   * Stops reading the first `count` connections for `ms` after they open, so the requests on them
   * arrive (as this server records it) that much later: a slow or congested first hop.
   */
  stallConnections?: { count: number; ms: number };
}

export async function startArrivalServer(options: ArrivalServerOptions = {}): Promise<ArrivalServer> {
  const arrivals: Arrival[] = [];
  const respond =
    options.respond ??
    ((_request: IncomingMessage, response: ServerResponse) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  const server = createServer((request, response) => {
    arrivals.push({
      at: performance.now(),
      method: request.method ?? 'GET',
      url: request.url ?? '/',
      headers: request.headers,
    });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => respond(request, response, Buffer.concat(chunks).toString('utf8')));
  });
  const stall = options.stallConnections;
  let stalled = 0;
  const timers = new Set<NodeJS.Timeout>();
  if (stall) {
    server.on('connection', (socket) => {
      if (stalled >= stall.count) return;
      stalled++;
      socket.pause();
      const timer = setTimeout(() => {
        timers.delete(timer);
        socket.resume();
      }, stall.ms);
      timers.add(timer);
    });
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    arrivals,
    times: () => arrivals.map((a) => a.at).sort((a, b) => a - b),
    reset: () => {
      arrivals.length = 0;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const timer of timers) clearTimeout(timer);
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The most arrivals in any half-open window `[t, t + windowMs)`, over all start times `t`. */
export function maxInWindow(times: readonly number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let max = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while (sorted[end]! - sorted[start]! >= windowMs) start++;
    max = Math.max(max, end - start + 1);
  }
  return max;
}

/** The smallest `times[i + n] - times[i]`: how close the server came to seeing `n + 1` in one window. */
export function minSpan(times: readonly number[], n: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i + n < sorted.length; i++) min = Math.min(min, sorted[i + n]! - sorted[i]!);
  return min;
}

/**
 * Per batch of `size` consecutive arrivals: when its first arrived (ms after the very first arrival)
 * and how long it took from its first to its last arrival, e.g. `0+12 1063+4 ...`.
 */
export function batchFigures(times: readonly number[], size: number): string {
  const sorted = [...times].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i += size) {
    const batch = sorted.slice(i, i + size);
    parts.push(`${(batch[0]! - sorted[0]!).toFixed(0)}+${(batch.at(-1)! - batch[0]!).toFixed(0)}`);
  }
  return parts.join(' ');
}
