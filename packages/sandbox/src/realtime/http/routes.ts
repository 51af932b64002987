import { readBody } from '../../kit/body.js';
import type { NodeEnv } from '../../kit/emulator.js';
import type { FaultQueue } from '../../kit/faults.js';
import { sleep } from '../../kit/faults.js';
import type { RateWindows } from '../../kit/rate-windows.js';
import { type Reply, toResponse } from '../../kit/reply.js';
import type { RequestStats } from '../../kit/stats.js';
import type { RealtimeApp } from '../model/apps.js';
import type { RealtimeHub } from '../model/hub.js';
import { CLOSE } from '../protocol/codes.js';
import { authProblem, parseQuery } from './auth.js';
import { getChannel, listChannels, listUsers } from './channels.js';
import { MAX_BATCH_EVENTS, triggerBatch, triggerEvent } from './events.js';
import type { RealtimeHttpFault } from './faults.js';
import { fail, ok } from './respond.js';

export interface HttpContext {
  hub: RealtimeHub;
  windows: RateWindows;
  faults: FaultQueue<RealtimeHttpFault>;
  stats: RequestStats;
}

/** The routes below `/apps/{app_id}`, by method and path segments. */
function route(
  hub: RealtimeHub,
  app: RealtimeApp,
  method: string,
  segments: string[],
  params: Record<string, string>,
  body: unknown,
): Reply {
  const [resource, name, sub, ...rest] = segments;
  if (rest.length > 0) return notFound();
  if (resource === 'events' && name === undefined) {
    return method === 'POST' ? triggerEvent(hub, app, body) : notAllowed();
  }
  if (resource === 'batch_events' && name === undefined) {
    return method === 'POST' ? triggerBatch(hub, app, body) : notAllowed();
  }
  if (resource === 'channels') {
    if (method !== 'GET') return notAllowed();
    if (name === undefined) return listChannels(hub, app, params);
    if (sub === undefined) return getChannel(hub, app, name, params);
    if (sub === 'users') return listUsers(hub, app, name);
    return notFound();
  }
  if (resource === 'users' && name !== undefined && sub === 'terminate_connections') {
    if (method !== 'POST') return notAllowed();
    hub.terminateUser(
      app,
      name,
      CLOSE.unauthorized,
      'Connection terminated by the app (terminate_connections)',
    );
    return ok({});
  }
  return notFound();
}

const notFound = () => fail(404, 'Not found');
const notAllowed = () => fail(405, 'Method not allowed');

/** Split and percent-decoded; null when a segment is not valid percent-encoding. */
function segmentsOf(path: string): string[] | null {
  try {
    return path
      .split('/')
      .filter((s) => s.length > 0)
      .map(decodeURIComponent);
  } catch {
    return null;
  }
}

/**
 * One HTTP API request: find the app, read the body (bounded), check the signature, take a rate-limit slot,
 * take an injected fault, then route. Rate limiting comes after authentication so that unsigned noise cannot
 * use up an app's window.
 */
export async function handleHttp(ctx: HttpContext, request: Request, env: NodeEnv): Promise<Response> {
  ctx.stats.countRequest();
  const method = request.method.toUpperCase();
  const rawUrl = env?.incoming?.url ?? new URL(request.url).pathname;
  const q = rawUrl.indexOf('?');
  const path = q === -1 ? rawUrl : rawUrl.slice(0, q);
  const params = parseQuery(q === -1 ? '' : rawUrl.slice(q + 1));
  const segments = segmentsOf(path);
  if (segments?.[0] !== 'apps' || segments[1] === undefined) return toResponse(notFound());
  const app = ctx.hub.appById(segments[1]);
  if (!app) return toResponse(fail(404, `Unknown app_id ${segments[1].slice(0, 64)}`));

  // Enough for a full batch: 10 events of `maxPayloadBytes` each, their channel names and the JSON around them.
  const maxBody = MAX_BATCH_EVENTS * ctx.hub.settings.maxPayloadBytes + 64 * 1024;
  const read = await readBody(request, maxBody);
  // A client that hung up mid-body reads no answer; this one only ends the request, quietly.
  if ('hungUp' in read) return toResponse(fail(400, 'Request body ended before its declared length'));
  if ('tooLarge' in read) return toResponse(fail(413, `Request body exceeds ${maxBody} bytes`));
  const body = read.bytes;
  const problem = authProblem(
    app,
    { method, path, params, body },
    ctx.hub.settings.timestampToleranceSeconds,
  );
  if (problem) return toResponse(fail(401, problem));

  const waitMs = ctx.windows.take(app.appId, Date.now());
  if (waitMs > 0) {
    ctx.stats.countRateLimited();
    const reply = fail(429, 'Too many requests: the app is over its HTTP API rate limit');
    return toResponse({ ...reply, headers: { 'Retry-After': String(Math.ceil(waitMs / 1000)) } });
  }
  ctx.stats.recordArrival(performance.now());

  const fault = ctx.faults.take(method, path);
  if (fault) {
    if (fault.delayMs) await sleep(fault.delayMs);
    if (fault.resetConnection) {
      env?.incoming?.socket.destroy();
      return new Response(null, { status: 500 });
    }
    return toResponse({ status: fault.status, body: fault.body ?? 'Injected fault', headers: fault.headers });
  }

  let parsed: unknown = {};
  if (method === 'POST' && body.length > 0) {
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return toResponse(fail(400, 'Request body is not valid JSON'));
    }
  }
  return toResponse(route(ctx.hub, app, method, segments.slice(2), params, parsed));
}
