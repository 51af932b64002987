/**
 * The connection parameters as the service reads them from the URL: booleans as `true`/`false`, numbers
 * in decimal, lists and objects (`keyterms_prompt`, `redact_pii_policies`, `llm_gateway`) as JSON, as
 * the docs' examples send them. Unset (undefined or null) parameters are left out.
 */
export function connectionQuery(params: object): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    query.set(name, typeof value === 'object' ? JSON.stringify(value) : String(value));
  }
  return query;
}

export const DEFAULT_STREAMING_BASE_URL = 'https://streaming.assemblyai.com';

/**
 * The WebSocket URL of `/v3/ws` under a streaming base URL: `https://host` → `wss://host/v3/ws`, `http://`
 * → `ws://` (a local emulator); a `wss://`/`ws://` base is taken as it is. A base that already ends in
 * `/v3/ws` is not extended again.
 */
export function websocketUrl(baseUrl: string, query: URLSearchParams): string {
  const url = new URL(baseUrl);
  if (url.protocol === 'https:') url.protocol = 'wss:';
  else if (url.protocol === 'http:') url.protocol = 'ws:';
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/v3/ws') ? path : `${path}/v3/ws`;
  url.search = query.toString();
  url.hash = '';
  return url.toString();
}
