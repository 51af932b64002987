import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { closeAction, connectionUrl, decodeFrame, encodeFrame, VERSION } from '../../src/client/protocol.js';

describe('connection URL', () => {
  it('is what pusher-js sends, with our version', () => {
    expect(connectionUrl({ key: 'abc', host: 'ws-eu.pusher.com', port: 443, tls: true })).toBe(
      `wss://ws-eu.pusher.com:443/app/abc?protocol=7&client=js&version=${VERSION}&flash=false`,
    );
  });

  it('puts wsPath before /app and drops its trailing slash', () => {
    expect(connectionUrl({ key: 'k', host: 'localhost', port: 6001, tls: false, path: '/ws/' })).toMatch(
      /^ws:\/\/localhost:6001\/ws\/app\/k\?protocol=7&/,
    );
  });

  it('VERSION follows package.json', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(VERSION).toBe(pkg.version);
  });
});

describe('frame codec', () => {
  it('parses double-encoded data', () => {
    const raw =
      '{"event":"pusher:connection_established","data":"{\\"socket_id\\":\\"123.456\\",\\"activity_timeout\\":120}"}';
    expect(decodeFrame(raw)).toEqual({
      event: 'pusher:connection_established',
      data: { socket_id: '123.456', activity_timeout: 120 },
    });
  });

  it('keeps a publisher string that is not JSON', () => {
    expect(decodeFrame('{"event":"e","channel":"c","data":"hello there"}')).toEqual({
      event: 'e',
      channel: 'c',
      data: 'hello there',
    });
  });

  it('accepts object data (pusher:error) and keeps user_id', () => {
    expect(decodeFrame('{"event":"pusher:error","data":{"message":"m","code":4301}}')?.data).toEqual({
      message: 'm',
      code: 4301,
    });
    expect(
      decodeFrame('{"event":"client-x","channel":"presence-a","data":"{}","user_id":"7"}')?.user_id,
    ).toBe('7');
  });

  it('rejects what is not an event frame', () => {
    for (const raw of ['not json', '[]', '"x"', '{"data":"{}"}', '{"event":5}', new Uint8Array([1])]) {
      expect(decodeFrame(raw)).toBeNull();
    }
  });

  it('encodes data as an object, as pusher-js does', () => {
    expect(JSON.parse(encodeFrame('pusher:subscribe', { channel: 'private-x', auth: 'k:s' }))).toEqual({
      event: 'pusher:subscribe',
      data: { channel: 'private-x', auth: 'k:s' },
    });
    expect(JSON.parse(encodeFrame('client-a', { n: 1 }, 'private-x'))).toEqual({
      event: 'client-a',
      data: { n: 1 },
      channel: 'private-x',
    });
  });
});

describe('close codes', () => {
  it.each([
    [4000, 'tls'],
    [4001, 'refuse'],
    [4009, 'refuse'],
    [4099, 'refuse'],
    [4100, 'backoff'],
    [4199, 'backoff'],
    [4200, 'retry'],
    [4201, 'retry'],
    [4299, 'retry'],
    [4301, 'refuse'],
    [1000, 'backoff'],
    [1001, 'backoff'],
    [1006, 'backoff'],
    [3999, 'backoff'],
  ] as const)('%i -> %s', (code, action) => {
    expect(closeAction(code)).toBe(action);
  });
});
