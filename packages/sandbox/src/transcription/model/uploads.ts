import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface UploadRecord {
  id: string;
  key: string;
  path: string;
  bytes: number;
}

export type SaveResult =
  | { upload: UploadRecord }
  | { tooLarge: true }
  | { empty: true }
  /** The client stopped sending before the end (a dropped connection, a body shorter than declared). */
  | { truncated: Error };

/**
 * Uploaded audio, streamed to files in a private directory: a 2 GB upload costs the emulator disk, not
 * memory. Each upload belongs to the key that made it, as on the service (another project's key gets 403).
 */
export class Uploads {
  readonly #byId = new Map<string, UploadRecord>();
  #dir: Promise<string> | null = null;
  /** A directory given to keep (a data directory): created if missing, never removed. */
  readonly #kept: string | undefined;
  readonly #parent: string | undefined;
  /** Called after each save and delete, for durability. */
  onChange: (change: { upload: UploadRecord } | { deleted: string }) => void = () => {};

  constructor(options: { parentDir?: string; keptDir?: string } = {}) {
    this.#parent = options.parentDir;
    this.#kept = options.keptDir;
  }

  #directory(): Promise<string> {
    const kept = this.#kept;
    this.#dir ??= kept
      ? mkdir(kept, { recursive: true }).then(() => kept)
      : mkdtemp(join(this.#parent ?? tmpdir(), 'x-sandbox-uploads-'));
    return this.#dir;
  }

  /** An upload known from an earlier run (a data directory). */
  restore(upload: UploadRecord): void {
    this.#byId.set(upload.id, upload);
  }

  /** A path for a file the emulator makes itself (a downloaded `audio_url`, redacted audio). */
  async scratchPath(suffix: string): Promise<string> {
    return join(await this.#directory(), `${randomUUID()}${suffix}`);
  }

  async save(key: string, body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<SaveResult> {
    if (!body) return { empty: true };
    const id = randomUUID();
    const path = join(await this.#directory(), id);
    let bytes = 0;
    let tooLarge = false;
    const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes) {
          tooLarge = true;
          done(new Error('upload too large'));
        } else done(null, chunk);
      },
    });
    try {
      await pipeline(source, counted, createWriteStream(path));
    } catch (error) {
      await unlink(path).catch(() => {});
      if (tooLarge) return { tooLarge: true };
      return { truncated: error as Error };
    }
    if (bytes === 0) {
      await unlink(path).catch(() => {});
      return { empty: true };
    }
    const upload = { id, key, path, bytes };
    this.#byId.set(id, upload);
    this.onChange({ upload });
    return { upload };
  }

  all(): IterableIterator<UploadRecord> {
    return this.#byId.values();
  }

  get(id: string): UploadRecord | undefined {
    return this.#byId.get(id);
  }

  async delete(id: string): Promise<void> {
    const upload = this.#byId.get(id);
    if (!upload) return;
    this.#byId.delete(id);
    this.onChange({ deleted: id });
    await unlink(upload.path).catch(() => {});
  }

  async clear(): Promise<void> {
    const ids = [...this.#byId.keys()];
    await Promise.all(ids.map((id) => this.delete(id)));
  }

  async close(): Promise<void> {
    this.#byId.clear();
    if (this.#dir && !this.#kept) await rm(await this.#dir, { recursive: true, force: true });
    this.#dir = null;
  }
}
