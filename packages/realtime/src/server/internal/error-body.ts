/**
 * soketi (1.x, on uWebSockets.js) sends every HTTP API error with status 200: its `sendJson` writes the
 * `Content-Type` header before the status, and uWS then fixes the status line at `200 OK`, so the real
 * status only survives in the body: `{"error":"The secret authentication failed","code":401}` (the same
 * shape for 400, 404, 413, 429 and 500; see soketi's `src/http-handler.ts`). Left alone, a trigger signed
 * with a wrong secret would resolve as a success.
 *
 * An answer counts as an error when its JSON body is an object with a string `error` and an integer
 * `code` in 400..599. No success body of the HTTP API has that pair: Pusher answers `{}` or
 * `{channels|batch|users|occupied...}`, soketi `{ok:true}` and the same query shapes, Reverb and sockudo
 * likewise; and a server that did put an `error` string in a success would not pair it with a 4xx/5xx code.
 */
export interface BodyError {
  status: number;
}

/** The status an error body carries, or undefined when `text` is not one (including text that is not JSON). */
export function errorInBody(text: string): BodyError | undefined {
  // Cheap test first: almost every success body is small and has no `"error"` in it.
  if (!text.includes('"error"')) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const { error, code } = body as Record<string, unknown>;
  if (typeof error !== 'string' || typeof code !== 'number' || !Number.isInteger(code)) return undefined;
  return code >= 400 && code <= 599 ? { status: code } : undefined;
}

/** Set on a response whose status was taken from its body, so the error can say what the server sent. */
export const STATUS_FROM_BODY_HEADER = 'x-realtime-status-from-body';

/** Whether a response is a 2xx JSON answer: the only kind that can carry an error in its body. */
export function isJsonSuccess(response: Response): boolean {
  return (
    response.status >= 200 &&
    response.status <= 299 &&
    response.body !== null &&
    /\bjson\b/i.test(response.headers.get('content-type') ?? '')
  );
}

/**
 * A response with `text` as its body (already read, see `isJsonSuccess`), and the status the text declares
 * when it is an error body (see the module comment); otherwise `response`'s own status.
 */
export function responseFromText(response: Response, text: string, headers: Headers): Response {
  const found = errorInBody(text);
  if (!found)
    return new Response(text, { status: response.status, statusText: statusTextOf(response), headers });
  const marked = new Headers(headers);
  marked.set(STATUS_FROM_BODY_HEADER, String(response.status));
  marked.delete('content-length');
  return new Response(text, { status: found.status, headers: marked });
}

/** The response's status text, or '' when it is not a ByteString (a server's UTF-8), which `new Response` refuses. */
export function statusTextOf(response: Response): string {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(response.statusText) ? response.statusText : '';
}
