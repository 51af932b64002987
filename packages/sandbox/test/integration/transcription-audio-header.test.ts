/**
 * Audio refused from its header before any conversion or recognition, for every format sox reads: a sample
 * rate too low for speech, a duration over the limit, and a duration the file's size cannot hold. The real
 * sox does the probing and converting, behind a wrapper that logs each run; a stand-in recogniser logs its
 * runs, so the test sees exactly which work was done for each file.
 */
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const KEY = 'audio_header_key';
const headers = { authorization: KEY };
let dir: string;
let box: Sandbox<false>;

/** A PCM WAV header (mono, `bits`-bit) at `rate` Hz, `junk` bytes of metadata chunk, then `dataBytes` of data. */
function wav(rate: number, bits: number, dataBytes: number, junk = 0): Buffer {
  const fmt = Buffer.alloc(24);
  fmt.write('fmt ', 0, 'latin1');
  fmt.writeUInt32LE(16, 4);
  fmt.writeUInt16LE(1, 8);
  fmt.writeUInt16LE(1, 10);
  fmt.writeUInt32LE(rate, 12);
  fmt.writeUInt32LE((rate * bits) / 8, 16);
  fmt.writeUInt16LE(bits / 8, 20);
  fmt.writeUInt16LE(bits, 22);
  const chunk = (id: string, body: Buffer) => {
    const h = Buffer.alloc(8);
    h.write(id, 0, 'latin1');
    h.writeUInt32LE(body.length, 4);
    return Buffer.concat([h, body]);
  };
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    ...(junk ? [chunk('junk', Buffer.alloc(junk))] : []),
    fmt,
    chunk('data', Buffer.alloc(dataBytes, 0x80)),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/** A Sun `.au` (8-bit linear, mono) at `rate` Hz whose header declares `declared` bytes, holding `bytes`. */
function au(rate: number, declared: number, bytes: number): Buffer {
  const h = Buffer.alloc(24);
  h.write('.snd', 0, 'latin1');
  h.writeUInt32BE(24, 4);
  h.writeUInt32BE(declared, 8);
  h.writeUInt32BE(2, 12);
  h.writeUInt32BE(rate, 16);
  h.writeUInt32BE(1, 20);
  return Buffer.concat([h, Buffer.alloc(bytes)]);
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'transcription-audio-header-'));
  const bin = join(dir, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'sox'), `#!/bin/sh\necho "sox $1" >> ${dir}/runs\nexec /usr/bin/sox "$@"\n`);
  await writeFile(
    join(bin, 'pocketsphinx_continuous'),
    `#!/bin/sh\necho "pocketsphinx" >> ${dir}/runs\necho "hello 0.10 0.50 0.950"\n`,
  );
  await chmod(join(bin, 'sox'), 0o755);
  await chmod(join(bin, 'pocketsphinx_continuous'), 0o755);
  // maxAudioSeconds is left at its default (10 hours): the header checks must not depend on lowering it.
  box = await startSandbox({
    store: false,
    transcription: {
      apiKeys: [KEY],
      rateLimit: false,
      engine: { engine: 'pocketsphinx', path: `${bin}:/usr/bin:/bin` },
    },
  });
});
afterAll(async () => {
  await box?.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(async () => {
  await rm(join(dir, 'runs'), { force: true });
});

/** Uploads the file, transcribes it, and answers the finished transcript and the tool runs it caused. */
async function transcribe(body: Buffer): Promise<{ t: any; runs: string[] }> {
  const up = await fetch(`${box.url}/v2/upload`, { method: 'POST', headers, body: new Uint8Array(body) });
  const { upload_url } = (await up.json()) as { upload_url: string };
  const created = await fetch(`${box.url}/v2/transcript`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ audio_url: upload_url, speech_models: ['universal-2'] }),
  });
  const { id } = (await created.json()) as { id: string };
  await box.transcription!.idle();
  const t = await (await fetch(`${box.url}/v2/transcript/${id}`, { headers })).json();
  const log = await readFile(join(dir, 'runs'), 'utf8').catch(() => '');
  return { t, runs: log.split('\n').filter(Boolean) };
}

