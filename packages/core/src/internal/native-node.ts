/**
 * Ordinary requests in Node, without ky or `fetch`: undici's dispatcher API (`Agent.request`), one Agent
 * (connection pool, keep-alive) shared by the clients of the process (see `sharedPool`). `fetch` in Node is undici too, under a WHATWG layer (Request,
 * Headers, Response, web streams) that cost 2-3x the dispatcher underneath; ky on top added as much again.
 *
 * Measured with `pnpm --filter @x/core exec tsx bench/native-path.bench.ts` (Node 20.20.2, 2 CPUs, one run,
 * 2,000 requests for a 1.2 KB JSON body, median of 3 rounds), CPU per request of the client process:
 *
 *   candidate                        sequential   concurrency 16
 *   node:http + keep-alive Agent       103 µs        114 µs
 *   undici Agent/Pool .request          94 µs         55 µs
 *   undici.request (the floor)         124 µs         74 µs
 *   fetch + json()                     322 µs        278 µs
 *
 * A second run, with the machine loaded (load 8 on 2 CPUs), kept the order: node:http 174 / 128 µs,
 * undici's pool 67 / 56 µs, the floor 124 / 52 µs, fetch 462 / 323 µs.
 *
 * undici wins clearly under concurrency (node:http's per-request ClientRequest/IncomingMessage machinery
 * costs twice as much there), and it is already what Node's fetch runs, so behaviour (parsing, keep-alive,
 * errors) stays close to the fetch path. The price is a dependency: undici 7 (Node >= 20.18.1, inside our
 * engines >= 20.19), 2.2 MB installed with no dependencies of its own, reached only through the
 * `#transfer` import map, so browser bundles never see it.
 *
 * A client given its own `agent` (an `http(s).Agent`: private CA, proxy agent, socket options) has every
 * request sent over `node:http(s)` with that agent instead, so the option means the same for ordinary
 * requests as for streamed uploads, and is never silently dropped.
 */
import { EventEmitter } from 'node:events';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { Agent } from 'undici';
import { ConnectionError, XError } from '../errors.js';
import { whenAborted } from './abort-fanout.js';
import { type NativeAnswer, readNative } from './native-read.js';
import type { Cancel, NativeResult, NativeSender, NativeSendInput } from './transfer.js';
import { type TimedOut, toTransportError } from './transport-errors.js';

/** The encodings `native-read.ts` decodes (as `fetch` does), asked for unless the caller set the header. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

export function createNativeSender(agent: unknown): NativeSender | undefined {
  const runtime = process.versions as { bun?: string };
  // Bun and Deno match the `node` condition too, but keep the fetch path they are built around.
  if (runtime.bun || 'Deno' in globalThis) return undefined;
  if (agent !== undefined && agent !== null) {
    return (input) =>
      attempt(input, async (cancel) => readNative(await viaNodeHttp(input, agent, cancel), input, cancel));
  }
  return (input) =>
    attempt(input, async (cancel) => readNative(await viaUndici(sharedPool(), input, cancel), input, cancel));
}

let pool: Agent | undefined;

/**
 * One pool for every client in the process, as `fetch` has its global dispatcher: an exception to "state on
 * the instance" because a pool per client leaked. A client made per request (a serverless handler, a
 * `withOptions` clone per call) opened a new connection each time (a TCP and TLS handshake per call) and
 * left it open for undici's keep-alive, so 1,000 calls held 1,000 sockets; nothing closed a client's pool.
 * Shared, they reuse the same warm connections. Made on first use, so an import opens nothing. Timeouts
 * are core's (one timer per attempt, through `cancel`); undici's own are off.
 */
function sharedPool(): Agent {
  // No bound on sockets per origin, as fetch's dispatcher: with 64, 64 slow calls (from any client, the
  // pool being shared) queued every other call to that origin until its timeout, never sent. Each
  // client's limiter is what bounds concurrency.
  pool ??= new Agent({ headersTimeout: 0, bodyTimeout: 0 });
  return pool;
}

/**
 * The attempt's abort channel. undici takes an EventEmitter as `signal`; an AbortController (an
 * EventTarget, plus its AbortSignal) with a timer and two listeners cost 6.9 µs per attempt against 0.8 µs
 * for this (node, 200,000 iterations), about 4% of a whole call on this path.
 */
