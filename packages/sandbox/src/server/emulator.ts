import type { Mountable } from '../kit/emulator.js';

/** The request path without the query, as the client sent it. */
export function rawPath(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q === -1 ? u : u.slice(0, q);
}

export function prefixMatches(prefix: string, path: string): boolean {
  if (prefix === '/' || path === prefix) return true;
  const base = prefix.endsWith('/') ? prefix : `${prefix}/`;
  return path.startsWith(base);
}

/** The emulator with the longest prefix matching `path`, or undefined. */
export function routeFor(emulators: readonly Mountable[], path: string): Mountable | undefined {
  let best: Mountable | undefined;
  let bestLength = -1;
  for (const e of emulators) {
    for (const prefix of e.prefixes) {
      if (prefix.length > bestLength && prefixMatches(prefix, path)) {
        best = e;
        bestLength = prefix.length;
      }
    }
  }
  return best;
}
