/**
 * The transcription fuzzing suites' peer and checks: a sandbox over real sockets with a completed transcript
 * (so random queries reach the views' real derivations), jobs kept cheap (an in-process engine, audio and
 * webhooks at an address nothing listens on, one webhook attempt), and the invariants every answer holds.
 */
import http from 'node:http';
import net from 'node:net';
import { expect } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

export const KEY = 'fuzz_transcription_key';
export const OTHER = 'fuzz_transcription_other';
/** Nothing listens on port 1: a job downloading from it fails at once. */
export const NOWHERE = 'http://127.0.0.1:1/audio.wav';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export interface Send {
  method: string;
  /** Path and query exactly as they go on the request line. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Uint8Array;
}

export interface Peer {
  box: Sandbox<false>;
  port: number;
  /** A completed transcript of `KEY`, with words. */
  completedId: string;
  uploadUrl: string;
  close(): Promise<void>;
}

export async function startPeer(): Promise<Peer> {
  const box = await startSandbox({
    store: false,
    transcription: {
      apiKeys: [KEY, OTHER],
      rateLimit: false,
      concurrency: 1000,
      maxUploadBytes: 64 * 1024,
      downloadTimeoutMs: 2000,
      webhooks: { attempts: 1, retryDelayMs: 1, timeoutMs: 1000 },
      engine: {
        name: 'fixed',
        transcribe: async () => ({
          words: [
            { text: 'My', start: 100, end: 300, confidence: 0.9 },
            { text: 'order', start: 300, end: 600, confidence: 0.8 },
            { text: 'number', start: 600, end: 900, confidence: 0.95 },
            { text: 'is', start: 900, end: 1000, confidence: 0.9 },
            { text: '456.', start: 1000, end: 1800, confidence: 0.7 },
            { text: 'Thank', start: 2500, end: 2800, confidence: 0.9 },
            { text: 'you.', start: 2800, end: 3100, confidence: 0.9 },
          ],
          text: 'My order number is 456. Thank you.',
          audio_duration: 3.2,
        }),
      },
    },
  });
  const port = Number(new URL(box.url).port);
  const up = await send(port, {
    method: 'POST',
    path: '/v2/upload',
    headers: { authorization: KEY },
    body: 'x',
  });
  const uploadUrl = JSON.parse(up.text).upload_url as string;
  const created = await send(port, {
    method: 'POST',
    path: '/v2/transcript',
    headers: { authorization: KEY },
    body: JSON.stringify({ audio_url: uploadUrl, speech_models: ['universal-2'], sentiment_analysis: true }),
  });
  const completedId = JSON.parse(created.text).id as string;
  await box.transcription!.idle();
  return { box, port, completedId, uploadUrl, close: () => box.close() };
}

/** One request on a fresh connection; a dropped connection rejects (the server must always answer). */
export function send(port: number, req: Send): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
  return new Promise((resolve, reject) => {
    const r = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    r.on('error', reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/**
 * Writes `raw` (a whole request, as bytes) on a socket and resolves with the first answer's status, headers and
 * body; rejects when the server closes without one.
 */
export function sendRaw(port: number, raw: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let out = Buffer.alloc(0);
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    socket.on('data', (chunk: Buffer) => {
      out = Buffer.concat([out, chunk]);
      const end = out.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = out.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
      if (out.length - end - 4 < length) return;
      socket.destroy();
      const headers: http.IncomingHttpHeaders = {};
      for (const line of head.split('\r\n').slice(1)) {
        const at = line.indexOf(':');
        headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
      }
      const text = out.subarray(end + 4, end + 4 + length).toString();
      resolve({ status: Number(head.slice(9, 12)), headers, text });
    });
    socket.on('error', reject);
    socket.on('close', () =>
      reject(new Error(`closed without an answer: ${out.toString('latin1').slice(0, 200)}`)),
    );
  });
}

/**
 * What every answer must be: a status, and on failure the service's `{"error": "<message>"}` as JSON (a HEAD
 * has no body; the key-less redacted-audio link answers a plain-text 404, as the service's pre-signed URL).
 * Never a 500: every input here is the client's fault or fine.
 */
export function expectWellFormed(req: Send, res: Answer): void {
  const context = `${req.method} ${req.path.slice(0, 200)} → ${res.status} ${res.text.slice(0, 200)}`;
  expect(res.status, context).toBeGreaterThanOrEqual(200);
  expect(res.status, context).toBeLessThan(500);
  if (res.status < 400 || req.method === 'HEAD') return;
  // As the emulator sees the path: dot segments resolved.
  const path = new URL(req.path, 'http://x').pathname;
  if (/^\/v2\/redacted-audio\//.test(path) && res.status === 404) return;
  expect(res.headers['content-type'], context).toMatch(/^application\/json/);
  const body = JSON.parse(res.text) as Record<string, unknown>;
  expect(Object.keys(body), context).toEqual(['error']);
  expect(typeof body.error, context).toBe('string');
}

/** The peer still does its job: a transcript of the completed one reads, and a new one is created. */
export async function expectServing(peer: Peer): Promise<void> {
  const get = await send(peer.port, {
    method: 'GET',
    path: `/v2/transcript/${peer.completedId}`,
    headers: { authorization: KEY },
  });
  expect(get.status, get.text).toBe(200);
  expect(JSON.parse(get.text).status).toBe('completed');
  const created = await send(peer.port, {
    method: 'POST',
    path: '/v2/transcript',
    headers: { authorization: KEY },
    body: JSON.stringify({ audio_url: peer.uploadUrl, speech_models: ['universal-2'] }),
  });
  expect(created.status, created.text).toBe(200);
}
