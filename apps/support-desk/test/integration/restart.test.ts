/**
 * `kill -9` of the app server right after it acknowledged calls loses none of them, on both backends: the
 * app runs in a child process (test/helpers/desk-process.ts), is killed the moment every upload's 202 and
 * a live call's 201 are in, and a new app on the same storage shows every call, each driven to an end:
 * resumed to `done` when its transcript was submitted, else `error` saying what was lost.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { CallView } from '../../src/shared/api.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, freshDataDir, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

const CHILD = fileURLToPath(new URL('../helpers/desk-process.ts', import.meta.url));
const APP = fileURLToPath(new URL('../..', import.meta.url));

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.close());

/** Half a second of 16 kHz mono silence as WAV: audio the transcription service accepts. */
function silence(): Uint8Array<ArrayBuffer> {
  const samples = 8000;
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write('RIFF', 0);
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write('WAVEfmt ', 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(16_000, 24);
  wav.writeUInt32LE(32_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36);
  wav.writeUInt32LE(samples * 2, 40);
  return new Uint8Array(wav);
}

async function startChild(
  desk: Desk,
  tmp: string,
): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const { logger: _logger, ...config } = desk.config;
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
    cwd: APP,
    // Its uploads' temporary files, which a killed process cannot delete, go where the test deletes them.
    env: { ...process.env, DESK_CONFIG: JSON.stringify(config), TMPDIR: tmp },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  let stdout = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      stdout += chunk;
      const ready = /READY (\S+)/.exec(stdout);
      if (ready) resolve(ready[1]!);
    });
    child.once('exit', (code) =>
      reject(new Error(`the app exited (${code}) before it listened:\n${stderr}`)),
    );
  });
  return { child, url, stderr: () => stderr };
}

describe.each(['PGlite', 'PostgreSQL'] as const)('kill -9 on %s', (backend) => {
  let desk: Desk;
  beforeAll(async () => {
    const storage =
      backend === 'PGlite'
        ? { dataDir: await freshDataDir() }
        : { databaseUrl: await postgres.createDatabase() };
    desk = await startDesk({ staticDir: undefined, storage });
    // The app under test is the child's; this one only makes the sandbox and the configuration.
    await desk.server.close();
  });
  afterAll(() => desk?.close());

  it('loses no call the app acknowledged, and ends each one after the restart', async () => {
    const tmp = await mkdtemp(join(tmpdir(), 'support-desk-killed-'));
    onTestFinished(() => rm(tmp, { recursive: true, force: true }));
    const app = await startChild(desk, tmp);
    const childApi = deskApi(() => app.url);
    const uploads = await Promise.all(
      ['first', 'second', 'third', 'fourth'].map((name) => childApi.upload(`${backend} ${name}`, silence())),
    );
    const live = await childApi.json<{ call: CallView }>('/api/live-calls', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: `${backend} live` }),
    });
    expect(live.status).toBe(201);
    app.child.kill('SIGKILL');
    await once(app.child, 'exit');

    await desk.restart();
    const api = deskApi(() => desk.server.url);
    const acknowledged = [...uploads, live.body.call];
    const listed = await api.list();
    expect(listed.map((c) => c.id).sort()).toEqual(acknowledged.map((c) => c.id).sort());
    for (const call of acknowledged) {
      const after = await api.finished(call.id);
      expect(after.name).toBe(call.name);
      expect(after.createdAt).toBe(call.createdAt);
      if (after.status === 'error') expect(after.error).toMatch(/^the desk stopped|transcription failed/);
    }
    expect((await api.get(live.body.call.id)).body.error).toContain('during the live call');
    const logs = desk.logs.join('\n');
    expect(logs).toMatch(/unfinished calls: \d+ resumed, [1-9]\d* marked failed/);
    expect(`${logs}\n${app.stderr()}`).not.toContain(postgres.password);
  });
});
