import { randomBytes } from 'node:crypto';
import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Durable emulator state: a snapshot file plus an append-only journal (`FILE.journal`, one JSON line per
 * acknowledged write). Why a journal: a write is only answered once it is on disk (fsync), and appending one
 * small line per write costs the same whatever the size of the state, where rewriting the snapshot on every
 * write would grow with it. Concurrent writes share one fsync (group commit). The journal is folded into the
 * snapshot (compaction) at start, when it grows past a size, and at a clean close.
 *
 * Crash safety: snapshots are written to a temp file, fsynced and renamed over the old one (then the directory
 * is fsynced), so the data file is always a whole snapshot. Each journal line carries a sequence number and a
 * snapshot records the last one it includes, so a crash between writing a snapshot and emptying the journal
 * replays nothing twice. A crash mid-append leaves a torn last line: it was never acknowledged, so it is
 * dropped. Anything else that does not parse is refused with the file and line named.
 *
 * Generic: the caller says what an entry and a snapshot are.
 */

/** A data file or journal that cannot be loaded; the message names the file and what is wrong with it. */
export class DataFileError extends Error {
  constructor(
    readonly file: string,
    detail: string,
  ) {
    super(`cannot load ${file}: ${detail}. Fix or remove the file to start.`);
    this.name = 'DataFileError';
  }
}

export interface JournalRecord {
  /** Position in the journal's sequence (1, 2, ...), never reused. */
  seq: number;
  entry: unknown;
  /** 1-based line in the journal file, for error messages. */
  line: number;
}

export interface Recovered {
  /** The snapshot's text, or `null` on a first start. */
  snapshot: string | null;
  /** Journal records in order; those a snapshot already includes are the caller's to skip (see `seq`). */
  journal: JournalRecord[];
  /** What recovery cleaned up: a torn last journal line, stale temp files. */
  notes: string[];
}

export interface PersisterOptions {
  /** Compact once the journal holds this many bytes. Default 4 MiB. */
  compactAfterBytes?: number;
}

const TMP_RE = /^\.\d+\.[0-9a-f]{8}\.tmp$/;

/** Reads `file` as text, or `null` when it does not exist. */
async function readIfExists(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** fsync a directory so a rename or a new file in it survives a crash; not every platform allows it. */
async function syncDir(dir: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await open(dir, 'r');
    await fh.sync();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL' && code !== 'EBADF') throw err;
  } finally {
    await fh?.close();
  }
}

/** Temp file, fsync, rename over `file`, fsync the directory: `file` is always one whole version. */
async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    const fh = await open(tmp, 'w');
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => {});
    throw err;
  }
  await syncDir(dirname(file));
}

