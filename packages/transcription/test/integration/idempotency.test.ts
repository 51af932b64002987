/**
 * `idempotencyKey` on `transcripts.submit()` against the transcription emulator over real sockets: jobs
 * are counted with the emulator's own list endpoint. Same key twice (and at once) in one process → one
 * job (transcribe() too); the same key with other parameters → conflict, nothing sent; a submit whose response a real TCP
 * proxy drops after the emulator created the job, retried with the key → still one job, and the retry
 * answers its id; 3 separate Node processes on one real redis-server, same key at the same moment → one
 * job, all three get its id; a process SIGKILLed after its POST reached the emulator → the next caller
 * waits out its lease and adopts that job; a Redis that does not answer → IdempotencyStoreError, nothing
 * submitted.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { type AddressInfo, connect, createServer as createTcpServer, type Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { RedisIdempotencyStore } from '@x/core/redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RedisServer, startRedisServer } from '../../../core/test/helpers/redis-server.js';
import {
  ConnectionError,
  IdempotencyConflictError,
  IdempotencyStoreError,
  TranscriptError,
  type TranscriptionClient,
  ValidationError,
} from '../../src/index.js';
import { clientFor, sandbox } from '../helpers/sandbox.js';

let box: Awaited<ReturnType<typeof sandbox>>;
let client: TranscriptionClient;
let audio: Server;
let audioBase: string;
let urlCounter = 0;

beforeAll(async () => {
  box = await sandbox();
  client = clientFor(box);
  // Not audio: the emulator fails these jobs at once, which is all a count of jobs needs.
  audio = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => audio.listen(0, '127.0.0.1', resolve));
  audioBase = `http://127.0.0.1:${(audio.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await box?.close();
  await new Promise((resolve) => audio?.close(resolve));
});

/** A new audio URL per test, so one test's jobs never match another's. */
function freshUrl(): string {
  return `${audioBase}/call-${++urlCounter}.wav`;
}

async function jobsFor(audioUrl: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const t of client.transcripts.list({ limit: 200 })) if (t.audio_url === audioUrl) ids.push(t.id);
  return ids;
}

describe('idempotencyKey in one process', () => {
  it('the same key twice, and twice at once: one job, one id', async () => {
    const audio_url = freshUrl();
    const params = { audio_url, speech_models: ['universal-2'] };
    const [a, b] = await Promise.all([
      client.transcripts.submit(params, { idempotencyKey: 'order-1001' }),
      client.transcripts.submit(params, { idempotencyKey: 'order-1001' }),
    ]);
    const c = await client.transcripts.submit(params, { idempotencyKey: 'order-1001' });
    expect(b.id).toBe(a.id);
    expect(c.id).toBe(a.id);
    expect(await jobsFor(audio_url)).toEqual([a.id]);
    // Another key is another request.
    const d = await client.transcripts.submit(params, { idempotencyKey: 'order-1002' });
    expect(d.id).not.toBe(a.id);
    expect((await jobsFor(audio_url)).sort()).toEqual([a.id, d.id].sort());
  });

  it('the same key with other parameters: IdempotencyConflictError, nothing sent, key not in the message', async () => {
    const audio_url = freshUrl();
    await client.transcripts.submit(
      { audio_url, speech_models: ['universal-2'] },
      { idempotencyKey: 'order-2001' },
    );
    const error = await client.transcripts
      .submit(
        { audio_url, speech_models: ['universal-2'], speaker_labels: true },
        { idempotencyKey: 'order-2001' },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IdempotencyConflictError);
    expect((error as Error).message).not.toContain('order-2001');
    expect(await jobsFor(audio_url)).toHaveLength(1);
  });

  it('transcribe() twice with one key: one job, both calls end on that job', async () => {
    const audio_url = freshUrl();
    const run = () =>
      client.transcripts
        .transcribe(
          { audio_url, speech_models: ['universal-2'] },
          { idempotencyKey: 'job-3001', pollInterval: 50 },
        )
        .catch((e: unknown) => e);
    const [a, b] = await Promise.all([run(), run()]);
    // The "audio" is a 404, so the job fails: both calls report the same failed job.
    expect(a).toBeInstanceOf(TranscriptError);
    expect(b).toBeInstanceOf(TranscriptError);
    const jobs = await jobsFor(audio_url);
    expect(jobs).toHaveLength(1);
    expect([(a as TranscriptError).transcriptId, (b as TranscriptError).transcriptId]).toEqual([
      jobs[0],
      jobs[0],
    ]);
  });

  it('an unusable key is refused before any request, naming idempotencyKey', async () => {
    const audio_url = freshUrl();
    for (const key of ['', '   ', 'a\nb', 'x'.repeat(256)]) {
      const error = await client.transcripts
        .submit({ audio_url, speech_models: ['universal-2'] }, { idempotencyKey: key })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).issues[0]?.path).toBe('idempotencyKey');
    }
    expect(await jobsFor(audio_url)).toHaveLength(0);
  });
});

