/**
 * What goes into the calls' database, fuzzed with fast-check: any string the app may hold (U+0000, lone
 * surrogates, astral characters, JSON and SQL look-alikes) as a call's name, error, transcript id,
 * analysis or live transcript comes back exactly as written (a name cut to 200 characters), a document
 * over its bound is a typed 507 instead of a write, and the newest `keep` calls stay, newest first. Then
 * over HTTP: any upload name the route takes is listed and read back as the route kept it, and the desk
 * still serves. PGlite here; persist.test.ts runs the same registry on PostgreSQL.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { type CallRecord, CallRegistry } from '../../src/server/calls/registry.js';
import { type Database, openDatabase } from '../../src/server/calls/storage/database.js';
import { StorageError } from '../../src/server/calls/storage/errors.js';
import type { CallAnalysis, CallView } from '../../src/shared/api.js';
import { deskApi } from '../helpers/calls.js';
import { type Desk, freshDataDir, removeDataDir, startDesk } from '../helpers/desk.js';

const KEEP = 7;
let dir: string;
let db: Database;
let registry: CallRegistry;
beforeAll(async () => {
  dir = await freshDataDir();
  db = await openDatabase({ dataDir: dir });
  registry = new CallRegistry(db, KEEP);
});
afterAll(async () => {
  await db?.close();
  if (dir) await removeDataDir(dir);
});

/** Strings of any UTF-16 code units, and the ones most likely to trip SQL, JSON or PostgreSQL's text. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 300 }),
  fc.constantFrom(
    '\0',
    'a\0b',
    '\uD800',
    '\uDFFF',
    '😀',
    "'; DROP TABLE desk_calls; --",
    '\\u0000',
    '{"a":',
    '',
  ),
);
const status = fc.constantFrom<CallView['status']>(
  'receiving',
  'uploading',
  'transcribing',
  'live',
  'done',
  'error',
);
const analysis = fc.record({
  transcriptId: text,
  text,
  sentences: fc.array(fc.record({ text, start: fc.nat(), end: fc.nat() }), { maxLength: 5 }),
  extra: fc.jsonValue({ maxDepth: 3 }),
}) as unknown as fc.Arbitrary<CallAnalysis>;
const change = fc.record(
  {
    status,
    progress: fc.double({ min: 0, max: 1, noNaN: true }),
    transcriptId: fc.option(text),
    error: fc.option(text),
    summary: fc.option(text),
    analysis: fc.option(analysis),
  },
  { requiredKeys: [] },
);

/** What the record is once through JSON (the database stores JSON text): -0 is 0, and so on. */
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('the calls’ database, fuzzed', () => {
  for (const run of fuzzRuns(60)) {
    it(`stores any name, error, transcript id and analysis exactly (${run.label})`, async () => {
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(
          text,
          fc.constantFrom<CallView['source']>('upload', 'sample', 'live'),
          fc.array(change, { maxLength: 4 }),
          async (name, source, changes) => {
            inputs++;
            const call: CallRecord = await registry.create(name, source);
            expect(call.name).toBe([...name].slice(0, 200).join(''));
            for (const c of changes) await registry.update(call, c);
            expect(await registry.get(call.id)).toEqual(json(call));
            if (call.transcriptId !== null)
              expect((await registry.byTranscript(call.transcriptId))?.id).toBe(call.id);
            const listed = await registry.list();
            expect(listed[0]).toEqual(json({ ...call, analysis: undefined, live: undefined }));
            expect(listed.length).toBeLessThanOrEqual(KEEP);
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      reportFuzz('desk storage: call fields', run, inputs);
    });
  }

  it('refuses a document over its bound with a typed 507, and keeps the call as it was', async () => {
    const call = await registry.create('big', 'upload');
    const before = await registry.get(call.id);
    const huge = { text: 'x'.repeat(4 * 1024 * 1024) } as unknown as CallAnalysis;
    const error = await registry.update(call, { analysis: huge, status: 'done' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect(error).toMatchObject({ status: 507, code: 'too_large_to_store' });
    expect(await registry.get(call.id)).toEqual(before);
  });

  it('keeps the newest calls, newest first, and forgets older finished ones', async () => {
    const made: string[] = [];
    for (let i = 0; i < KEEP + 3; i++) {
      const call = await registry.create(`call ${i}`, 'upload');
      await registry.update(call, { status: 'done' });
      made.push(call.id);
    }
    expect((await registry.list()).map((c) => c.id)).toEqual(made.slice(-KEEP).reverse());
    expect(await registry.get(made[0]!)).toBeUndefined();
    expect(await registry.get('not-a-uuid')).toBeUndefined();
  });

  it('never deletes a call that is still running, however many newer calls come; it goes once finished', async () => {
    const running = await registry.create('still transcribing', 'upload');
    await registry.update(running, { status: 'transcribing' });
    for (let i = 0; i < KEEP + 2; i++)
      await registry.update(await registry.create(`newer ${i}`, 'upload'), { status: 'done' });
    expect((await registry.get(running.id))?.status).toBe('transcribing');
    await registry.update(running, { status: 'done' });
    await registry.create('one more', 'upload');
    expect(await registry.get(running.id)).toBeUndefined();
  });
});

describe('upload names over HTTP, fuzzed', () => {
  let desk: Desk;
  beforeAll(async () => {
    desk = await startDesk({ staticDir: undefined });
  });
  afterAll(() => desk?.close());

  for (const run of fuzzRuns(25)) {
    it(`stores what the route takes, as it took it (${run.label})`, async () => {
      const api = deskApi(() => desk.server.url);
      let inputs = 0;
      await fc.assert(
        fc.asyncProperty(
          text.filter((s) => !/\p{Surrogate}/u.test(s)),
          async (name) => {
            inputs++;
            const res = await fetch(`${desk.server.url}/api/calls?name=${encodeURIComponent(name)}`, {
              method: 'POST',
              headers: { 'Content-Type': 'application/octet-stream' },
              body: 'not really audio',
            });
            const body = (await res.json()) as { call?: CallView; error?: { code: string } };
            if (res.status !== 202) {
              expect(res.status).toBe(400);
              expect(body.error?.code).toBe('invalid_input');
              return;
            }
            expect(body.call!.name).toBe(name.trim());
            const { status, body: stored } = await api.get(body.call!.id);
            expect(status).toBe(200);
            expect(stored.name).toBe(name.trim());
          },
        ),
        { seed: run.seed, numRuns: run.numRuns },
      );
      expect((await api.json('/api/calls')).status).toBe(200);
      reportFuzz('desk storage: upload names over HTTP', run, inputs);
    });
  }
});