/** Splits journal text into records; only an unterminated last line (a crash mid-append) may be incomplete. */
function parseJournal(file: string, text: string, notes: string[]): JournalRecord[] {
  const lines = text.split('\n');
  // What follows the last newline was never completed (zero bytes included: blocks a crash left unwritten).
  const tail = lines.pop() ?? '';
  if (tail !== '') notes.push(`dropped a torn last line in ${file}`);
  const records: JournalRecord[] = [];
  let last = 0;
  for (let i = 0; i < lines.length; i++) {
    const where = `line ${i + 1}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(lines[i]!);
    } catch (err) {
      throw new DataFileError(file, `${where} is not JSON (${(err as Error).message})`);
    }
    const rec = parsed as { seq?: unknown; entry?: unknown } | null;
    if (typeof rec !== 'object' || rec === null || !Number.isSafeInteger(rec.seq) || !('entry' in rec)) {
      throw new DataFileError(file, `${where} is not a journal record ({"seq":N,"entry":...})`);
    }
    const seq = rec.seq as number;
    if (seq <= last) throw new DataFileError(file, `${where} has sequence ${seq} after ${last}`);
    last = seq;
    records.push({ seq, entry: rec.entry, line: i + 1 });
  }
  return records;
}

interface Pending {
  line: string;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The durable half of an emulator: `Persister.open()` recovers what is on disk, the caller rebuilds its state
 * from it, then `start()` compacts (so appends never follow a torn line) and `append()` makes each write durable.
 */
export class Persister {
  readonly journalFile: string;
  /** The last sequence number handed out; a snapshot taken now includes every entry up to it. */
  seq = 0;
  private fh: FileHandle | null = null;
  private snapshot: ((seq: number) => string) | null = null;
  private queue: Pending[] = [];
  private compactWaiters: Pending[] = [];
  private compactWanted = false;
  private draining: Promise<void> | null = null;
  /** Bytes of whole lines in the journal; a failed append is cut back to this. */
  private journalBytes = 0;
  /** A failed append could not be cut back: nothing more is appended until it can be. */
  private needsTruncate = false;
  private readonly compactAfterBytes: number;

  private constructor(
    readonly file: string,
    options: PersisterOptions,
  ) {
    this.journalFile = `${file}.journal`;
    this.compactAfterBytes = options.compactAfterBytes ?? 4 * 1024 * 1024;
  }

  /** Removes temp files an earlier run left behind, then reads the snapshot and the journal. */
  static async open(
    file: string,
    options: PersisterOptions = {},
  ): Promise<{ persister: Persister; recovered: Recovered }> {
    const p = new Persister(file, options);
    const dir = dirname(file);
    await mkdir(dir, { recursive: true });
    const notes: string[] = [];
    const base = basename(file);
    for (const name of await readdir(dir)) {
      if (!name.startsWith(base) || !TMP_RE.test(name.slice(base.length))) continue;
      await unlink(join(dir, name)).catch(() => {});
      notes.push(`removed stale temp file ${join(dir, name)}`);
    }
    const snapshot = await readIfExists(file);
    const journalText = await readIfExists(p.journalFile);
    const journal = journalText === null ? [] : parseJournal(p.journalFile, journalText, notes);
    p.seq = journal.at(-1)?.seq ?? 0;
    return { persister: p, recovered: { snapshot, journal, notes } };
  }

  /**
   * Begins appending. `snapshot(seq)` returns the whole state as text, recording `seq` (the last journal entry
   * it includes); `fromSeq` is the highest sequence already used (the loaded snapshot's mark). Compacts at once.
   */
  async start(snapshot: (seq: number) => string, fromSeq = 0): Promise<void> {
    this.snapshot = snapshot;
    this.seq = Math.max(this.seq, fromSeq);
    this.fh = await open(this.journalFile, 'a');
    await this.compact();
  }

  /** Resolves once `entry` is on disk (or folded into a snapshot that is); rejects if it could not be written. */
  append(entry: unknown): Promise<void> {
    // Serialized now: the caller's objects may change before the write happens.
    const line = `${JSON.stringify({ seq: ++this.seq, entry })}\n`;
    return new Promise((resolve, reject) => {
      this.queue.push({ line, resolve, reject });
      this.kick();
    });
  }

  /** Writes a snapshot of the state as it is now and empties the journal. */
  compact(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.compactWaiters.push({ line: '', resolve, reject });
      this.compactWanted = true;
      this.kick();
    });
  }

  /** Compacts and closes the journal; appends after this reject. */
  async close(): Promise<void> {
    if (!this.fh) return;
    await this.compact();
    await this.draining;
    const fh = this.fh;
    this.fh = null;
    await fh.close();
  }

  private kick(): void {
    if (this.draining) return;
    this.draining = this.drain().finally(() => {
      this.draining = null;
      if (this.queue.length > 0 || this.compactWanted) this.kick();
    });
  }

  /** One loop does every write, so appends and compactions never interleave. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0 || this.compactWanted) {
      if (!this.fh || !this.snapshot) {
        const err = new Error(`${this.journalFile} is not open`);
        for (const w of [...this.queue.splice(0), ...this.compactWaiters.splice(0)]) w.reject(err);
        this.compactWanted = false;
        return;
      }
      if (this.compactWanted) await this.compactNow(this.fh, this.snapshot);
      else await this.appendNow(this.fh);
    }
  }

  private async appendNow(fh: FileHandle): Promise<void> {
    const batch = this.queue.splice(0);
    const bytes = Buffer.from(batch.map((b) => b.line).join(''), 'utf8');
    try {
      if (this.needsTruncate) {
        await fh.truncate(this.journalBytes);
        this.needsTruncate = false;
      }
      for (let off = 0; off < bytes.length; ) off += (await fh.write(bytes, off)).bytesWritten;
      await fh.datasync();
    } catch (err) {
      // Cut off whatever part of the batch reached the file, so later lines never follow a torn one.
      this.needsTruncate = true;
      await fh
        .truncate(this.journalBytes)
        .then(() => {
          this.needsTruncate = false;
        })
        .catch(() => {});
      for (const b of batch) b.reject(err);
      return;
    }
    this.journalBytes += bytes.length;
    for (const b of batch) b.resolve();
    if (this.journalBytes > this.compactAfterBytes) this.compactWanted = true;
  }

  private async compactNow(fh: FileHandle, snapshot: (seq: number) => string): Promise<void> {
    this.compactWanted = false;
    const waiters = this.compactWaiters.splice(0);
    // Entries queued but not yet written are already in the state, so the snapshot covers them.
    const covered = this.queue.splice(0);
    try {
      await writeAtomic(this.file, snapshot(this.seq));
    } catch (err) {
      // The journal is untouched: the covered entries go to it as usual.
      this.queue.unshift(...covered);
      for (const w of waiters) w.reject(err);
      return;
    }
    // From here the snapshot holds everything: a journal that cannot be emptied only holds entries a restart
    // skips (their sequence numbers are not above the snapshot's), so it is left as it is.
    try {
      await fh.truncate(0);
      await fh.datasync();
      this.journalBytes = 0;
      this.needsTruncate = false;
    } catch {}
    for (const w of [...covered, ...waiters]) w.resolve();
  }
}
