import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join } from 'node:path';

/**
 * `which` over a given PATH, cached per instance. Why not spawn and catch ENOENT: an engine must say what is
 * missing before it starts any work (and before converting audio it cannot then recognise), and the lookup is
 * cheap to repeat from a cache on a busy worker pool. Why the PATH is a parameter: the sandbox (and tests) can
 * point an engine at its own tools without touching `process.env`.
 */
export class Executables {
  readonly #path: string;
  readonly #found = new Map<string, Promise<string | undefined>>();

  constructor(path: string = process.env.PATH ?? '') {
    this.#path = path;
  }

  /** The PATH this lookup searches, passed on to children so they resolve the same tools. */
  get path(): string {
    return this.#path;
  }

  /** The absolute path of `name` on the PATH, or undefined. Cached, misses included (install, then restart). */
  find(name: string): Promise<string | undefined> {
    let found = this.#found.get(name);
    if (!found) {
      found = this.#search(name);
      this.#found.set(name, found);
    }
    return found;
  }

  async #search(name: string): Promise<string | undefined> {
    for (const dir of this.#path.split(delimiter)) {
      if (!dir) continue; // an empty entry would mean the working directory: never run tools from there
      const candidate = join(dir, name);
      try {
        await access(candidate, constants.X_OK);
        if ((await stat(candidate)).isFile()) return candidate;
      } catch {
        // not here; try the next directory
      }
    }
    return undefined;
  }
}
