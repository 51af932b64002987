import { request as httpRequest, validateHeaderName, validateHeaderValue } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * One webhook POST over node:http(s), answering the receiver's status. Why not fetch: Node's fetch keeps
 * headers in a plain object on the way out, so a header named `__proto__` (a valid HTTP name the client may
 * register) silently vanishes; node:http sends headers given as a flat name/value list as they are.
 * Redirects are not followed (as the service does not); the body of the answer is drained, never kept; no
 * agent, so no idle connection to a receiver outlives its delivery.
 */
export function postWebhook(
  url: string,
  headers: readonly (readonly [string, string])[],
  body: string,
  signal: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch (error) {
      return reject(error);
    }
    const payload = Buffer.from(body, 'utf8');
    const own = new Set(['host', 'content-length']);
    const raw: string[] = ['Host', target.host, 'Content-Length', String(payload.length)];
    for (const [name, value] of headers) {
      if (own.has(name.toLowerCase())) continue; // the connection's own: a registered one cannot replace them
      raw.push(name, value);
    }
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const req = send(target, { method: 'POST', headers: raw, signal, agent: false }, (res) => {
      res.resume();
      res.on('error', () => {});
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The headers of one delivery, the registered one replacing a default of the same name; throws if invalid. */
export function webhookHeaders(
  authHeader: { name: string; value: string } | null,
): (readonly [string, string])[] {
  const list: (readonly [string, string])[] = [
    ['Content-Type', 'application/json'],
    ['User-Agent', 'x-sandbox-transcription-webhook'],
  ];
  if (!authHeader) return list;
  validateHeaderName(authHeader.name);
  validateHeaderValue(authHeader.name, authHeader.value);
  const lower = authHeader.name.toLowerCase();
  return [...list.filter(([name]) => name.toLowerCase() !== lower), [authHeader.name, authHeader.value]];
}
