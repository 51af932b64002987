/** An answer before it becomes a `Response`, so the emulator can add its rate-limit headers to any of them. */
export interface Reply {
  status: number;
  /** A string is sent as `text/plain`; `null` sends no body (the service's 503/504); anything else JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

export const json = (body: unknown, status = 200): Reply => ({ status, body });

/** The service's one error shape: `{"error": "<message>"}`. */
export const fail = (status: number, message: string): Reply => ({ status, body: { error: message } });

export const LOOKUP_ERROR = 'Transcript lookup error, transcript id not found';

export function toResponse(reply: Reply, method: string): Response {
  const headers = new Headers(reply.headers);
  let body: string | null = null;
  if (reply.body === null || reply.body === undefined) body = null;
  else if (typeof reply.body === 'string') {
    body = reply.body;
    if (!headers.has('content-type')) headers.set('Content-Type', 'text/plain; charset=utf-8');
  } else {
    body = JSON.stringify(reply.body);
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
  }
  return new Response(method === 'HEAD' ? null : body, { status: reply.status, headers });
}
