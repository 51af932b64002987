/**
 * `--transcription-data DIR` across a crash: the CLI as a real child process, `kill -9` right after a job is
 * acknowledged, a restart on the same directory. Everything a client was answered is still there, and the
 * job that was cut off runs again.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { synthesizeSpeech, TRANSCRIPTION_DEV_KEY } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-transcription-durability-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

function start(): { child: ChildProcess; url: Promise<string>; exited: Promise<unknown> } {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--transcription', '--transcription-data', dir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  const exited = new Promise((resolve) => child.on('exit', resolve)).finally(() => children.delete(child));
  const url = new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m && out.includes('Ctrl+C to stop.')) resolve(m[1]!);
    });
    child.stderr!.on('data', (c: Buffer) => {
      out += c.toString();
    });
    void exited.then(() => reject(new Error(`exited early:\n${out}`)));
  });
  return { child, url, exited };
}

const headers = { authorization: TRANSCRIPTION_DEV_KEY, 'content-type': 'application/json' };

async function api(url: string, path: string, init: RequestInit = {}): Promise<any> {
  const res = await fetch(`${url}${path}`, { ...init, headers: { ...headers, ...init.headers } });
  return res.json();
}

async function until(url: string, id: string, status: string): Promise<any> {
  for (;;) {
    const t = await api(url, `/v2/transcript/${id}`);
    if (t.status === status) return t;
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('keeps uploads, finished and deleted transcripts across kill -9, and reruns the unfinished job', async () => {
  const first = start();
  let url = await first.url;
  const audio = await readFile(await synthesizeSpeech('my order number is four five six'));
  const upload = async () =>
    (await api(url, '/v2/upload', { method: 'POST', body: new Uint8Array(audio), headers: {} })).upload_url;
  const upload_url = await upload();
  const create = (body: object) =>
    api(url, '/v2/transcript', {
      method: 'POST',
      body: JSON.stringify({ speech_models: ['universal-2'], ...body }),
    });
  const done = await create({ audio_url: upload_url });
  const finished = await until(url, done.id, 'completed');
  // Deleting a transcript deletes its upload too, so this one has its own.
  const doomed = await create({ audio_url: await upload() });
  await until(url, doomed.id, 'completed');
  await api(url, `/v2/transcript/${doomed.id}`, { method: 'DELETE' });
  // Acknowledged as queued, then the process dies before (or while) the engine runs it.
  const cutOff = await create({ audio_url: upload_url, sentiment_analysis: true });
  expect(cutOff.status).toBe('queued');
  first.child.kill('SIGKILL');
  await first.exited;

  const second = start();
  url = await second.url;
  const again = await api(url, `/v2/transcript/${done.id}`);
  expect(again.status).toBe('completed');
  expect(again.text).toBe(finished.text);
  expect(again.words).toEqual(finished.words);
  expect((await api(url, `/v2/transcript/${doomed.id}`)).text).toBe('Deleted by user.');
  const rerun = await until(url, cutOff.id, 'completed');
  expect(rerun.text).toMatch(/order number is 456/i);
  expect(rerun.sentiment_analysis_results).toHaveLength(1);
  // The upload is still there: a new job can use it.
  const fresh = await create({ audio_url: upload_url });
  expect((await until(url, fresh.id, 'completed')).text).toBe(finished.text);
  const list = await api(url, '/v2/transcript?limit=10');
  expect(list.transcripts.map((t: { id: string }) => t.id)).toEqual([
    fresh.id,
    cutOff.id,
    doomed.id,
    done.id,
  ]);
  second.child.kill('SIGTERM');
  await second.exited;
});

it('reset() is durable too: the transcripts it forgot stay forgotten after kill -9', async () => {
  const { startSandbox } = await import('../../src/index.js');
  const data = join(dir, 'reset');
  const box = await startSandbox({ store: false, transcription: { dataDir: data, rateLimit: false } });
  const audio = await readFile(await synthesizeSpeech('thank you'));
  const up = await fetch(`${box.url}/v2/upload`, { method: 'POST', headers, body: new Uint8Array(audio) });
  const { upload_url } = await up.json();
  await api(box.url, '/v2/transcript', {
    method: 'POST',
    body: JSON.stringify({ audio_url: upload_url, speech_models: ['universal-2'] }),
  });
  await box.transcription!.idle();
  await box.transcription!.reset();
  // No close(): what a crash leaves is what reset() wrote.
  const again = await startSandbox({ store: false, transcription: { dataDir: data, rateLimit: false } });
  expect((await api(again.url, '/v2/transcript')).transcripts).toEqual([]);
  await again.close();
  await box.close();
});
