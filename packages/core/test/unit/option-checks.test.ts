import { describe, expect, it } from 'vitest';
import { BaseClient, type ClientOptions, optionIssues, ValidationError } from '../../src/index.js';

const adapter = { packageName: '@x/test', packageVersion: '0.0.0' };
function build(options: Partial<ClientOptions> & Record<string, unknown>): unknown {
  try {
    return new BaseClient({ baseURL: 'http://127.0.0.1:1', ...options } as ClientOptions, adapter);
  } catch (error) {
    return error;
  }
}

describe('client options of the wrong type fail at construction, naming field, expected and received', () => {
  it('a string where a number is expected says it got a string (and shows a numeric one)', () => {
    const error = build({ timeout: '8787' as never });
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).issues).toEqual([
      { path: 'timeout', message: 'expected a number >= 0, received a string ("8787")' },
    ]);
  });

  it('lists every wrong option at once; a non-numeric string is not quoted (it may be a key)', () => {
    const error = build({
      maxRetries: -1,
      idleTimeout: 'sk_live_secret' as never,
      logLevel: 'verbose' as never,
      rateLimit: true as never,
      fetch: 'fetch' as never,
      baseURL: 'ftp://host',
    }) as ValidationError;
    const byPath = Object.fromEntries(error.issues.map((i) => [i.path, i.message]));
    expect(byPath.maxRetries).toBe('expected a number >= 0, received a negative number');
    expect(byPath.idleTimeout).toBe('expected a number >= 0, received a string');
    expect(byPath.logLevel).toBe(
      "expected one of 'debug', 'info', 'warn', 'error', 'off', received 'verbose'",
    );
    expect(byPath.rateLimit).toBe('expected an object or false, received a boolean');
    expect(byPath.fetch).toBe('expected a function, received a string');
    expect(byPath.baseURL).toBe('expected an http(s) URL');
    expect(error.message).not.toContain('sk_live_secret');
  });

  it('rateLimit: false and retryBudget: false stay valid', () => {
    expect(build({ rateLimit: false, retryBudget: false })).toBeInstanceOf(BaseClient);
  });

  it('optionIssues serves the service clients (port as a string, tls as a string)', () => {
    expect(optionIssues({ port: '8787', useTLS: 'false' }, { port: 'number', useTLS: 'boolean' })).toEqual([
      { path: 'port', message: 'expected a number >= 0, received a string ("8787")' },
      { path: 'useTLS', message: 'expected a boolean, received a string ("false")' },
    ]);
  });
});

describe('rateLimit option values', () => {
  it.each([
    [{ limit: 1 }, 'interval'],
    [{ limit: 0, interval: '1s' }, 'rate limit'],
    [{ limit: 5, interval: '1 minute' }, 'duration'],
    [{ limit: 5, interval: 1000, maxQueue: -1 }, 'maxQueue'],
  ])('%j is a ValidationError on rateLimit, not a TypeError', (rateLimit, words) => {
    const make = () =>
      new BaseClient({ baseURL: 'http://127.0.0.1:1', rateLimit } as unknown as ClientOptions, {
        packageName: '@x/test',
        packageVersion: '0.0.0',
      });
    expect(make).toThrow(ValidationError);
    try {
      make();
    } catch (error) {
      expect((error as ValidationError).issues[0]?.path).toBe('rateLimit');
      expect((error as ValidationError).issues[0]?.message.toLowerCase()).toContain(words.toLowerCase());
    }
  });
});
