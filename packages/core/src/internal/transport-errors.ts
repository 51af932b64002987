import { AbortError, ConnectionError, TimeoutError, ValidationError } from '../errors.js';
import { redactUrl } from './redact.js';

/** What the transport knows when an attempt fails: enough to say which clock ran out and where. */
export interface FailedAttempt {
  method: string;
  url: URL;
  timeoutMs: number;
  idleTimeoutMs: number;
  signal: AbortSignal | undefined;
  attempt?: string | undefined;
}

/** Why the transport aborted its own attempt (the reason it gives its controller). */
export type TimedOut = { kind: 'attempt' | 'idle' };

/**
 * Turns whatever an attempt threw (undici's errors, node:http's socket errors, an abort) into the typed
 * error the client acts on, with the same messages on every path.
 */
export function toTransportError(error: unknown, input: FailedAttempt, reason: unknown): Error {
  const where = `${input.method} ${redactUrl(input.url.href)}`;
  const timedOut = (reason as TimedOut | undefined)?.kind;
  const which = input.attempt ? `, ${input.attempt}` : '';
  if (timedOut === 'attempt')
    return new TimeoutError(
      `Request timed out after ${input.timeoutMs} ms (per-attempt timeout${which}): ${where}`,
      {
        cause: error,
        timeout: 'attempt',
      },
    );
  if (timedOut === 'idle')
    return new TimeoutError(`No bytes moved for ${input.idleTimeoutMs} ms (idle timeout${which}): ${where}`, {
      cause: error,
      timeout: 'idle',
    });
  if (input.signal?.aborted)
    return new AbortError(`Request aborted: ${where}`, { cause: input.signal.reason ?? error });
  const refused = refusedHeader(error);
  if (refused) return refused;
  const code = errorCode(error);
  const unsent = code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EAI_AGAIN';
  const message = causeMessage(error);
  const what = explainFailure(code, message, input.url);
  const reasonText = what ?? code ?? message;
  return new ConnectionError(`Connection error${reasonText ? `: ${reasonText}` : ''} (${where})`, {
    cause: error,
    unsent,
  });
}

/**
 * What a socket error code means for this URL, said plainly: `ECONNREFUSED` alone sends people to their
 * firewall when the server is simply not running, and OpenSSL's "wrong version number" hides that the
 * server speaks plain HTTP. Both fetch (undici puts the code in `cause`) and node:http land here.
 */
function explainFailure(code: string | undefined, message: string | undefined, url: URL): string | undefined {
  const origin = url.origin;
  if (code === 'ECONNREFUSED')
    return `nothing is listening at ${origin} (ECONNREFUSED): is the server running, and are the host and port right?`;
  if (code === 'ENOTFOUND')
    return `the host name ${url.hostname} does not resolve (ENOTFOUND): check the host in the URL`;
  if (code === 'EAI_AGAIN')
    return `the host name ${url.hostname} could not be resolved right now (EAI_AGAIN): DNS did not answer`;
  if (
    code === 'ERR_SSL_WRONG_VERSION_NUMBER' ||
    code === 'ERR_SSL_PACKET_LENGTH_TOO_LONG' ||
    (code === 'EPROTO' && /wrong version number|packet length too long|http request/i.test(message ?? ''))
  )
    return `${origin} answered TLS with plain HTTP (${code}): this host speaks plain HTTP: ${PLAIN_HTTP_FIX}`;
  if (code === 'ECONNRESET' || (!code && /other side closed|socket hang up/i.test(message ?? '')))
    return `the server at ${origin} closed the connection before answering in full (${code ?? message})${url.protocol === 'http:' ? '; if it serves HTTPS, use https://' : ''}`;
  if (code === 'ETIMEDOUT') return `connecting to ${origin} timed out (ETIMEDOUT)`;
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH')
    return `no network route to ${url.hostname} (${code})`;
  return undefined;
}

/**
 * A header undici will not send (`keep-alive`, `upgrade`, `transfer-encoding`, `expect`: it manages them
 * itself) is the caller's input, not a network failure: as a ConnectionError it was retried, the same way
 * each time. Named, and never retried, on both paths (fetch wraps the same undici error).
 */
function refusedHeader(error: unknown): ValidationError | undefined {
  let current: any = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = current.code;
    const message = typeof current.message === 'string' ? current.message : '';
    const name = /^(?:invalid (\S+) header|(\S+) header not supported)$/.exec(message);
    if ((code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') && name) {
      const header = name[1] ?? name[2];
      return new ValidationError('request headers', [
        { path: `headers.${header}`, message: `${message}: undici manages this header itself; remove it` },
      ]);
    }
    current = current.cause;
  }
  return undefined;
}

/** What `explainFailure` proposes for a plain-HTTP answer when the service names no TLS option. */
const PLAIN_HTTP_FIX = 'use http:// (or set the TLS option false)';

/**
 * The same failure with the fix naming the service's own option (`set useTLS: false`, see
 * `ServiceAdapter.tlsOption`) when it is a TLS handshake answered in plain HTTP; any other error as is.
 * Done after the transport, which knows no adapter, on both paths.
 */
export function namingTlsOption(error: unknown, option: string | undefined): Error {
  if (!option || !(error instanceof ConnectionError) || !error.message.includes(PLAIN_HTTP_FIX))
    return error as Error;
  const message = error.message.replace(PLAIN_HTTP_FIX, `set ${option}: false`);
  return new ConnectionError(message, { cause: error.cause, unsent: error.unsent });
}

/** undici wraps the socket error in `cause`, sometimes in an AggregateError (happy eyeballs). */
function errorCode(error: unknown): string | undefined {
  let current: any = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.code === 'string' && /^E[A-Z_]+$/.test(current.code)) return current.code;
    if (Array.isArray(current.errors) && current.errors.length > 0) {
      const codes: unknown[] = current.errors.map((e: any) => e?.code);
      return (codes.find((c) => typeof c === 'string') as string | undefined) ?? undefined;
    }
    current = current.cause;
  }
  return undefined;
}

/** The innermost reason undici gives ("bad port", "invalid onRequestStart method"), which `fetch failed` hides. */
function causeMessage(error: unknown): string | undefined {
  let current: any = error;
  let message: string | undefined;
  for (let depth = 0; current && depth < 4; depth++) {
    if (typeof current.message === 'string' && current.message !== 'fetch failed') message = current.message;
    current = current.cause;
  }
  return message;
}