/**
 * A TCP proxy in front of the emulator that forwards the first `POST /v2/transcript` and, when the
 * emulator's answer arrives (so the job exists), destroys the client's socket instead of passing it on
 * (`drop`), or keeps it open without a byte (`hold`: the client waits on, as a process that dies would).
 */
async function dropFirstSubmitReply(
  target: URL,
  mode: 'drop' | 'hold' = 'drop',
): Promise<{ close: () => Promise<void>; url: string; dropped: () => number }> {
  let dropped = 0;
  let armed = true;
  const sockets = new Set<Socket>();
  const server = createTcpServer((downstream) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const socket of [downstream, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    let dropping = false;
    downstream.on('data', (chunk) => {
      if (armed && chunk.toString('latin1').startsWith('POST /v2/transcript ')) {
        armed = false;
        dropping = true;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (!dropping) {
        downstream.write(chunk);
        return;
      }
      dropped++;
      if (mode === 'hold') return;
      downstream.destroy();
      upstream.destroy();
    });
    downstream.on('error', () => upstream.destroy());
    upstream.on('error', () => downstream.destroy());
    downstream.on('close', () => upstream.destroy());
    upstream.on('close', () => downstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    dropped: () => dropped,
    // Kept-alive connections would hold close() open until they idle out.
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

describe('a submit whose response is dropped', () => {
  it('retried with the same key: one job, and the retry answers its id', async () => {
    const proxy = await dropFirstSubmitReply(new URL(box.url));
    try {
      const viaProxy = clientFor({ url: proxy.url, transcription: box.transcription });
      const params = { audio_url: freshUrl(), speech_models: ['universal-2'] };
      const first = await viaProxy.transcripts
        .submit(params, { idempotencyKey: 'call-77' })
        .catch((e: unknown) => e);
      expect(first).toBeInstanceOf(ConnectionError);
      expect(proxy.dropped()).toBe(1);
      const created = await jobsFor(params.audio_url);
      expect(created).toHaveLength(1);
      const retried = await viaProxy.transcripts.submit(params, { idempotencyKey: 'call-77' });
      expect(retried.id).toBe(created[0]);
      expect(await jobsFor(params.audio_url)).toEqual(created);
      // Recorded now: a third call answers the same id at once.
      expect((await viaProxy.transcripts.submit(params, { idempotencyKey: 'call-77' })).id).toBe(created[0]);
    } finally {
      await proxy.close();
    }
  });
});

type WorkerReply =
  | { type: 'ready' }
  | { type: 'submitted'; id: string }
  | { type: 'failed'; name: string; message: string };

function startWorker(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; next: () => Promise<WorkerReply> }> {
  const child = fork(fileURLToPath(new URL('./idempotency-worker.ts', import.meta.url)), [], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const replies: WorkerReply[] = [];
  const waiting: ((reply: WorkerReply) => void)[] = [];
  const failures: ((error: Error) => void)[] = [];
  child.on('message', (reply: WorkerReply) => {
    const waiter = waiting.shift();
    failures.shift();
    if (waiter) waiter(reply);
    else replies.push(reply);
  });
  child.once('exit', (code) => {
    for (const fail of failures.splice(0)) fail(new Error(`worker ${child.pid} exited with code ${code}`));
  });
  const next = () =>
    new Promise<WorkerReply>((resolve, reject) => {
      const ready = replies.shift();
      if (ready) resolve(ready);
      else {
        waiting.push(resolve);
        failures.push(reject);
      }
    });
  return next().then((reply) => {
    if (reply.type !== 'ready') throw new Error(`worker said ${JSON.stringify(reply)} before ready`);
    return { child, next };
  });
}

describe('3 processes on one Redis', () => {
  let redisServer: RedisServer;
  let workers: Awaited<ReturnType<typeof startWorker>>[] = [];

  beforeAll(async () => {
    redisServer = await startRedisServer();
    const env = {
      SANDBOX_URL: box.url,
      SANDBOX_API_KEY: box.transcription.apiKey,
      REDIS_URL: redisServer.url,
    };
    workers = await Promise.all([0, 1, 2].map(() => startWorker(env)));
  }, 60_000);
  afterAll(async () => {
    for (const w of workers) {
      w.child.send({ type: 'exit' });
      if (w.child.exitCode === null) await new Promise((resolve) => w.child.once('exit', resolve));
    }
    await redisServer?.close();
  });

  it('the same key at the same moment: exactly one job, all three get its id', async () => {
    const audio_url = freshUrl();
    const replies = Promise.all(workers.map((w) => w.next()));
    for (const w of workers) w.child.send({ type: 'submit', key: 'batch-2026-11-26/42', audio_url });
    const answers = await replies;
    expect(answers.map((a) => a.type)).toEqual(['submitted', 'submitted', 'submitted']);
    const ids = answers.map((a) => (a as { id: string }).id);
    const jobs = await jobsFor(audio_url);
    expect(jobs).toHaveLength(1);
    expect(ids).toEqual([jobs[0], jobs[0], jobs[0]]);
  });

  it('a Redis that does not answer: IdempotencyStoreError, nothing submitted', async () => {
    // ioredis is @x/core's dependency (an optional peer), not this package's.
    const { Redis } = createRequire(new URL('../../../core/package.json', import.meta.url))('ioredis');
    const dead = new Redis({
      port: 1,
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    dead.on('error', () => {});
    try {
      const viaDead = clientFor(box, { idempotency: { store: new RedisIdempotencyStore({ redis: dead }) } });
      const audio_url = freshUrl();
      const error = await viaDead.transcripts
        .submit({ audio_url, speech_models: ['universal-2'] }, { idempotencyKey: 'order-4001' })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(IdempotencyStoreError);
      expect((error as Error).message).not.toContain('order-4001');
      expect(await jobsFor(audio_url)).toHaveLength(0);
    } finally {
      dead.disconnect();
    }
  });

  it('a process killed after its POST reached the service: the next caller waits out the lease and adopts that job', async () => {
    const proxy = await dropFirstSubmitReply(new URL(box.url), 'hold');
    const doomed = await startWorker({
      SANDBOX_URL: proxy.url,
      SANDBOX_API_KEY: box.transcription.apiKey,
      REDIS_URL: redisServer.url,
      IDEMPOTENCY_LEASE_MS: '5000',
    });
    const { Redis } = createRequire(new URL('../../../core/package.json', import.meta.url))('ioredis');
    const redis = new Redis(redisServer.url);
    try {
      const audio_url = freshUrl();
      const key = 'crash-5001';
      doomed.child.send({ type: 'submit', key, audio_url });
      // Bounded: the job shows up once the emulator has the POST (the proxy holds its answer).
      let jobs: string[] = [];
      for (let i = 0; i < 400 && jobs.length === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        jobs = await jobsFor(audio_url);
      }
      expect(jobs).toHaveLength(1);
      doomed.child.kill('SIGKILL');
      const survivor = clientFor(box, {
        idempotency: { store: new RedisIdempotencyStore({ redis }), leaseMs: 5000 },
      });
      const adopted = await survivor.transcripts.submit(
        { audio_url, speech_models: ['universal-2'] },
        { idempotencyKey: key },
      );
      expect(adopted.id).toBe(jobs[0]);
      expect(await jobsFor(audio_url)).toEqual(jobs);
    } finally {
      if (doomed.child.exitCode === null && doomed.child.signalCode === null) doomed.child.kill('SIGKILL');
      redis.disconnect();
      await proxy.close();
    }
  });
});
