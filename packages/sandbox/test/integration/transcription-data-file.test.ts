/**
 * `--transcription-data DIR` with the CLI as a real child process: a `transcripts.json` or journal of the
 * wrong shape stops the start with the file and the fault named (no usage text, no "Cannot read properties"),
 * and a hostile body refused while it runs leaves nothing behind that would break the clean stop.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRANSCRIPTION_DEV_KEY } from '../../src/index.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const children = new Set<ChildProcess>();
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-transcription-data-file-'));
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  child: ChildProcess;
  /** The URL once the banner is printed; rejects when the process exits first. */
  url: Promise<string>;
  exited: Promise<number | null>;
  output(): string;
}

function cli(dataDir: string): Run {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'src/cli.ts', '--port', '0', '--transcription', '--transcription-data', dataDir],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  children.add(child);
  let out = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve)).finally(() =>
    children.delete(child),
  );
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
  url.catch(() => {});
  return { child, url, exited, output: () => out };
}

const record = {
  id: '5b1cbd0e-6a4d-4f57-9b3b-2f0a5c1d9e77',
  key: TRANSCRIPTION_DEV_KEY,
  seq: 1,
  params: { audio_url: 'http://127.0.0.1:1/a.wav', speech_models: ['universal-2'] },
  status: 'error',
  created: '2026-01-01T00:00:00.000000',
  completed: null,
  error: 'Download error',
  throttled: false,
  upload_id: null,
  result: null,
  webhook_status_code: null,
  speech_model_used: 'universal-2',
  deleted: false,
};

/** JSON text with the string "DEEP" replaced by 20,000 arrays inside each other (too deep to stringify). */
const deepened = (text: string) => text.replace('"DEEP"', `${'['.repeat(20_000)}${']'.repeat(20_000)}`);

describe('a data directory that does not load', () => {
  const snapshot = (body: object) =>
    JSON.stringify({ version: 1, seq: 0, transcripts: [], uploads: [], ...body });
  it.each([
    [
      'a null transcript',
      snapshot({ transcripts: [null] }),
      null,
      'transcripts[0] is not a transcript record (null)',
    ],
    [
      'no transcripts array',
      JSON.stringify({ version: 1, seq: 0 }),
      null,
      'transcripts is not an array (missing)',
    ],
    ['null itself', 'null', null, 'it is not a JSON object (null)'],
    [
      'a transcript without params',
      snapshot({ transcripts: [{ ...record, params: null }] }),
      null,
      'transcripts[0].params is not an object (null)',
    ],
    [
      'an upload without a path',
      snapshot({ uploads: [{ id: 'u', key: 'k', bytes: 3 }] }),
      null,
      'uploads[0].path is not a string (missing)',
    ],
    [
      'a journal entry of the wrong shape',
      snapshot({}),
      `${JSON.stringify({ seq: 1, entry: { transcript: { ...record, status: 'lost' } } })}\n`,
      'line 1: transcript.status is not one of queued, processing, completed, error ("lost")',
    ],
    [
      // JSON.parse reads it; serialising the state again (the snapshot written at start) overflowed the stack.
      'params nested 20,000 deep',
      deepened(snapshot({ transcripts: [{ ...record, params: { ...record.params, x: 'DEEP' } }] })),
      null,
      'transcripts[0].params nests deeper than 64 levels',
    ],
    [
      'an upload nested 20,000 deep in the journal',
      snapshot({}),
      deepened(
        `${JSON.stringify({ seq: 1, entry: { upload: { id: 'u', key: 'k', path: '/p', bytes: 1, x: 'DEEP' } } })}\n`,
      ),
      'line 1: upload.x nests deeper than 64 levels',
    ],
  ])('%s: exits 1 naming the file and the fault', async (name, text, journal, fault) => {
    const data = join(dir, name.replaceAll(' ', '-'));
    await mkdir(data);
    await writeFile(join(data, 'transcripts.json'), text);
    if (journal) await writeFile(join(data, 'transcripts.json.journal'), journal);
    const run = cli(data);
    expect(await run.exited).toBe(1);
    const file = join(data, journal ? 'transcripts.json.journal' : 'transcripts.json');
    expect(run.output()).toBe(`x-sandbox: cannot load ${file}: ${fault}. Fix or remove the file to start.\n`);
  });
});

it('a body nested 6,000 deep is refused and the data directory still stops cleanly (exit 0)', async () => {
  const data = join(dir, 'deep');
  const run = cli(data);
  const url = await run.url;
  const headers = { authorization: TRANSCRIPTION_DEV_KEY, 'content-type': 'application/json' };
  const deep = `{"audio_url":"http://127.0.0.1:1/a.wav","speech_models":["u"],"x":${'['.repeat(6000)}${']'.repeat(6000)}}`;
  const res = await fetch(`${url}/v2/transcript`, { method: 'POST', headers, body: deep });
  expect(res.status).toBe(400);
  const list = await fetch(`${url}/v2/transcript`, { headers });
  expect(((await list.json()) as { transcripts: unknown[] }).transcripts).toEqual([]);
  run.child.kill('SIGTERM');
  expect(await run.exited).toBe(0);
  expect(run.output()).not.toContain('error while closing');
  // And it starts again from what it wrote.
  const again = cli(data);
  await again.url;
  again.child.kill('SIGTERM');
  expect(await again.exited).toBe(0);
});
