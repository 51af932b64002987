import { describe, expect, it } from 'vitest';
import { RealtimeClient, ValidationError } from '../../src/index.js';

function issues(options: Record<string, unknown>, key: unknown = 'app-key') {
  try {
    new RealtimeClient(key as string, options as never);
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).issues;
  }
  return [];
}

describe('RealtimeClient options are checked at construction', () => {
  it('names the option, what it expects and what it got', () => {
    expect(issues({ wsHost: '127.0.0.1', wsPort: 'abc' })).toEqual([
      { path: 'wsPort', message: 'expected integer 1..65535, received string' },
    ]);
    expect(
      issues({
        cluster: 1,
        wssPort: 70_000,
        forceTLS: 'false',
        activityTimeout: -1,
        pongTimeout: Number.NaN,
        connectTimeout: '10',
        subscriptionTimeout: Infinity,
        clientEventBuffer: {},
        wsPath: 5,
      }),
    ).toEqual([
      { path: 'cluster', message: 'expected string, received number 1' },
      { path: 'wsPath', message: 'expected string, received number 5' },
      { path: 'forceTLS', message: 'expected boolean, received string' },
      { path: 'wssPort', message: 'expected integer 1..65535, received number 70000' },
      { path: 'activityTimeout', message: 'expected number >= 0, received number -1' },
      { path: 'pongTimeout', message: 'expected number >= 0, received number NaN' },
      { path: 'connectTimeout', message: 'expected number >= 0, received string' },
      { path: 'subscriptionTimeout', message: 'expected number >= 0, received number Infinity' },
      { path: 'clientEventBuffer', message: 'expected number >= 0, received object' },
    ]);
    expect(issues({ wsHost: 'h' }, '')).toEqual([{ path: 'key', message: 'is required' }]);
    expect(issues({})).toEqual([{ path: 'cluster', message: 'set cluster or wsHost' }]);
  });

  it('refuses a logLevel that is no level, which would otherwise silence every log line', () => {
    const expected = () => [{ path: 'logLevel', message: 'expected debug, info, warn, error or off' }];
    expect(issues({ cluster: 'eu', logLevel: 'verbose' })).toEqual(expected());
    expect(issues({ cluster: 'eu', logLevel: 'toString' })).toEqual(expected());
    expect(issues({ cluster: 'eu', logLevel: '__proto__' })).toEqual(expected());
    expect(issues({ cluster: 'eu', logLevel: 'WARN' })).toEqual(expected());
    expect(issues({ cluster: 'eu', logLevel: 30 })).toEqual(expected());
    // Refused with the other options' issues, before any socket could be opened.
    let sockets = 0;
    expect(
      issues({
        logLevel: 'verbose',
        webSocketFactory: () => {
          sockets++;
          throw new Error('no socket');
        },
      }),
    ).toEqual([{ path: 'cluster', message: 'set cluster or wsHost' }, ...expected()]);
    expect(sockets).toBe(0);
    for (const logLevel of ['debug', 'info', 'warn', 'error', 'off', undefined, null]) {
      expect(issues({ cluster: 'eu', logLevel })).toEqual([]);
    }
  });

  it('takes null and undefined as the default, and builds the URL from valid options', async () => {
    expect(issues({ cluster: 'eu', wsPort: undefined, forceTLS: null })).toEqual([]);
    const client = new RealtimeClient('app-key', {
      wsHost: '127.0.0.1',
      wsPort: 8787,
      forceTLS: false,
      webSocketFactory: (url) => {
        throw new Error(`no socket for ${url} in a unit test`);
      },
    });
    const failed = new Promise<Error>((resolve) => client.connection.bind('error', resolve));
    client.connect();
    const error = await failed;
    client.disconnect();
    expect(error.message).toMatch(/no socket for ws:\/\/127\.0\.0\.1:8787\/app\/app-key\?protocol=7/);
  });
});
