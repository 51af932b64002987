/**
 * A TLS client that reaches a host speaking plain HTTP (the sandbox, soketi or a dev server without TLS)
 * reads the HTTP answer as a TLS record, and OpenSSL fails with "wrong version number" (or "packet length
 * too long", depending on the version and the bytes). Both halves turn that into advice naming the option.
 */
const PLAIN_HTTP_CODES = ['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'];

/** The OpenSSL code when `error` (or a cause, or one of an AggregateError's errors) is that failure. */
export function plainHttpCode(error: unknown): string | undefined {
  const queue: unknown[] = [error];
  for (let seen = 0; queue.length > 0 && seen < 16; seen++) {
    const current = queue.shift() as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
    if (!current || typeof current !== 'object') continue;
    if (typeof current.code === 'string' && PLAIN_HTTP_CODES.includes(current.code)) return current.code;
    if (typeof current.message === 'string' && /wrong version number/i.test(current.message))
      return PLAIN_HTTP_CODES[0];
    queue.push(current.cause);
    if (Array.isArray(current.errors)) queue.push(...current.errors);
  }
  return undefined;
}

/** The advice: `option` is `forceTLS` on the client, `useTLS` on the server SDK. */
export function plainHttpAdvice(option: string, url: string, code: string): string {
  return `this host speaks plain HTTP: set ${option}: false (${new URL(url).host} answered the TLS handshake in clear, ${code})`;
}
