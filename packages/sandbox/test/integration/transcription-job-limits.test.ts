/**
 * Jobs that must fail early and say why in the client's terms: audio whose header declares more than
 * `maxAudioSeconds` (refused before any tool runs), and an upload removed while its job runs (no server
 * paths, no tool banner). The PocketSphinx engine runs for real, but against stand-in `sox` and
 * `pocketsphinx_continuous` scripts on its PATH that log each run, so these need no speech packages and the
 * test can hold a recognition open.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const KEY = 'job_limits_key';
const headers = { authorization: KEY, 'content-type': 'application/json' };
let dir: string;
let box: Sandbox<false>;

/** A WAV header (PCM, mono, 16-bit) at `rate` Hz followed by `dataBytes` of silence. */
function wav(rate: number, dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(rate, 24);
  h.writeUInt32LE(rate * 2, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([h, Buffer.alloc(dataBytes)]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transcription-job-limits-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(dir, 'native.wav'), wav(16_000, 32_000));
  // sox: logs its run, writes a 1 s native WAV as the conversion (to the last .wav argument: effects such as
  // `trim` follow the output file).
  await writeFile(
    join(bin, 'sox'),
    `#!/bin/sh\necho "sox $*" >> ${dir}/runs\nfor a; do case "$a" in *.wav) out="$a";; esac; done\ncp ${dir}/native.wav "$out"\n`,
  );
  // The recogniser: logs its run, waits for ${dir}/release when there is a ${dir}/hold, then fails as the
  // real one does on a missing file (its configuration banner, then the path) or prints one word.
  await writeFile(
    join(bin, 'pocketsphinx_continuous'),
    `#!/bin/sh
echo "pocketsphinx $2" >> ${dir}/runs
touch ${dir}/started.$$
if [ -e ${dir}/hold ]; then while [ ! -e ${dir}/release ]; do sleep 0.02; done; fi
if [ ! -e "$2" ]; then
  echo "INFO: pocketsphinx 5prealpha built for x86_64 (cmd_ln.c, line 512)" >&2
  echo "ERROR: \\"continuous.c\\", line 136: Failed to open file '$2' for reading: No such file or directory" >&2
  exit 1
fi
echo "hello 0.10 0.50 0.950"
`,
  );
  await chmod(join(bin, 'sox'), 0o755);
  await chmod(join(bin, 'pocketsphinx_continuous'), 0o755);
  box = await startSandbox({
    store: false,
    transcription: {
      apiKeys: [KEY],
      rateLimit: false,
      workers: 2,
      maxAudioSeconds: 600,
      engine: { engine: 'pocketsphinx', path: `${bin}:/usr/bin:/bin` },
    },
  });
});
afterAll(async () => {
  await box?.close();
  await rm(dir, { recursive: true, force: true });
});

async function upload(body: Buffer): Promise<string> {
  const res = await fetch(`${box.url}/v2/upload`, { method: 'POST', headers, body: new Uint8Array(body) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { upload_url: string }).upload_url;
}

async function submit(audio_url: string): Promise<string> {
  const res = await fetch(`${box.url}/v2/transcript`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ audio_url, speech_models: ['universal-2'] }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { id: string }).id;
}

const transcript = async (id: string): Promise<any> =>
  (await fetch(`${box.url}/v2/transcript/${id}`, { headers })).json();

const runs = async () => (await readFile(join(dir, 'runs'), 'utf8').catch(() => '')).trim();

it('a 2 KB WAV declaring 1 Hz (1,000 s) fails before sox or the recogniser run', async () => {
  const id = await submit(await upload(wav(1, 2000)));
  await box.transcription!.idle();
  const t = await transcript(id);
  expect(t.status).toBe('error');
  expect(t.error).toBe('Audio duration of 1000 seconds exceeds the maximum of 600 seconds.');
  expect(await runs()).toBe('');
  // A short file in the same odd format is still converted and recognised.
  const ok = await submit(await upload(wav(8000, 16_000)));
  await box.transcription!.idle();
  const done = await transcript(ok);
  expect(done.status, done.error).toBe('completed');
  expect(done.text).toBe('Hello.');
  expect(await runs()).toMatch(/^sox .*\npocketsphinx /);
});

it('an upload deleted while its job runs: the job says so, with no server path or tool banner', async () => {
  await rm(join(dir, 'runs'), { force: true });
  const url = await upload(wav(16_000, 32_000));
  await writeFile(join(dir, 'hold'), '');
  const first = await submit(url);
  const second = await submit(url);
  // Both recognisers started (bounded: the test's own timeout ends a wait that never comes).
  for (;;) {
    const started = (await runs()).split('\n').filter((l) => l.startsWith('pocketsphinx')).length;
    if (started === 2) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  // Deleting the first transcript deletes the upload both share.
  const deleted = await fetch(`${box.url}/v2/transcript/${first}`, { method: 'DELETE', headers });
  expect(deleted.status).toBe(200);
  await writeFile(join(dir, 'release'), '');
  await box.transcription!.idle();
  const t = await transcript(second);
  expect(t.status).toBe('error');
  expect(t.error).toBe('Cannot access uploaded file: it was deleted.');
  expect(JSON.stringify(t)).not.toContain(tmpdir());
  // A job queued on it afterwards is told the same before any tool runs.
  await rm(join(dir, 'runs'));
  const later = await fetch(`${box.url}/v2/transcript`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ audio_url: url, speech_models: ['universal-2'] }),
  });
  expect(later.status).toBe(400);
  expect(await later.json()).toEqual({
    error: 'Cannot access uploaded file: the upload does not exist or was deleted.',
  });
});