const lowRate = (hz: number) =>
  `Transcoding failed. The audio's sample rate of ${hz} Hz is below 8000 Hz, too low to contain speech.`;

it('a 2 KB WAV at 1 Hz (2,000 s declared) is refused before sox or the recogniser run', async () => {
  const { t, runs } = await transcribe(wav(1, 8, 2000));
  expect(t.status).toBe('error');
  expect(t.error).toBe(lowRate(1));
  expect(runs).toEqual([]);
});

it('the same WAV behind a 70 KB junk chunk is read to its fmt chunk and refused alike', async () => {
  const { t, runs } = await transcribe(wav(1, 8, 2000, 70 * 1024));
  expect(t.error).toBe(lowRate(1));
  expect(runs).toEqual([]);
});

it('a 2 KB Sun .au at 1 Hz is refused from its header (sox --i only)', async () => {
  const { t, runs } = await transcribe(au(1, 2000, 2000));
  expect(t.status).toBe('error');
  expect(t.error).toBe(lowRate(1));
  expect(runs).toEqual(['sox --i']);
});

it('an 8 kHz .au declaring 12,500 s in 2 KB is corrupt: refused before conversion', async () => {
  const { t, runs } = await transcribe(au(8000, 100_000_000, 2000));
  expect(t.status).toBe('error');
  expect(t.error).toBe(
    'Transcoding failed. The audio header declares 12500 seconds, more than a file of 2024 bytes can hold: the file appears to be corrupt.',
  );
  expect(t.error).not.toContain(tmpdir());
  expect(runs).toEqual(['sox --i']);
});

it('real 8 kHz audio in either format is still probed, converted and recognised', async () => {
  for (const audio of [au(8000, 8000, 8000), wav(8000, 16, 16_000, 70 * 1024)]) {
    await rm(join(dir, 'runs'), { force: true });
    const { t, runs } = await transcribe(audio);
    expect(t.status, t.error).toBe('completed');
    expect(t.text).toBe('Hello.');
    expect(runs.at(-1)).toBe('pocketsphinx');
    expect(runs).toContain('sox -q');
  }
});

it('audio whose header declares no duration (FLAC through a pipe) is converted only up to the limit, never recognised past it', async () => {
  const short = await startSandbox({
    store: false,
    transcription: {
      apiKeys: [KEY],
      rateLimit: false,
      maxAudioSeconds: 10,
      engine: { engine: 'pocketsphinx', path: `${join(dir, 'bin')}:/usr/bin:/bin` },
    },
  });
  try {
    // 30 s of tone, written to a pipe so the FLAC header cannot be given its length afterwards.
    const flac = join(dir, 'unknown-length.flac');
    const { execFile } = await import('node:child_process');
    await new Promise<void>((resolve, reject) =>
      execFile(
        'sh',
        [
          '-c',
          `sox -n -t raw -r 16000 -c 1 -b 16 -e signed - synth 30 sine 440 | sox -t raw -r 16000 -c 1 -b 16 -e signed - -t flac - | cat > ${flac}`,
        ],
        (error) => (error ? reject(error) : resolve()),
      ),
    );
    const up = await fetch(`${short.url}/v2/upload`, {
      method: 'POST',
      headers,
      body: new Uint8Array(await readFile(flac)),
    });
    const { upload_url } = (await up.json()) as { upload_url: string };
    const created = await fetch(`${short.url}/v2/transcript`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ audio_url: upload_url, speech_models: ['universal-2'] }),
    });
    const { id } = (await created.json()) as { id: string };
    await short.transcription!.idle();
    const t = (await (await fetch(`${short.url}/v2/transcript/${id}`, { headers })).json()) as any;
    const runs = (await readFile(join(dir, 'runs'), 'utf8')).split('\n').filter(Boolean);
    expect(t.status).toBe('error');
    expect(t.error).toBe(
      'Transcoding failed. The audio is longer than 10 seconds, the most this file may hold (its header does not declare a duration).',
    );
    expect(runs).toEqual(['sox --i', 'sox -q']);
  } finally {
    await short.close();
  }
});
