import { HttpError } from '../../errors.js';

/**
 * The calls' database failed: unreachable, refused us, or holds what this desk cannot read. A 503 to the
 * page (the request may succeed once the database is back); at startup, `startServer` rejects with it.
 * Messages name the database by `redactUrl`, never with its password.
 */
export class StorageError extends HttpError {
  constructor(
    message: string,
    options?: { cause?: unknown; status?: number; code?: 'storage_unavailable' | 'too_large_to_store' },
  ) {
    super(options?.status ?? 503, message, options?.code ?? 'storage_unavailable');
    this.name = 'StorageError';
    if (options?.cause !== undefined) Object.defineProperty(this, 'cause', { value: options.cause });
  }
}

/** `postgres://user:secret@host/db` as `postgres://user:***@host/db`; anything unparsable as `(database URL)`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    for (const key of [...parsed.searchParams.keys()])
      if (/pass|secret|key|token/i.test(key)) parsed.searchParams.set(key, '***');
    return parsed.toString();
  } catch {
    return '(database URL)';
  }
}

/**
 * `message` with every occurrence of each secret masked. Secrets shorter than 4 characters are left alone:
 * masking every "s" would garble the message, and such a password is no secret.
 */
export function mask(message: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((text, s) => text.split(s).join('***'), message);
}

/**
 * The password of a connection string in every form a driver may quote it: as typed and percent-decoded.
 * Userinfo ends at the authority's last '@' (as WHATWG URL and pg read it), so `u:p@ss@host` has `p@ss`.
 */
export function passwordsOf(url: string): string[] {
  const found = new Set<string>();
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1] ?? '';
  const userinfo = authority.slice(0, Math.max(0, authority.lastIndexOf('@')));
  const colon = userinfo.indexOf(':');
  if (colon >= 0) found.add(userinfo.slice(colon + 1));
  try {
    found.add(new URL(url).password);
  } catch {}
  for (const password of [...found]) {
    try {
      found.add(decodeURIComponent(password));
    } catch {}
  }
  found.delete('');
  return [...found];
}
