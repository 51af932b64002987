/**
 * An HTTP API answer. Pusher answers errors in plain text (for example "Invalid signature: you should have sent
 * HmacSHA256Hex(...)", as quoted in pusher-http-go#91), and pusher-http-node keeps that text as the
 * `RequestError`'s `body`; successes are JSON.
 */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export const ok = (body: unknown): Reply => ({ status: 200, body });
export const fail = (status: number, message: string): Reply => ({ status, body: message });

export function toResponse(reply: Reply): Response {
  const headers = new Headers(reply.headers);
  let body: string;
  if (typeof reply.body === 'string') {
    body = reply.body;
    if (!headers.has('content-type')) headers.set('Content-Type', 'text/plain; charset=utf-8');
  } else {
    body = JSON.stringify(reply.body ?? {});
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
  }
  return new Response(body, { status: reply.status, headers });
}