class AttemptCancel extends EventEmitter implements Cancel {
  aborted = false;
  reason: unknown;
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.emit('abort');
  }
}

/** One attempt under its clocks: the per-attempt timer, the idle timer of a `stream` response, the caller's signal. */
async function attempt(
  input: NativeSendInput,
  run: (cancel: AttemptCancel) => Promise<NativeResult>,
): Promise<NativeResult> {
  const cancel = new AttemptCancel();
  const timer = setTimeout(() => cancel.abort({ kind: 'attempt' } satisfies TimedOut), input.timeoutMs);
  const idle =
    input.responseType === 'stream'
      ? setTimeout(() => cancel.abort({ kind: 'idle' } satisfies TimedOut), input.idleTimeoutMs)
      : undefined;
  const caller = input.signal;
  const forward = () => cancel.abort(caller?.reason);
  let unlisten: (() => void) | undefined;
  if (caller?.aborted) forward();
  else if (caller) unlisten = whenAborted(caller, forward);
  try {
    return await run(cancel);
  } catch (error) {
    // Already typed (a body over maxResponseBytes): not a connection failure.
    if (error instanceof XError && !(error instanceof ConnectionError)) throw error;
    throw toTransportError(error, input, cancel.reason);
  } finally {
    clearTimeout(timer);
    clearTimeout(idle);
    unlisten?.();
  }
}

async function viaUndici(pool: Agent, input: NativeSendInput, cancel: Cancel): Promise<NativeAnswer> {
  const { url } = input;
  const { headers, body } = await outgoing(input);
  const answer = await pool.request({
    origin: url.origin,
    path: url.pathname + url.search,
    method: input.method as 'GET',
    headers,
    body: body ?? null,
    signal: cancel as AttemptCancel,
  });
  return {
    status: answer.statusCode,
    statusText: answer.statusText,
    headers: answer.headers,
    body: answer.body,
  };
}

async function viaNodeHttp(input: NativeSendInput, agent: unknown, cancel: Cancel): Promise<NativeAnswer> {
  const { headers, body } = await outgoing(input);
  if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
  const send = input.url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<NativeAnswer>((resolve, reject) => {
    if (cancel.aborted) return reject(cancel.reason);
    const req = send(input.url, { method: input.method, headers, agent: agent as never });
    // Ends the request, and the response being read (readNative also stops on `cancel`).
    const onCancel = () => req.destroy(Object.assign(new Error('aborted'), { code: 'ABORT_ERR' }));
    cancel.once('abort', onCancel);
    req.on('close', () => cancel.off('abort', onCancel));
    req.on('error', reject);
    req.on('response', (res: IncomingMessage) =>
      resolve({
        status: res.statusCode ?? 0,
        statusText: res.statusMessage ?? '',
        headers: res.headers,
        body: res,
      }),
    );
    req.end(body);
  });
}

/**
 * Headers as a plain object and the body as a string or bytes, with the content type `fetch` would have
 * added (text for strings; the form's boundary, `x-www-form-urlencoded` for URLSearchParams, a Blob's type).
 */
async function outgoing(
  input: NativeSendInput,
): Promise<{ headers: Record<string, string>; body: string | Uint8Array | undefined }> {
  const headers: Record<string, string> = {};
  input.headers.forEach((value, name) => {
    headers[name] = value;
  });
  headers['accept-encoding'] ??= ACCEPT_ENCODING;
  // fetch ignores a `host` header (it always sends the URL's); so does this path, for the same request on both.
  delete headers.host;
  // A caller's content-length that does not match the body failed every attempt here and hung the fetch
  // path until its timeout; both paths send the body's own length instead.
  delete headers['content-length'];
  const value = input.body;
  if (value === undefined || value === null) return { headers, body: undefined };
  if (typeof value === 'string') {
    headers['content-type'] ??= 'text/plain;charset=UTF-8';
    return { headers, body: value };
  }
  if (value instanceof Uint8Array) return { headers, body: value };
  const encoded = new Response(value);
  const type = encoded.headers.get('content-type');
  if (type) headers['content-type'] ??= type;
  return { headers, body: new Uint8Array(await encoded.arrayBuffer()) };
}
