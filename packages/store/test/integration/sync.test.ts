import { fork } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SyncCheckpoint, ValidationError } from '../../src/index.js';
import { checkpointLimits } from '../../src/sync/checkpoint.js';
import { fallBack, shopClient, start, toArray, wooProducts } from '../fixtures/sync-shop.js';
import { clientFor, type Sandbox, sandbox } from '../helpers/sandbox.js';

/**
 * The invariant, per resource. Let E be what a sync yields, in order, as (id, date_modified_gmt) pairs, then
 * what a catch-up sync from its last checkpoint yields once the writers stopped. Then:
 * 1. each id's versions in E strictly increase (no version is yielded twice; a record comes again only
 *    when its date_modified changed);
 * 2. every record in the store at the end is in E, and its last version in E is its version in the store;
 * 3. orders and products: E has no id the store lacks (nothing was deleted); customers: the first scan
 *    yields each customer that lived through it exactly once.
 * A change within the second of the record's last yield is invisible to it (WooCommerce's dates have
 * one-second resolution), so writers start once the seeded records' second has passed.
 */
type Version = { id: number; v: string | null };
const version = (r: { id: number; date_modified_gmt: string | null }): Version => ({
  id: r.id,
  v: r.date_modified_gmt,
});

function expectExactlyOncePerVersion(exported: Version[], store: Version[], extraIdsAllowed = false) {
  const byId = new Map<number, string[]>();
  for (const { id, v } of exported) {
    const versions = byId.get(id) ?? [];
    if (versions.length > 0) expect(v! > versions.at(-1)!, `order of versions of ${id}`).toBe(true);
    versions.push(v!);
    byId.set(id, versions);
  }
  for (const { id, v } of store) expect(byId.get(id)?.at(-1), `last version of ${id}`).toBe(v);
  if (!extraIdsAllowed) expect(byId.size).toBe(store.length);
}

/** Waits for the wall clock (the sandbox's too) to enter the next second: setup, not an assertion. */
const nextSecond = () => new Promise((r) => setTimeout(r, 1005 - (Date.now() % 1000)));

let box: Sandbox;
beforeAll(async () => {
  box = await sandbox();
});
afterAll(() => box.close());

