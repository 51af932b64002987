/** kit/persistence.ts on its own: snapshot + journal files, recovery, compaction, no store involved. */
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Persister } from '../../src/kit/persistence.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-persist-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const fresh = (name: string) => join(dir, name, 'state.json');

/** A toy "emulator": its state is a list of numbers, its entries the numbers appended. */
async function openToy(file: string, options?: { compactAfterBytes?: number }) {
  const { persister, recovered } = await Persister.open(file, options);
  let values: number[] = [];
  let mark = 0;
  if (recovered.snapshot !== null) ({ values, mark } = JSON.parse(recovered.snapshot));
  for (const r of recovered.journal) if (r.seq > mark) values.push(r.entry as number);
  await persister.start((seq) => JSON.stringify({ values, mark: seq }), mark);
  return { persister, recovered, values };
}

describe('Persister', () => {
  it('makes an append durable before it resolves: the journal line is on disk, the snapshot untouched', async () => {
    const file = fresh('append');
    const { persister, values } = await openToy(file);
    values.push(7);
    await persister.append(7);
    expect(await readFile(`${file}.journal`, 'utf8')).toBe('{"seq":1,"entry":7}\n');
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ values: [], mark: 0 });
    // No close(): as after kill -9. The next start replays the journal.
    const again = await openToy(file);
    expect(again.values).toEqual([7]);
    await again.persister.close();
  });

  it('group-commits concurrent appends, and every one resolves', async () => {
    const file = fresh('group');
    const { persister, values } = await openToy(file);
    const writes = Array.from({ length: 50 }, (_, i) => {
      values.push(i);
      return persister.append(i);
    });
    await Promise.all(writes);
    const lines = (await readFile(`${file}.journal`, 'utf8')).trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).seq)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    await persister.close();
    expect((await openToy(file)).values).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it('compacts into the snapshot (recording the last entry it holds) and empties the journal', async () => {
    const file = fresh('compact');
    const { persister, values } = await openToy(file, { compactAfterBytes: 40 });
    for (const v of [1, 2, 3]) {
      values.push(v);
      await persister.append(v);
    }
    await persister.compact();
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ values: [1, 2, 3], mark: 3 });
    expect(await readFile(`${file}.journal`, 'utf8')).toBe('');
    values.push(4);
    await persister.append(4);
    expect(await readFile(`${file}.journal`, 'utf8')).toBe('{"seq":4,"entry":4}\n');
    expect((await openToy(file)).values).toEqual([1, 2, 3, 4]);
  });

  it('skips journal entries the snapshot already holds (a crash between snapshot and emptying the journal)', async () => {
    const file = fresh('overlap');
    await openToy(file).then((t) => t.persister.close());
    await writeFile(file, JSON.stringify({ values: [1, 2], mark: 2 }));
    await writeFile(`${file}.journal`, '{"seq":1,"entry":1}\n{"seq":2,"entry":2}\n{"seq":3,"entry":3}\n');
    const { values, persister } = await openToy(file);
    expect(values).toEqual([1, 2, 3]);
    values.push(4);
    await persister.append(4);
    expect(await readFile(`${file}.journal`, 'utf8')).toBe('{"seq":4,"entry":4}\n');
  });

  it('drops a torn last line (never acknowledged) and appends after a clean end', async () => {
    const file = fresh('torn');
    await openToy(file).then((t) => t.persister.close());
    await writeFile(`${file}.journal`, '{"seq":1,"entry":1}\n{"seq":2,"en');
    const { values, persister, recovered } = await openToy(file);
    expect(values).toEqual([1]);
    expect(recovered.notes).toEqual([`dropped a torn last line in ${file}.journal`]);
    values.push(9);
    await persister.append(9);
    expect(await readFile(`${file}.journal`, 'utf8')).toBe('{"seq":2,"entry":9}\n');
    expect((await openToy(file)).values).toEqual([1, 9]);
  });

  it('treats zero bytes after the last newline (blocks a crash left unwritten) as the torn line', async () => {
    const file = fresh('zeros');
    await openToy(file).then((t) => t.persister.close());
    await writeFile(
      `${file}.journal`,
      Buffer.concat([Buffer.from('{"seq":1,"entry":5}\n'), Buffer.alloc(64)]),
    );
    expect((await openToy(file)).values).toEqual([5]);
  });

  it.each([
    ['a line that is not JSON', '{"seq":1,"entry":1}\n{oops\n{"seq":3,"entry":3}\n', 'line 2 is not JSON'],
    ['a line that is not a record', '[1,2]\n', 'line 1 is not a journal record'],
    [
      'sequence numbers going back',
      '{"seq":2,"entry":1}\n{"seq":2,"entry":2}\n',
      'line 2 has sequence 2 after 2',
    ],
  ])('refuses %s, naming the journal and the line', async (_name, text, detail) => {
    const file = fresh(`bad-${detail.length}`);
    await openToy(file).then((t) => t.persister.close());
    await writeFile(`${file}.journal`, text);
    await expect(Persister.open(file)).rejects.toThrow(`cannot load ${file}.journal: ${detail}`);
  });

  it('removes temp files a crashed compaction left, and only those', async () => {
    const file = fresh('stale');
    await openToy(file).then((t) => t.persister.close());
    const d = join(dir, 'stale');
    await writeFile(join(d, 'state.json.1234.0badcafe.tmp'), '{"half":');
    await writeFile(join(d, 'other.json.1234.0badcafe.tmp'), 'not ours');
    await writeFile(join(d, 'state.json.notes.tmp'), 'not ours either');
    const { recovered } = await openToy(file);
    expect(recovered.notes).toEqual([`removed stale temp file ${join(d, 'state.json.1234.0badcafe.tmp')}`]);
    expect((await readdir(d)).sort()).toEqual([
      'other.json.1234.0badcafe.tmp',
      'state.json',
      'state.json.journal',
      'state.json.notes.tmp',
    ]);
  });

  it('rejects appends once closed', async () => {
    const { persister } = await openToy(fresh('closed'));
    await persister.close();
    await expect(persister.append(1)).rejects.toThrow('is not open');
  });
});
