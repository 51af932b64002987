/**
 * What a hostile user or a bad moment does to the desk, over real sockets on a throwaway PostgreSQL: live
 * calls started all at once, and the database going down in the middle of a request. Each must leave the
 * desk's bounds and its calls as they should be, and no file behind.
 */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRegistry } from '../../src/server/calls/registry.js';
import { openDatabase } from '../../src/server/calls/storage/database.js';
import { startServer } from '../../src/server/index.js';
import type { LiveCallStart } from '../../src/shared/api.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, freshDataDir, removeDataDir, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

let postgres: Postgres;
let desk: Desk;
const api = deskApi(() => desk.server.url);
beforeAll(async () => {
  postgres = await startPostgres();
  desk = await startDesk({ staticDir: undefined, storage: { databaseUrl: postgres.url } });
});
afterAll(async () => {
  await desk?.close();
  await postgres?.close();
});

const post = (path: string, body: unknown, key?: string) =>
  fetch(`${desk.server.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Live-Call-Key': key } : {}) },
    body: JSON.stringify(body),
  });

/** Runs `fn` with the database stopped, and starts it again whatever happens. */
async function whileDown<T>(fn: () => Promise<T>): Promise<T> {
  await postgres.stop('immediate');
  try {
    return await fn();
  } finally {
    await postgres.start();
  }
}

describe('a hostile moment', () => {
  it('opens no more live calls than the limit when the starts come all at once', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => post('/api/live-calls', {})));
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 201, 201, 429, 429, 429]);
    for (const res of answers) {
      if (res.status !== 201) {
        expect((await res.json()).error.code).toBe('too_many_live_calls');
        continue;
      }
      const started = (await res.json()) as LiveCallStart;
      expect((await post(`/api/live-calls/${started.call.id}/end`, {}, started.key)).status).toBe(202);
    }
  });

  it('deletes the recording when the database refuses its call', async () => {
    const temp = await mkdtemp(join(tmpdir(), 'support-desk-hostile-'));
    const previous = process.env.TMPDIR;
    // The desk runs in this process: its uploads and samples go to the test's own temp directory.
    process.env.TMPDIR = temp;
    try {
      const [upload, sample] = await whileDown(() =>
        Promise.all([
          fetch(`${desk.server.url}/api/calls?name=refused`, {
            method: 'POST',
            headers: { 'Content-Type': 'audio/wav' },
            body: new Uint8Array(4096),
          }),
          post('/api/calls/sample', { mood: 'happy' }),
        ]),
      );
      expect([upload.status, sample.status]).toEqual([503, 503]);
      expect((await upload.json()).error.code).toBe('storage_unavailable');
      expect(await readdir(temp)).toEqual([]);
    } finally {
      if (previous === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = previous;
      await rm(temp, { recursive: true, force: true });
    }
  });

  it('ends and analyses a live call whose first ending the database refused', async () => {
    const res = await post('/api/live-calls', {});
    expect(res.status).toBe(201);
    const started = (await res.json()) as LiveCallStart;
    const turns = [
      {
        turn_order: 0,
        end_of_turn: true,
        turn_is_formatted: true,
        text: 'My order number 85 arrived broken.',
      },
    ];
    expect((await post(`/api/live-calls/${started.call.id}/turns`, { turns }, started.key)).status).toBe(200);
    const refused = await whileDown(() => post(`/api/live-calls/${started.call.id}/end`, {}, started.key));
    expect(refused.status).toBe(503);
    // The tab retries once the database is back: the call ends, with its turn, and is analysed once.
    const again = await post(`/api/live-calls/${started.call.id}/end`, {}, started.key);
    expect(again.status).toBe(202);
    const call = await api.finished(started.call.id);
    expect(call).toMatchObject({ status: 'done', completedBy: 'live' });
    expect(call.live?.finals.map((t) => t.text)).toEqual(['My order number 85 arrived broken.']);
    expect(call.analysis?.orderNumbers).toEqual(['85']);
  });

  it('finishes a call whose transcript fetch after the webhook failed, by polling', async () => {
    // Every attempt of the webhook's one fetch (the SDK retries a 500 twice) fails; the job itself is fine.
    desk.sandbox.transcription!.injectFault({
      method: 'GET',
      path: /^\/v2\/transcript\/[^/]+$/,
      status: 500,
      times: 3,
    });
    const call = await api.sample('unhappy');
    const done = await api.finished(call.id);
    expect(done).toMatchObject({ status: 'done', completedBy: 'polling', error: null });
    expect(done.analysis?.notes).toHaveLength(1);
  });

  it('tells a tab that reaches the wrong instance that another one holds its live call', async () => {
    const other = await startServer({ ...desk.config, port: 0 });
    try {
      const res = await post('/api/live-calls', {});
      expect(res.status).toBe(201);
      const started = (await res.json()) as LiveCallStart;
      const at = (url: string, path: string, body: unknown) =>
        fetch(`${url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Live-Call-Key': started.key },
          body: JSON.stringify(body),
        });
      const turns = [{ turn_order: 0, end_of_turn: true, turn_is_formatted: true, text: 'Hello there.' }];
      for (const [path, body] of [
        ['turns', { turns }],
        ['end', {}],
      ] as const) {
        const elsewhere = await at(other.url, `/api/live-calls/${started.call.id}/${path}`, body);
        expect(elsewhere.status).toBe(409);
        expect((await elsewhere.json()).error.code).toBe('live_elsewhere');
      }
      // The instance holding it still has it open.
      expect((await at(desk.server.url, `/api/live-calls/${started.call.id}/turns`, { turns })).status).toBe(
        200,
      );
      expect((await at(desk.server.url, `/api/live-calls/${started.call.id}/end`, {})).status).toBe(202);
    } finally {
      await other.close();
    }
  });

  it("takes over a PGlite lock a killed desk left under a pid that is alive again (a container's restart)", async () => {
    const dataDir = await freshDataDir();
    const lockFile = join(dataDir, 'desk.lock');
    const stat = await readFile(`/proc/${process.ppid}/stat`, 'utf8');
    const parentStarted = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    try {
      // This process's pid (as a lock of the previous format), as a desk that was PID 1 before the restart
      // and is PID 1 again; or a live process whose start time is not the holder's: a reused pid.
      for (const left of [String(process.pid), `${process.pid} 1`, `${process.ppid} 1`]) {
        await writeFile(lockFile, left);
        await (await startServer({ ...desk.config, storage: { dataDir } })).close();
      }
      // A live holder (the parent, as it started) is still refused.
      await writeFile(lockFile, `${process.ppid} ${parentStarted}`);
      await expect(startServer({ ...desk.config, storage: { dataDir } })).rejects.toThrow(
        `is in use by process ${process.ppid}`,
      );
    } finally {
      await rm(lockFile, { force: true });
      await removeDataDir(dataDir);
    }
  });

  it('quotes a call name in the logs, so a newline in it forges no log line', async () => {
    const name = 'evil\n[desk] storage: all calls deleted \u001b[2J';
    const res = await fetch(`${desk.server.url}/api/calls?name=${encodeURIComponent(name)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'audio/wav' },
      body: new Uint8Array(4096),
    });
    expect(res.status).toBe(202);
    const { call } = (await res.json()) as { call: { id: string; name: string } };
    expect(call.name).toBe(name);
    // Four KiB of zeros is no audio the service can transcribe: the call fails, and says so in the logs.
    expect((await api.finished(call.id)).status).toBe('error');
    const mine = desk.logs.filter((line) => line.includes('evil'));
    expect(mine.length).toBeGreaterThan(0);
    for (const line of mine) {
      expect(line).toContain(JSON.stringify(name));
      expect(line).not.toContain('\n');
      expect(line).not.toContain('\u001b');
    }
  });

  it('ends an abandoned live call once the database is back, though its expiry came while it was down', async () => {
    // Another instance on the same database, whose live calls expire after a second.
    const other = await startServer({ ...desk.config, port: 0, liveCalls: { abandonAfterMs: 1000 } });
    const name = 'abandoned while the database is down';
    try {
      const at = (path: string, body: unknown, key?: string) =>
        fetch(`${other.url}${path}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', ...(key ? { 'X-Live-Call-Key': key } : {}) },
          body: JSON.stringify(body),
        });
      const started = (await (await at('/api/live-calls', { name })).json()) as LiveCallStart;
      const turns = [
        { turn_order: 0, end_of_turn: true, turn_is_formatted: true, text: 'My parcel never came.' },
      ];
      expect((await at(`/api/live-calls/${started.call.id}/turns`, { turns }, started.key)).status).toBe(200);
      // The tab is gone: nobody ends the call. Its expiry comes while the database is down, and fails.
      await whileDown(() =>
        expect
          .poll(() => desk.logs.some((l) => l.includes(JSON.stringify(name)) && l.includes('not ended')), {
            timeout: 20_000,
          })
          .toBe(true),
      );
      const call = await deskApi(() => other.url).finished(started.call.id);
      expect(call).toMatchObject({ status: 'done', completedBy: 'live' });
      expect(call.live?.finals.map((t) => t.text)).toEqual(['My parcel never came.']);
    } finally {
      await other.close();
    }
  });

  it('never fails a call another instance finished, from a stale copy', async () => {
    const [a, b] = await Promise.all([
      openDatabase({ databaseUrl: postgres.url }),
      openDatabase({ databaseUrl: postgres.url }),
    ]);
    try {
      const [mine, theirs] = [new CallRegistry(a), new CallRegistry(b)];
      const call = await mine.create('analysed elsewhere', 'upload', 'transcribing');
      const stale = (await theirs.get(call.id))!;
      // Instance A analyses it; instance B's poll gives up meanwhile, holding the copy it read before.
      expect(await mine.claim(call, { status: 'analysing', completedBy: 'webhook' })).toBe(true);
      await mine.update(call, { status: 'done', summary: 'analysed' });
      expect(await theirs.fail(stale, 'the poll gave up')).toBe(false);
      expect(stale).toMatchObject({ status: 'done', error: null, summary: 'analysed' });
      expect(await mine.get(call.id)).toMatchObject({ status: 'done', error: null, summary: 'analysed' });
      // A failure during the analysis itself (the store refused the note) is written.
      const other = await mine.create('fails in analysis', 'upload', 'transcribing');
      expect(await mine.claim(other, { status: 'analysing', completedBy: 'webhook' })).toBe(true);
      expect(await mine.fail(other, 'the store refused the note')).toBe(true);
      expect(await theirs.get(other.id)).toMatchObject({
        status: 'error',
        error: 'the store refused the note',
      });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
