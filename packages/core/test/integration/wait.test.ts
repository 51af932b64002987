import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  AbortError,
  APIError,
  BaseClient,
  type ClientOptions,
  NotFoundError,
  TimeoutError,
  waitFor,
} from '../../src/index.js';

interface Job {
  id: string;
  status: string;
  text: string | null;
}

/**
 * A job endpoint: each GET of `/jobs/<id>` answers the job's next step, and repeats the last one once
 * they run out. The step `stall` never answers, so a poll can be caught in flight.
 */
const steps = new Map<string, string[]>();
/** Requests per job id, unknown ids included. */
const polls = new Map<string, number>();
/** Jobs whose stalled request the client closed before an answer: the abort reached the socket. */
const cancelled: string[] = [];
const stalled = new Set<ServerResponse>();

const server = createServer((req, res) => {
  const id = /^\/jobs\/([\w-]+)$/.exec(req.url ?? '')?.[1] ?? '';
  const seen = polls.get(id) ?? 0;
  polls.set(id, seen + 1);
  const plan = steps.get(id);
  if (!plan) {
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'not_found', message: `No job ${id}` }));
    return;
  }
  const status = plan[Math.min(seen, plan.length - 1)]!;
  if (status === 'stall') {
    stalled.add(res);
    res.on('close', () => {
      if (!res.writableEnded) cancelled.push(id);
    });
    return;
  }
  const job: Job = { id, status, text: status === 'completed' ? 'hello world' : null };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(job));
});

class JobsClient extends BaseClient {
  constructor(options: ClientOptions) {
    super(options, { packageName: '@x/test-jobs', packageVersion: '0.0.0' });
  }
  getJob(id: string, options?: { signal?: AbortSignal }) {
    return this.request<Job>({ method: 'GET', path: `/jobs/${id}`, what: 'jobs.get', options });
  }
}

let client: JobsClient;
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = new JobsClient({ baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}` });
});
afterAll(
  () =>
    new Promise<void>((resolve) => {
      for (const res of stalled) res.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    }),
);

const isDone = (job: Job) => job.status === 'completed' || job.status === 'error';
const fast = { intervalMs: 10, maxIntervalMs: 20 };

describe('waitFor over a real client and server', () => {
  it('polls until the job completes and resolves with the completed value', async () => {
    steps.set('done', ['queued', 'processing', 'processing', 'completed']);
    const job = await waitFor((signal) => client.getJob('done', { signal }), { isDone, ...fast });
    expect(job).toEqual({ id: 'done', status: 'completed', text: 'hello world' });
    expect(polls.get('done')).toBe(4);
  });

  it('reports every status, in order, with its poll number', async () => {
    steps.set('progress', ['queued', 'processing', 'processing', 'error']);
    const seen: [string, number][] = [];
    await waitFor((signal) => client.getJob('progress', { signal }), {
      isDone,
      onStatus: (job, poll) => seen.push([job.status, poll]),
      ...fast,
    });
    expect(seen).toEqual([
      ['queued', 1],
      ['processing', 2],
      ['processing', 3],
      ['error', 4],
    ]);
  });

  it('ends with AbortError when the caller aborts during the sleep, and polls no more', async () => {
    steps.set('abort-sleep', ['queued']);
    const controller = new AbortController();
    const waiting = waitFor((signal) => client.getJob('abort-sleep', { signal }), {
      isDone,
      // After the first poll, a sleep that only the abort can end within the test timeout.
      onStatus: () => setTimeout(() => controller.abort(), 10),
      signal: controller.signal,
      intervalMs: 600_000,
    });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    expect(polls.get('abort-sleep')).toBe(1);
  });

  it('ends with AbortError when the caller aborts during a poll, and cancels that request', async () => {
    steps.set('abort-poll', ['queued', 'stall']);
    const controller = new AbortController();
    const waiting = waitFor((signal) => client.getJob('abort-poll', { signal }), {
      isDone,
      onStatus: () => {
        // The second poll is the stalled one; abort once the server holds it.
        const check = setInterval(() => {
          if (polls.get('abort-poll') === 2) {
            clearInterval(check);
            controller.abort();
          }
        }, 5);
      },
      signal: controller.signal,
      ...fast,
    });
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    await vi.waitFor(() => expect(cancelled).toContain('abort-poll'));
  });

  it('ends with TimeoutError naming the deadline and the last status when the job never finishes', async () => {
    steps.set('slow', ['queued', 'processing']);
    let answered = 0;
    const error = await waitFor((signal) => client.getJob('slow', { signal }), {
      isDone,
      onStatus: (_job, poll) => {
        answered = poll;
      },
      deadlineMs: 300,
      ...fast,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect(answered).toBeGreaterThanOrEqual(2);
    // The deadline falls in a poll (which the count leaves out), before a sleep that would pass it, or in a
    // sleep that a busy machine's timers stretched past it: three wordings, each naming the deadline, the
    // polls answered and the last status (a CI run on Node 24 saw the third).
    expect((error as Error).message).toMatch(
      new RegExp(
        `^Stopped waiting after ${answered} polls: the deadline of 300 ms (passed during poll ${answered + 1}|would pass before the next poll|passed); last status: processing$`,
      ),
    );
  });

  it('cuts a poll in flight at the deadline and cancels that request', async () => {
    steps.set('stuck', ['processing', 'stall']);
    const waiting = waitFor((signal) => client.getJob('stuck', { signal }), {
      isDone,
      deadlineMs: 500,
      ...fast,
    });
    const error = await waiting.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(
      'Stopped waiting after 1 poll: the deadline of 500 ms passed during poll 2; last status: processing',
    );
    expect(error).toMatchObject({ timeout: 'total', phase: 'attempt' });
    await vi.waitFor(() => expect(cancelled).toContain('stuck'));
  });

  it("passes a poll's APIError through (404 for an unknown job) without polling again", async () => {
    const error = await waitFor((signal) => client.getJob('missing', { signal }), { isDone, ...fast }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(404);
    expect((error as APIError).message).toBe('404 not_found: No job missing');
    expect(polls.get('missing')).toBe(1);
  });
});
