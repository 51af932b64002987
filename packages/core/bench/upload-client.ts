import { once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { intEnv } from '../../../bench.tools.js';
import { BaseClient, fileBody, streamBody } from '../src/index.js';

export const MiB = 2 ** 20;
export const CHUNK = 64 * 1024;
const UPLOAD_MB = intEnv('BENCH_UPLOAD_MB', 1024);
const _FILE_MB = intEnv('BENCH_FILE_MB', Math.min(256, UPLOAD_MB), { min: 0 });
const _TIMEOUT_S = intEnv('BENCH_UPLOAD_TIMEOUT_S', 120);
const _ONLY = process.env.BENCH_ONLY?.split(',').filter(Boolean);
export const WARMUP_BYTES = 8 * MiB;
export const SAMPLE_MS = 20;
const _GOAL_MB = 64;

export type Source = 'generator' | 'generator-reused' | 'file';
export interface Variant {
  key: string;
  label: string;
  client: 'core' | 'fetch' | 'node-http';
  source: Source;
  /** Rows outside the goal: shown for comparison. */
  info?: boolean;
}

/** What the parent sends a client child. */
export interface Job {
  variant: Variant;
  baseURL: string;
  bytes: number;
  file: string | undefined;
}
/** What the sink answers. */
export interface SinkReply {
  bytes: number;
  via: string;
  framing: string;
}
/** What a client child reports. */
export interface Measurement {
  reply: SinkReply;
  bytes: number;
  wallMs: number;
  cpuMs: number;
  baselineRss: number;
  peakRss: number;
  maxRss: number;
  samples: number;
  transferModule: string;
}

const TEMPLATE = Buffer.alloc(CHUNK, 'x-sdk upload bench ');

/** `total` bytes in 64 KiB chunks, generated as they are asked for; never all in memory. */
export async function* generate(total: number, reuse: boolean): AsyncGenerator<Uint8Array> {
  for (let sent = 0; sent < total; sent += CHUNK) {
    const chunk = TEMPLATE.subarray(0, Math.min(CHUNK, total - sent));
    yield reuse ? chunk : Buffer.from(chunk);
  }
}

/** Pull-based: the generator runs only as fast as fetch reads. */
function webStream(source: AsyncIterator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await source.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await source.return?.(undefined);
    },
  });
}

export type Outcome = { ok: true; measurement: Measurement } | { ok: false; error: string };

function uploader(job: Job): (bytes: number, measured: boolean) => Promise<SinkReply> {
  const { variant, baseURL } = job;
  const reuse = variant.source === 'generator-reused';
  if (variant.client === 'fetch') {
    return async (bytes) => {
      const response = await fetch(`${baseURL}/upload`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream' },
        body: webStream(generate(bytes, reuse)),
        duplex: 'half',
      } as RequestInit);
      if (!response.ok) throw new Error(`sink answered ${response.status}`);
      return (await response.json()) as SinkReply;
    };
  }
  if (variant.client === 'node-http') return (bytes) => nodeHttpUpload(`${baseURL}/upload`, bytes, reuse);
  const core = new BaseClient(
    { baseURL, rateLimit: false },
    { packageName: '@x/bench', packageVersion: '0.0.0' },
  );
  return (bytes, measured) =>
    core.request<SinkReply>({
      method: 'POST',
      path: '/upload',
      // The warm-up of the file variant streams a generator: same transport path, no second file.
      body:
        variant.source === 'file' && measured
          ? fileBody(job.file!)
          : streamBody(() => generate(bytes, reuse), {
              length: bytes,
              contentType: 'application/octet-stream',
            }),
    });
}

/** The floor: `http.request` written with backpressure, what core's Node path does without the client. */
function nodeHttpUpload(url: string, bytes: number, reuse: boolean): Promise<SinkReply> {
  return new Promise<SinkReply>((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', 'content-length': String(bytes) },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          res.statusCode === 200
            ? resolve(JSON.parse(text))
            : reject(new Error(`sink answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
    void (async () => {
      for await (const chunk of generate(bytes, reuse)) {
        if (!req.write(chunk)) await once(req, 'drain');
      }
      req.end();
    })().catch(reject);
  });
}

async function runClient(job: Job): Promise<Measurement> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const upload = uploader(job);
  const warm = await upload(WARMUP_BYTES, false);
  if (warm.bytes !== WARMUP_BYTES)
    throw new Error(`warm-up: sink got ${warm.bytes} of ${WARMUP_BYTES} bytes`);
  gc();
  await sleep(200);
  gc();

  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  let samples = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    samples++;
  }, SAMPLE_MS);
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  let reply: SinkReply;
  try {
    reply = await upload(job.bytes, true);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  if (reply.bytes !== job.bytes) throw new Error(`sink got ${reply.bytes} of ${job.bytes} bytes`);
  const resolved = import.meta.resolve('#transfer');
  return {
    reply,
    bytes: job.bytes,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    baselineRss,
    peakRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    samples,
    transferModule: resolved.startsWith('file:')
      ? relative(process.cwd(), fileURLToPath(resolved))
      : resolved,
  };
}

process.once('message', (job) => {
  runClient(job as Job).then(
    (measurement) => process.send!({ ok: true, measurement } satisfies Outcome, () => process.exit(0)),
    (error: unknown) =>
      process.send!({ ok: false, error: String((error as Error)?.stack ?? error) } satisfies Outcome, () =>
        process.exit(1),
      ),
  );
});
