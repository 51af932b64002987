import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for Pusher's HTTP API on a real socket, until the sandbox emulator lands: it checks each
 * request's signature itself with node:crypto (independently of the SDK's Web Crypto signer), records what
 * came, and answers as the HTTP API reference describes, plain-text errors included.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
  json: any;
}

export interface Fault {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface FakePusher {
  url: string;
  port: number;
  requests: RecordedRequest[];
  /** Answers for the next requests, in order, before anything is checked. */
  faults: Fault[];
  /** Occupied channels and their presence members. */
  channels: Map<string, { users: string[]; subscriptions: number }>;
  close(): Promise<void>;
}

const MAX_DATA = 10_240;

export async function startFakePusher(app: {
  appId: string;
  key: string;
  secret: string;
}): Promise<FakePusher> {
  const state = {
    requests: [] as RecordedRequest[],
    faults: [] as Fault[],
    channels: new Map<string, { users: string[]; subscriptions: number }>(),
  };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const query = Object.fromEntries(url.searchParams);
      let json: any;
      try {
        json = body ? JSON.parse(body) : undefined;
      } catch {}
      state.requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query,
        headers: req.headers,
        body,
        json,
      });
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
        const type = typeof payload === 'string' ? 'text/plain' : 'application/json';
        res.writeHead(status, { 'content-type': type, ...headers });
        res.end(text);
      };
      const fault = state.faults.shift();
      if (fault) return send(fault.status, fault.body ?? '', fault.headers);
      const problem = checkSignature(app, req.method ?? '', url, body);
      if (problem) return send(401, `${problem}\n`);
      const prefix = `/apps/${app.appId}`;
      if (!url.pathname.startsWith(prefix)) return send(404, 'Not found\n');
      const [status, payload] = route(
        state,
        req.method ?? '',
        url.pathname.slice(prefix.length),
        query,
        json,
      );
      send(status, payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    ...state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Pusher's rule, written independently: sorted lowercase k=v of the decoded query, minus the signature. */
function checkSignature(
  app: { key: string; secret: string },
  method: string,
  url: URL,
  body: string,
): string | null {
  const params = [...url.searchParams].filter(([k]) => k !== 'auth_signature');
  const given = url.searchParams.get('auth_signature') ?? '';
  if (url.searchParams.get('auth_key') !== app.key) return 'Unknown auth_key';
  const timestamp = Number(url.searchParams.get('auth_timestamp'));
  if (Math.abs(Date.now() / 1000 - timestamp) > 600)
    return 'Timestamp expired: not within 600s of server time';
  if (body && url.searchParams.get('body_md5') !== createHash('md5').update(body, 'utf8').digest('hex'))
    return 'Invalid body_md5';
  const sorted = params.map(([k, v]) => [k.toLowerCase(), v] as const).sort(([a], [b]) => (a < b ? -1 : 1));
  const toSign = `${method}\n${url.pathname}\n${sorted.map(([k, v]) => `${k}=${v}`).join('&')}`;
  const expected = createHmac('sha256', app.secret).update(toSign).digest('hex');
  const ok = given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
  return ok
    ? null
    : `Invalid signature: you should have sent HmacSHA256Hex(${JSON.stringify(toSign)}, your_secret)`;
}

type Answer = [status: number, payload: unknown];

function route(
  state: { channels: Map<string, { users: string[]; subscriptions: number }> },
  method: string,
  path: string,
  query: Record<string, string>,
  json: any,
): Answer {
  const attributes = (channel: string, info: string | undefined) => {
    const c = state.channels.get(channel);
    const out: Record<string, number> = {};
    for (const attr of info?.split(',') ?? []) {
      if (attr === 'user_count') out.user_count = c?.users.length ?? 0;
      if (attr === 'subscription_count') out.subscription_count = c?.subscriptions ?? 0;
    }
    return out;
  };
  const eventProblem = (e: any) =>
    typeof e?.name !== 'string' || typeof e?.data !== 'string'
      ? ([400, 'name and data (a string) are required\n'] as Answer)
      : e.data.length > MAX_DATA
        ? ([413, 'Payload too large: data must be at most 10240 bytes\n'] as Answer)
        : null;
  if (method === 'POST' && path === '/events') {
    const problem = eventProblem(json);
    if (problem) return problem;
    if (!Array.isArray(json.channels) || json.channels.length > 100) return [400, 'channels: 1..100\n'];
    if (!json.info) return [200, {}];
    return [
      200,
      {
        channels: Object.fromEntries(json.channels.map((c: string) => [c, attributes(c, json.info)])),
      },
    ];
  }
  if (method === 'POST' && path === '/batch_events') {
    if (!Array.isArray(json?.batch) || json.batch.length > 10) return [400, 'Batch too large (max 10)\n'];
    for (const e of json.batch) {
      const problem = eventProblem(e);
      if (problem) return problem;
    }
    const infos = json.batch.some((e: any) => e.info);
    return [200, infos ? { batch: json.batch.map((e: any) => attributes(e.channel, e.info)) } : {}];
  }
  if (method === 'GET' && path === '/channels') {
    const prefix = query.filter_by_prefix ?? '';
    const list = [...state.channels.keys()].filter((name) => name.startsWith(prefix));
    return [200, { channels: Object.fromEntries(list.map((c) => [c, attributes(c, query.info)])) }];
  }
  const users = /^\/channels\/([^/]+)\/users$/.exec(path);
  if (method === 'GET' && users) {
    const c = state.channels.get(decodeURIComponent(users[1]!));
    return [200, { users: (c?.users ?? []).map((id) => ({ id })) }];
  }
  const channel = /^\/channels\/([^/]+)$/.exec(path);
  if (method === 'GET' && channel) {
    const name = decodeURIComponent(channel[1]!);
    return [200, { occupied: state.channels.has(name), ...attributes(name, query.info) }];
  }
  if (method === 'POST' && /^\/users\/[^/]+\/terminate_connections$/.test(path)) return [200, {}];
  return [404, 'Not found\n'];
}
