import { describe, expect, it } from 'vitest';
import { mask, passwordsOf, redactUrl } from '../../src/server/calls/storage/errors.js';

describe('a connection string in a storage error', () => {
  it('masks a password holding an unencoded @ (userinfo ends at the last @)', () => {
    const url = 'postgres://desk:p@ss-w0rd@db.example:5432/desk';
    expect(passwordsOf(url)).toContain('p@ss-w0rd');
    const quoted = `connect failed for ${url} (password "p@ss-w0rd")`;
    expect(mask(quoted, passwordsOf(url))).not.toContain('ss-w0rd');
    expect(redactUrl(url)).not.toContain('w0rd');
  });

  it('masks the percent-encoded and the decoded forms', () => {
    const url = 'postgres://desk:s%40cret%2Fpw@db.example/desk';
    expect(passwordsOf(url)).toEqual(expect.arrayContaining(['s%40cret%2Fpw', 's@cret/pw']));
    expect(mask('s@cret/pw and s%40cret%2Fpw', passwordsOf(url))).toBe('*** and ***');
  });

  it('finds no password where there is none, and never throws on a malformed one', () => {
    expect(passwordsOf('postgres://desk@db.example/desk')).toEqual([]);
    expect(passwordsOf('not a url')).toEqual([]);
    expect(passwordsOf('postgres://u:bad%zz@[::1/desk')).toContain('bad%zz');
  });
});