describe('orders.sync', () => {
  it('yields every order once per version while another client creates and updates orders', async () => {
    const store = clientFor(box);
    const writer = clientFor(box);
    const seeded = (await store.orders.batch({ create: Array.from({ length: 120 }, () => ({})) })).create;
    const initial = seeded.map((o) => (o as { id: number }).id);
    await nextSecond();

    const run = store.orders.sync({ per_page: 9 });
    const first: Version[] = [];
    const touched = new Set<number>();
    let pages = 0;
    for await (const page of run.pages()) {
      first.push(...page.items.map(version));
      // Between pages: one order already exported, one probably not yet, and a new one.
      const done = first[(pages * 5) % first.length]!.id;
      const ahead = initial[initial.length - 1 - pages]!;
      await writer.orders.update(done, { customer_note: `page ${pages}` });
      await writer.orders.update(ahead, { customer_note: `page ${pages}` });
      const created = await writer.orders.create({});
      for (const id of [done, ahead, created.id]) touched.add(id);
      pages++;
    }
    expect(pages).toBeGreaterThan(120 / 9);
    // Orders nobody touched came exactly once; an updated one already exported came again.
    const counts = new Map<number, number>();
    for (const { id } of first) counts.set(id, (counts.get(id) ?? 0) + 1);
    for (const id of initial) if (!touched.has(id)) expect(counts.get(id), `order ${id}`).toBe(1);
    expect([...counts.values()].some((n) => n > 1)).toBe(true);

    const rest = await toArray(store.orders.sync({ checkpoint: run.checkpoint! }));
    const now = (await store.orders.list({ per_page: 100 }).toArray()).map(version);
    expectExactlyOncePerVersion([...first, ...rest.map(version)], now);
  });

  it('resumes from a checkpoint taken mid-page and yields exactly the rest', async () => {
    const store = clientFor(box);
    const all = (await toArray(store.orders.sync({ per_page: 7 }))).map((o) => o.id);
    expect(all.length).toBeGreaterThan(100);

    const run = store.orders.sync({ checkpoint: start('orders'), per_page: 7 });
    const head: number[] = [];
    for await (const order of run) {
      head.push(order.id);
      if (head.length === 40) break;
    }
    // Plain JSON: it goes through a file or a database and comes back the same.
    const saved = JSON.parse(JSON.stringify(run.checkpoint)) as SyncCheckpoint;
    const tail = (await toArray(store.orders.sync({ checkpoint: saved, per_page: 11 }))).map((o) => o.id);
    expect([...head, ...tail]).toEqual(all);
    // A run is walked once; its checkpoint starts the next one.
    await expect(toArray(run)).rejects.toThrow(ValidationError);
  });

  it('continues from the checkpoint it kept: nothing when nothing changed, then only what changed', async () => {
    const store = clientFor(box);
    await toArray(store.orders.sync());
    expect(await toArray(store.orders.sync())).toEqual([]);
    await nextSecond();
    const changed = await store.orders.update((await store.orders.list({ per_page: 1 })).data[0]!.id, {
      customer_note: 'changed',
    });
    expect((await toArray(store.orders.sync())).map(version)).toEqual([version(changed)]);
  });

  it('an edit in the same second as the version already read comes with the next sync', async () => {
    const store = clientFor(box);
    const key = 'same-second';
    await toArray(store.orders.sync({ key }));
    await nextSecond();
    const created = await store.orders.create({ customer_note: 'first' });
    const read = await toArray(store.orders.sync({ key }));
    await store.orders.update(created.id, { customer_note: 'second' });
    const after = await toArray(store.orders.sync({ key }));
    const versions = [...read, ...after].filter((o) => o.id === created.id);
    expect(versions.at(-1)?.customer_note).toBe('second');
  });

  it('rejects bad options before sending anything, naming the field', async () => {
    const store = clientFor(box);
    box.store.resetStats();
    const cases: Array<[unknown, RegExp]> = [
      [{ per_page: 101 }, /per_page/],
      [{ modified_after: 'yesterday' }, /modified_after/],
      [{ checkpoint: { v: 1, resource: 'products', modified_gmt: null, ids: [] } }, /checkpoint\.resource/],
      [
        { checkpoint: { v: 1, resource: 'orders', modified_gmt: '2026-13-01T00:00:00', ids: [] } },
        /modified_gmt/,
      ],
      [{ checkpoint: start('orders'), modified_after: '2026-01-01T00:00:00Z' }, /modified_after/],
      [{ modifiedAfter: '2026-01-01T00:00:00Z' }, /modifiedAfter/],
      [{ checkpointStore: {} }, /checkpointStore/],
    ];
    for (const [options, field] of cases) {
      let error: unknown;
      try {
        store.orders.sync(options as never);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as Error).message).toMatch(field);
    }
    const garbage = { get: () => ({ v: 2 }), set: () => {} };
    await expect(toArray(store.orders.sync({ checkpointStore: garbage as never }))).rejects.toThrow(
      ValidationError,
    );
    expect(box.store.stats().requests).toBe(0);
  });
});

