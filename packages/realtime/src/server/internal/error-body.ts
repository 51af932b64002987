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

/**
 * `ServiceAdapter.statusInBody`: the status a 2xx JSON answer carries in its body (soketi's errors), or
 * undefined. Core then raises the typed error for it and notes that the server answered 2xx.
 */
export function statusInBody(text: string, response: Response): number | undefined {
  const found = errorInBody(text);
  return found && /\bjson\b/i.test(response.headers.get('content-type') ?? '') ? found.status : undefined;
}
