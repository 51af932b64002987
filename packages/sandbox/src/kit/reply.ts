/** An answer before it becomes a `Response`, so an emulator can add headers (rate limits, CORS) to any of them. */
export interface Reply {
  status: number;
  /** Encoded by the `ReplyFormat`; by default a string is `text/plain`, `null` no body, anything else JSON. */
  body: unknown;
  headers?: Record<string, string>;
}

/** How a service spells its bodies: the headers every answer carries and the body's encoding. */
export interface ReplyFormat {
  /** Sent with every answer; the reply's own headers win. */
  headers?: Record<string, string>;
  /** The body's text and its content type (kept when a header already names one), or `null` for no body. */
  encode(body: unknown): { text: string; type: string } | null;
}

/** A string as plain text, `null`/`undefined` as no body (the 503/504 of AssemblyAI), anything else as JSON. */
export const TEXT_OR_JSON: ReplyFormat = {
  encode(body) {
    if (body === null || body === undefined) return null;
    if (typeof body === 'string') return { text: body, type: 'text/plain; charset=utf-8' };
    return { text: JSON.stringify(body), type: 'application/json' };
  },
};

/** The reply as a `Response`; a `HEAD` gets the headers without the body. */
export function toResponse(reply: Reply, method = 'GET', format: ReplyFormat = TEXT_OR_JSON): Response {
  const headers = new Headers(format.headers);
  for (const [name, value] of Object.entries(reply.headers ?? {})) headers.set(name, value);
  const encoded = format.encode(reply.body);
  if (encoded && !headers.has('content-type')) headers.set('Content-Type', encoded.type);
  return new Response(method === 'HEAD' || !encoded ? null : encoded.text, { status: reply.status, headers });
}