describe('products.sync', () => {
  it('from modified_after (strict, to the second) and through a checkpoint store, page by page', async () => {
    const store = clientFor(box);
    const before = await store.products.create({ name: 'before', regular_price: '1.00' });
    await nextSecond();
    const created = (
      await store.products.batch({
        create: Array.from({ length: 23 }, (_, i) => ({ name: `p${i}`, regular_price: '1.00' })),
      })
    ).create.map((p) => (p as { id: number }).id);
    const saved = new Map<string, SyncCheckpoint>();
    const checkpointStore = {
      get: (key: string) => saved.get(key),
      set: (k: string, c: SyncCheckpoint) => void saved.set(k, c),
    };
    const seen: number[] = [];
    const run = store.products.sync({
      modified_after: before.date_modified_gmt!,
      per_page: 5,
      checkpointStore,
      key: 'shop',
    });
    for await (const page of run.pages()) seen.push(...page.items.map((p) => p.id));
    expect(seen.sort((a, b) => a - b)).toEqual(created.sort((a, b) => a - b));
    expect(saved.get('shop')).toEqual(run.checkpoint);
    // From the store: nothing new.
    expect(await toArray(store.products.sync({ checkpointStore, key: 'shop' }))).toEqual([]);
  });

  it("reads every product once across the store's clock falling back (local sort, GMT filter), resumed at any record", async () => {
    // Europe/Berlin on 2026-10-25: 03:00 CEST (+2) became 02:00 CET (+1) at 01:00 GMT; local 02:00-03:00 twice.
    const template = await clientFor(box).products.create({ name: 'template', regular_price: '1.00' });
    const rows = fallBack(template);
    // Also without `Date` (a browser hides it cross-origin): the sync cannot tell the store's second.
    for (const sendDate of [true, false]) {
      const shop = await wooProducts(rows, sendDate);
      try {
        const client = shopClient(shop.url);
        const ids = rows.map((r) => r.id);
        for (const per_page of [1, 2, 3, 4, 5, 100]) {
          const all = (await toArray(client.products.sync({ checkpoint: start('products'), per_page }))).map(
            (p) => p.id,
          );
          expect(
            all.sort((a, b) => a - b),
            `per_page ${per_page}, Date ${sendDate}`,
          ).toEqual(ids);
          // Stopped after every second record and resumed from the checkpoint as JSON.
          let checkpoint = start('products');
          const resumed: number[] = [];
          for (let taken = 2; taken === 2; ) {
            const run = client.products.sync({ checkpoint, per_page });
            taken = 0;
            for await (const p of run) {
              resumed.push(p.id);
              if (++taken === 2) break;
            }
            checkpoint = JSON.parse(JSON.stringify(run.checkpoint ?? checkpoint));
          }
          expect(
            resumed.sort((a, b) => a - b),
            `resumed, per_page ${per_page}, Date ${sendDate}`,
          ).toEqual(ids);
        }
      } finally {
        await shop.close();
      }
    }
  });
  it('never writes a checkpoint it would reject: past the cap a version comes again, none is skipped', async () => {
    const template = await clientFor(box).products.create({ name: 'template', regular_price: '1.00' });
    const rows = fallBack(template);
    const shop = await wooProducts(rows, true);
    checkpointLimits.versions = 2;
    try {
      const client = shopClient(shop.url);
      const head: number[] = [];
      for await (const page of client.products.sync({ checkpoint: start('products'), per_page: 3 }).pages()) {
        head.push(...page.items.map((p) => p.id));
        // Each page's checkpoint passes the checks any passed-in one does, and the rest from it misses nothing.
        const tail = await toArray(client.products.sync({ checkpoint: page.checkpoint, per_page: 3 }));
        const got = new Set([...head, ...tail.map((p) => p.id)]);
        expect([...got].sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
      }
      expect(head.sort((a, b) => a - b)).toEqual(rows.map((r) => r.id));
    } finally {
      checkpointLimits.versions = 100_000;
      await shop.close();
    }
  });
});

describe('customers.sync', () => {
  it('scans in id order once per customer while others are created, updated and deleted, then catches up', async () => {
    const store = clientFor(box);
    const writer = clientFor(box);
    const initial = (
      await store.customers.batch({
        create: Array.from({ length: 40 }, (_, i) => ({ email: `sync${i}@example.com` })),
      })
    ).create.map((c) => (c as { id: number }).id);
    await nextSecond();

    const run = store.customers.sync({ per_page: 6 });
    const first: Version[] = [];
    const deleted = new Set<number>();
    const updated = new Set<number>();
    let page = 0;
    for await (const { items } of run.pages()) {
      first.push(...items.map(version));
      // Deleting customers behind the cursor moves every later row down (the scan must step back).
      const behind = initial.filter((id) => first.some((c) => c.id === id) && !deleted.has(id)).slice(0, 2);
      for (const id of behind) {
        await writer.customers.delete(id, { force: true });
        deleted.add(id);
      }
      const some = initial[(page * 7 + 3) % initial.length]!;
      if (!deleted.has(some)) {
        await writer.customers.update(some, { first_name: `page ${page}` });
        updated.add(some);
      }
      await writer.customers.create({ email: `new${page}@example.com` });
      page++;
    }
    const ids = first.map((c) => c.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of initial) expect(ids).toContain(id);
    expect(deleted.size).toBeGreaterThan(0);

    // The finished scan's checkpoint starts a scan for customers modified since the first began.
    expect(run.checkpoint).toMatchObject({ resource: 'customers', after_id: 0, offset: 0 });
    const rest = (await toArray(store.customers.sync({ checkpoint: run.checkpoint! }))).map(version);
    for (const id of updated) if (!deleted.has(id)) expect(rest.map((c) => c.id)).toContain(id);
    const now = (await store.customers.list({ per_page: 100, orderby: 'id' }).toArray()).map(version);
    expectExactlyOncePerVersion([...first, ...rest], now, true);
  });
  it('resumes from a checkpoint whose offset lags many pages behind its cursor, at any page size', async () => {
    const store = clientFor(box);
    await store.customers.batch({
      create: Array.from({ length: 30 }, (_, i) => ({ email: `lag${i}@example.com` })),
    });
    const all = (await store.customers.list({ per_page: 100, orderby: 'id', order: 'asc' }).toArray()).map(
      (c) => c.id,
    );
    const cursor = all[all.length - 12]!;
    for (const per_page of [1, 3]) {
      const checkpoint: SyncCheckpoint = {
        v: 1,
        resource: 'customers',
        modified_after: null,
        after_id: cursor,
        offset: 2,
        started: null,
        skip: [],
        seen: [],
      };
      const ids = (await toArray(store.customers.sync({ checkpoint, per_page }))).map((c) => c.id);
      expect(ids, `per_page ${per_page}`).toEqual(all.filter((id) => id > cursor));
    }
  });
});

describe('rate limit', () => {
  let limited: Sandbox;
  beforeAll(async () => {
    limited = await sandbox({ store: { rateLimit: { limit: 10, intervalMs: 1000 } } });
  });
  afterAll(() => limited.close());

  it("goes through the client's limiter: a sync of many pages meets no 429", async () => {
    const store = clientFor(limited, { rateLimit: { limit: 10, interval: '1s' }, maxRetries: 0 });
    await store.orders.batch({ create: Array.from({ length: 60 }, () => ({})) });
    limited.store.resetStats();
    const orders = await toArray(store.orders.sync({ per_page: 4 }));
    expect(orders).toHaveLength(60);
    // 15 pages at least; more where a page of orders modified in one second is read again past its ids.
    expect(limited.store.stats().requests).toBeGreaterThanOrEqual(15);
    expect(limited.store.stats().rateLimited).toBe(0);
  });
});

describe('kill and resume', () => {
  it('an exporter SIGKILLed mid-run and restarted from its checkpoint file exports every order once', async () => {
    const store = clientFor(box);
    await store.orders.batch({ create: Array.from({ length: 80 }, () => ({})) });
    const expected = (await store.orders.list({ per_page: 100 }).toArray()).map(version);
    expect(expected.length).toBeGreaterThan(150);
    const dir = await mkdtemp(join(tmpdir(), 'store-sync-'));
    try {
      const killed = await exporter(box, dir, 5);
      expect(killed.signal).toBe('SIGKILL');
      const saved = JSON.parse(await readFile(join(dir, 'checkpoint.json'), 'utf8'));
      expect(saved.lines).toBeGreaterThan(0);
      expect(saved.lines).toBeLessThan(expected.length);

      const finished = await exporter(box, dir);
      expect(finished.code).toBe(0);
      const lines = (await readFile(join(dir, 'export.jsonl'), 'utf8')).trim().split('\n');
      const exported = lines.map((line) => JSON.parse(line) as Version);
      expectExactlyOncePerVersion(exported, expected);
      expect(exported).toHaveLength(expected.length);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

const child = fileURLToPath(new URL('../fixtures/sync-child.ts', import.meta.url));

/** Runs the exporter; with `killAfter`, SIGKILLs it when it reports that many checkpoint writes. */
function exporter(
  on: Sandbox,
  dir: string,
  killAfter?: number,
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  const proc = fork(child, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      SYNC_DIR: dir,
      STORE_URL: on.store.url,
      STORE_KEY: on.store.consumerKey,
      STORE_SECRET: on.store.consumerSecret,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let saves = 0;
  proc.on('message', (message: { type: string }) => {
    if (message.type === 'saved' && ++saves === killAfter) proc.kill('SIGKILL');
  });
  return new Promise((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
}
