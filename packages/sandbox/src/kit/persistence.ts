import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

/** The file's text, or `null` when it does not exist yet (a first start with `--data FILE`). */
export async function readDataFile(file: string): Promise<string | null> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Debounced, atomic persistence of an emulator's state to `file`: each write goes to a temp file that is then
 * renamed over the old one, so a crash mid-write leaves the previous state intact, never half a file.
 */
export class Persister {
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  private dirty = false;

  constructor(
    private readonly file: string,
    private readonly snapshot: () => string,
    private readonly delayMs = 50,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.flush().catch(() => {});
    }, this.delayMs);
    this.timer.unref?.();
  }

  async flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    this.writing = this.writing
      .catch(() => {})
      .then(async () => {
        if (!this.dirty) return;
        this.dirty = false;
        const text = this.snapshot();
        const tmp = `${this.file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
        await mkdir(dirname(this.file), { recursive: true });
        await writeFile(tmp, text, 'utf8');
        await rename(tmp, this.file);
      });
    return this.writing;
  }
}
