/**
 * One client of upload.bench.ts, in a fresh process: uploads a small warm-up file the same way (so lazy
 * modules, sockets and pools are in place), collects garbage, takes its RSS as the baseline, then uploads
 * the big file while sampling RSS every 20 ms, and reports to the parent. Run by the parent only.
 */
import { createReadStream, openAsBlob } from 'node:fs';
import { AssemblyAI } from 'assemblyai';
import { TranscriptionClient } from '../src/index.js';

export type ClientKey = 'x-path' | 'x-stream' | 'sdk-path' | 'fetch-blob';

/** What the parent sends. */
export interface UploadJob {
  client: ClientKey;
  baseUrl: string;
  apiKey: string;
  file: string;
  bytes: number;
  warmupFile: string;
  sampleMs: number;
}

export interface UploadMeasurement {
  uploadUrl: string;
  /** Bytes the client reported sending (`onProgress`), where it can say. */
  bytesSent: number | null;
  wallMs: number;
  cpuMs: number;
  baselineRss: number;
  peakRss: number;
  /** getrusage's peak over the process's life (bytes). */
  maxRss: number;
  samples: number;
}

export type UploadOutcome = { ok: true; measurement: UploadMeasurement } | { ok: false; error: string };

type Upload = (path: string) => Promise<{ uploadUrl: string; bytesSent: number | null }>;

function uploader(job: UploadJob): Upload {
  switch (job.client) {
    case 'x-path':
    case 'x-stream': {
      const client = new TranscriptionClient({ apiKey: job.apiKey, baseUrl: job.baseUrl, logLevel: 'off' });
      return async (path) => {
        let sent: number | null = null;
        const input = job.client === 'x-path' ? path : createReadStream(path);
        const { upload_url } = await client.files.upload(input, {
          onProgress: (p) => {
            sent = p.loaded;
          },
        });
        return { uploadUrl: upload_url, bytesSent: sent };
      };
    }
    case 'sdk-path': {
      const client = new AssemblyAI({ apiKey: job.apiKey, baseUrl: job.baseUrl });
      return async (path) => ({ uploadUrl: await client.files.upload(path), bytesSent: null });
    }
    case 'fetch-blob':
      return async (path) => {
        const response = await fetch(`${job.baseUrl}/v2/upload`, {
          method: 'POST',
          headers: { authorization: job.apiKey },
          body: await openAsBlob(path),
        });
        const body = (await response.json()) as { upload_url?: string; error?: string };
        if (!response.ok || !body.upload_url)
          throw new Error(`upload answered ${response.status}: ${body.error ?? JSON.stringify(body)}`);
        return { uploadUrl: body.upload_url, bytesSent: null };
      };
  }
}

async function run(job: UploadJob): Promise<UploadMeasurement> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  const upload = uploader(job);
  await upload(job.warmupFile);
  gc();
  await sleep(200);
  gc();

  const baselineRss = process.memoryUsage.rss();
  let peakRss = baselineRss;
  let samples = 0;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    samples++;
  }, job.sampleMs);
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  let result: Awaited<ReturnType<Upload>>;
  try {
    result = await upload(job.file);
  } finally {
    clearInterval(sampler);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpuBefore);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    ...result,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    baselineRss,
    peakRss,
    maxRss: process.resourceUsage().maxRSS * 1024,
    samples,
  };
}

process.once('message', (job) => {
  run(job as UploadJob).then(
    (measurement) => process.send!({ ok: true, measurement } satisfies UploadOutcome, () => process.exit(0)),
    (error: unknown) =>
      process.send!(
        { ok: false, error: String((error as Error)?.message ?? error) } satisfies UploadOutcome,
        () => process.exit(1),
      ),
  );
});
