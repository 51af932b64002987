/**
 * The desk's calls outlive its process, on both backends: the embedded PGlite directory and a PostgreSQL
 * server (a throwaway one, started here). Real app servers over HTTP, the sandbox's services behind them.
 */
import { TranscriptionClient } from '@x/transcription';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CallRegistry } from '../../src/server/calls/registry.js';
import { openDatabase } from '../../src/server/calls/storage/database.js';
import { type RunningServer, type StorageConfig, startServer } from '../../src/server/index.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, freshDataDir, startDesk } from '../helpers/desk.js';
import { type Postgres, startPostgres } from '../helpers/postgres.js';

let postgres: Postgres;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.close());

const backends = {
  PGlite: async (): Promise<StorageConfig> => ({ dataDir: await freshDataDir() }),
  PostgreSQL: async (): Promise<StorageConfig> => ({ databaseUrl: await postgres.createDatabase() }),
};

describe.each(Object.keys(backends) as (keyof typeof backends)[])('calls on %s', (backend) => {
  let desk: Desk;
  const api = deskApi(() => desk.server.url);
  beforeAll(async () => {
    // No webhook reaches the desk (nothing listens on port 9) and polling waits an hour: a submitted call
    // stays `transcribing` until the test restarts the desk, so restarts meet calls mid-flight.
    const storage = await backends[backend]();
    desk = await startDesk((base) => ({
      staticDir: undefined,
      storage,
      publicUrl: 'http://127.0.0.1:9',
      transcription: { ...base.transcription, pollFallbackMs: 3_600_000 },
    }));
  });
  afterAll(() => desk?.close());

  it('shows the same calls, analysis included, after a restart, and resumes one mid-transcription', async () => {
    const unhappy = await api.sample('unhappy');
    const happy = await api.sample('happy');
    // Both submitted: their transcripts finish at the service, which cannot tell the desk.
    for (const call of [unhappy, happy]) {
      for (;;) {
        const { body } = await api.get(call.id);
        expect(body.status).not.toBe('error');
        if (body.status === 'transcribing') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await desk.restart();
    expect(desk.logs.join('\n')).toContain('unfinished calls: 2 resumed, 0 marked failed');
    const [doneUnhappy, doneHappy] = [await api.finished(unhappy.id), await api.finished(happy.id)];
    expect(doneUnhappy).toMatchObject({ status: 'done', overall: 'NEGATIVE' });
    expect(doneHappy).toMatchObject({ status: 'done', error: null });
    expect(doneUnhappy.analysis?.sentences.length).toBeGreaterThan(0);
    const listed = await api.list();
    expect(listed.map((c) => c.id)).toEqual([happy.id, unhappy.id]);

    await desk.restart();
    expect(await api.list()).toEqual(listed);
    expect((await api.get(unhappy.id)).body).toEqual(doneUnhappy);
    expect((await api.get(happy.id)).body).toEqual(doneHappy);
    expect(desk.logs.join('\n')).not.toMatch(/[1-9]\d* marked failed/);
  });

  it('marks failed, saying what was lost, the calls a dead desk left where they cannot resume', async () => {
    await desk.server.close();
    // What a desk killed mid-upload and mid-live-call leaves behind (written by a process now gone).
    const db = await openDatabase(desk.config.storage);
    const registry = new CallRegistry(db);
    const uploading = await registry.create('cut off upload', 'upload', 'uploading');
    const live = await registry.create('cut off live call', 'live', 'live');
    await db.close();
    await desk.restart();
    const [a, b] = [(await api.get(uploading.id)).body, (await api.get(live.id)).body];
    expect(a).toMatchObject({ status: 'error', error: expect.stringContaining('upload it again') });
    expect(b).toMatchObject({ status: 'error', error: expect.stringContaining('during the live call') });
    expect((await api.list()).slice(0, 2).map((c) => c.id)).toEqual([live.id, uploading.id]);
  });

  it('never writes the database password to the logs', () => {
    expect(desk.logs.join('\n')).not.toContain(postgres.password);
    expect(desk.server.storage).not.toContain(postgres.password);
  });
});

describe('two desk instances on one PostgreSQL', () => {
  let desk: Desk;
  let second: RunningServer | undefined;
  const logs: string[] = [];
  const a = deskApi(() => desk.server.url);
  const b = deskApi(() => second!.url);
  beforeAll(async () => {
    desk = await startDesk({
      staticDir: undefined,
      storage: { databaseUrl: await postgres.createDatabase() },
    });
  });
  afterAll(async () => {
    await second?.close();
    await desk?.close();
  });

  it('see each other’s calls as they are created and as they finish', async () => {
    const first = await a.sample('unhappy');
    // The second starts while the first's call is in flight: it must leave a live instance's call alone.
    const record = (...args: unknown[]) => logs.push(args.map(String).join(' '));
    second = await startServer({
      ...desk.config,
      logger: { info: record, warn: record, error: record },
      store: { ...desk.config.store, registerWebhooks: false },
    });
    expect((await b.list()).map((c) => c.id)).toEqual([first.id]);
    const other = await b.sample('happy');
    expect((await a.list()).map((c) => c.id)).toEqual([other.id, first.id]);
    const done = await b.finished(first.id);
    expect(done.status).toBe('done');
    expect((await a.get(first.id)).body).toEqual(done);
    expect((await a.finished(other.id)).status).toBe('done');
    // Each instance left the other's running calls alone when it started.
    expect([...logs, ...desk.logs].join('\n')).not.toMatch(/marked failed|resuming/);
    expect([...logs, ...desk.logs].join('\n')).not.toContain(postgres.password);
  });

  it('analyse a call once when both are told its transcript is ready', async () => {
    // Two more instances that learn of a transcript only from the notifications this test sends (no
    // webhook reaches them, no polling for an hour), so both analyse the same finished job at once.
    const storage = { databaseUrl: await postgres.createDatabase() };
    const quiet = { info: () => {}, warn: () => {}, error: () => {} };
    const configured = {
      ...desk.config,
      storage,
      logger: quiet,
      publicUrl: 'http://127.0.0.1:9',
      store: { ...desk.config.store, registerWebhooks: false },
      transcription: { ...desk.config.transcription, pollFallbackMs: 3_600_000 },
    };
    const [c, d] = [await startServer(configured), await startServer(configured)];
    try {
      const call = await deskApi(() => c.url).sample('unhappy', 88);
      let transcriptId: string | null = null;
      while (transcriptId === null) {
        transcriptId = (await deskApi(() => d.url).get(call.id)).body.transcriptId;
        if (transcriptId === null) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const service = new TranscriptionClient({
        apiKey: desk.config.transcription.apiKey,
        baseUrl: desk.config.transcription.baseUrl!,
      });
      await service.transcripts.waitUntilDone(transcriptId, { pollInterval: 50 });
      // The service's notification, delivered to both instances (as behind a load balancer), three times.
      const notify = (url: string) =>
        fetch(`${url}/api/webhooks/transcription`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Support-Desk-Webhook': desk.config.transcription.webhookSecret,
          },
          body: JSON.stringify({ transcript_id: transcriptId, status: 'completed' }),
        });
      const answers = await Promise.all([1, 2, 3].flatMap(() => [notify(c.url), notify(d.url)]));
      expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const done = await deskApi(() => d.url).finished(call.id);
      expect(done.status).toBe('done');
      expect((await deskApi(() => c.url).get(call.id)).body).toEqual(done);
      // One note for this transcript, on whichever order the recognised words named.
      expect(done.analysis?.orders.length).toBeGreaterThan(0);
      let notes = 0;
      for (const order of done.analysis!.orders) {
        const { data } = await desk.store.orders.notes.list(order.id);
        notes += data.filter((n) =>
          n.note.startsWith(`Support call analysed (transcript ${transcriptId})`),
        ).length;
      }
      expect(notes).toBe(1);
    } finally {
      await c.close();
      await d.close();
    }
  });
});
