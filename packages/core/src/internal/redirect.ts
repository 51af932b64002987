import type { OutgoingBody } from '../body.js';

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Browsers and curl stop at 20; an API that needs more than a few hops is misconfigured. */
export const MAX_REDIRECTS = 5;

/** What one hop of a call sends: the method, the URL before auth, and the body. */
export interface Target {
  method: string;
  url: URL;
  body: OutgoingBody | undefined;
}

export type RedirectDecision =
  | { kind: 'follow'; target: Target }
  | { kind: 'refuse'; why: string; location: URL | undefined; advice?: string };

/**
 * Core follows redirects itself (fetch runs with `redirect: 'manual'`) because `fetch` would carry query
 * credentials, and signed URLs, to wherever a server points: WordPress answers canonical-host and
 * HTTP→HTTPS redirects on its own. Only the same origin is followed, with the auth parameters taken out
 * of the Location so the strategy can add and sign them afresh; anything else is refused.
 */
export function decideRedirect(
  response: Response,
  target: Target,
  sentUrl: URL,
  hops: number,
): RedirectDecision | undefined {
  if (response.type === 'opaqueredirect') {
    return {
      kind: 'refuse',
      why: 'the browser hides where (fetch redirect mode "manual"), so credentials cannot be checked to stay on the API',
      location: undefined,
    };
  }
  if (!REDIRECT_STATUSES.has(response.status)) return undefined;
  const header = response.headers.get('location');
  if (!header) return undefined;
  let location: URL;
  try {
    location = new URL(header, sentUrl);
  } catch {
    return {
      kind: 'refuse',
      why: `its Location ${JSON.stringify(header.slice(0, 200))} is not a URL`,
      location: undefined,
    };
  }
  if (location.origin !== sentUrl.origin) {
    const downgrade = sentUrl.protocol === 'https:' && location.protocol === 'http:';
    return {
      kind: 'refuse',
      why: downgrade
        ? 'it downgrades HTTPS to plain HTTP, where credentials would travel in clear'
        : `it leaves the API's origin ${sentUrl.origin}, and credentials are only sent there`,
      location,
      advice: downgrade
        ? 'A proxy or load balancer that terminates TLS often does this when it does not pass X-Forwarded-Proto; fix the server rather than the client.'
        : `If the API has moved, use ${location.origin} in the client's URL.`,
    };
  }
  if (hops >= MAX_REDIRECTS)
    return { kind: 'refuse', why: `more than ${MAX_REDIRECTS} redirects in a row`, location };
  // 303 always, and 301/302 after a POST, turn into a GET without a body, as browsers and fetch do.
  const toGet =
    (response.status === 303 && target.method !== 'HEAD') ||
    ((response.status === 301 || response.status === 302) && target.method === 'POST');
  const body = toGet ? undefined : target.body;
  if (body?.kind === 'stream' && !body.stream.retryable) {
    return {
      kind: 'refuse',
      why: 'the body is a one-shot stream that cannot be sent again; pass a factory (streamBody(() => stream)) or fileBody(path)',
      location,
    };
  }
  for (const name of addedByAuth(target.url, sentUrl)) location.searchParams.delete(name);
  return { kind: 'follow', target: { method: toGet ? 'GET' : target.method, url: location, body } };
}

/** Query parameters the auth strategy added or changed (keys, signatures, nonces). */
function addedByAuth(before: URL, after: URL): string[] {
  const names: string[] = [];
  for (const [name, value] of after.searchParams) {
    if (before.searchParams.get(name) !== value) names.push(name);
  }
  return names;
}
