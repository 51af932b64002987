import type { ErrorDetails } from '../errors.js';
import type { QueryValue } from '../options.js';

/** What core can read out of an error body when the service package has no parser of its own. */
export function defaultErrorDetails(body: unknown, response: Response): ErrorDetails {
  if (body && typeof body === 'object') {
    const record = body as Record<string, unknown>;
    const nested = (record.error && typeof record.error === 'object' ? record.error : record) as Record<
      string,
      unknown
    >;
    const message =
      typeof nested.message === 'string'
        ? nested.message
        : typeof record.error === 'string'
          ? record.error
          : undefined;
    const code =
      typeof nested.code === 'string'
        ? nested.code
        : typeof nested.type === 'string'
          ? nested.type
          : undefined;
    return { code, message };
  }
  if (typeof body === 'string' && body.trim() && body.length < 500 && !body.trimStart().startsWith('<'))
    return { message: body.trim() };
  return { message: response.statusText || undefined };
}

export function appendQuery(params: URLSearchParams, query: Record<string, QueryValue>): void {
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(name, value.map(String).join(','));
    } else if (value instanceof Date) params.set(name, value.toISOString());
    else params.set(name, String(value));
  }
}

export function parseBody(text: string, response: Response): unknown {
  if (text === '') return undefined;
  const type = response.headers.get('content-type');
  // Servers mislabel JSON (text/html from PHP hosts), so unlabelled or odd types are sniffed.
  if (type?.includes('json') || /^\s*[[{"]/.test(text)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** A server's message can be megabytes (an HTML error page, a stack dump); errors and logs keep the head. */
export function clip(text: string, max = 2000): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}
