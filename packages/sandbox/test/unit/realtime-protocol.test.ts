/** The realtime emulator's pure parts: signature vectors from Pusher's docs, the frame codec, names, settings. */
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../src/realtime/http/auth.js';
import { resolveApps } from '../../src/realtime/model/apps.js';
import { resolveSettings } from '../../src/realtime/model/settings.js';
import { webhookRetryDelay } from '../../src/realtime/model/webhooks.js';
import { closeReason } from '../../src/realtime/protocol/codes.js';
import { commandData, decodeFrame, encodeFrame, errorFrame } from '../../src/realtime/protocol/frames.js';
import { channelNameProblem, channelType, eventNameProblem } from '../../src/realtime/protocol/names.js';
import {
  channelStringToSign,
  hmacHex,
  md5Hex,
  requestStringToSign,
  signaturesEqual,
  userStringToSign,
} from '../../src/realtime/protocol/signatures.js';

// Pusher's documentation test app.
const SECRET = '7ad3773142a6692b25b8';

describe('signature vectors (pusher.com/docs auth_signatures and rest_api)', () => {
  it('private channel', () => {
    expect(hmacHex(SECRET, channelStringToSign('1234.1234', 'private-foobar'))).toBe(
      '58df8b0c36d6982b82c3ecf6b4662e34fe8c25bba48f5369f135bf843651c3a4',
    );
  });

  it('presence channel, channel_data signed as sent', () => {
    const data = '{"user_id":10,"user_info":{"name":"Mr. Pusher"}}';
    expect(hmacHex(SECRET, channelStringToSign('1234.1234', 'presence-foobar', data))).toBe(
      'afaed3695da2ffd16931f457e338e6c9f2921fa133ce7dac49f529792be6304c',
    );
  });

  it('user authentication', () => {
    expect(hmacHex(SECRET, userStringToSign('1234.1234', '{"id":"12345"}'))).toBe(
      '4708d583dada6a56435fb8bc611c77c359a31eebde13337c16ab43aa6de336ba',
    );
  });

  it('HTTP API request: body_md5 and the sorted, unescaped query', () => {
    const body = '{"name":"foo","channels":["project-3"],"data":"{\\"some\\":\\"data\\"}"}';
    expect(md5Hex(body)).toBe('ec365a775a4cd0599faeb73354201b6f');
    const text = requestStringToSign('post', '/apps/3/events', {
      auth_version: '1.0',
      body_md5: 'ec365a775a4cd0599faeb73354201b6f',
      auth_timestamp: '1353088179',
      auth_key: '278d425bdf160c739803',
      auth_signature: 'ignored',
    });
    expect(text).toBe(
      'POST\n/apps/3/events\nauth_key=278d425bdf160c739803&auth_timestamp=1353088179&auth_version=1.0&body_md5=ec365a775a4cd0599faeb73354201b6f',
    );
    expect(hmacHex(SECRET, text)).toBe('da454824c97ba181a32ccc17a72625ba02771f50b50e1e7430e47a1f3f457e6c');
  });

  it('webhook body', () => {
    const body = '{"time_ms":1327078148132,"events":[{"name":"channel_occupied","channel":"test_channel"}]}';
    expect(hmacHex(SECRET, body)).toBe('709fdb84c03664445f7698120b0edf0acc1ab1c8c6e93a0368c61841d6b998aa');
  });

  it('compares in constant time and refuses other lengths', () => {
    expect(signaturesEqual('abc', 'abc')).toBe(true);
    expect(signaturesEqual('abc', 'abd')).toBe(false);
    expect(signaturesEqual('abc', 'abcd')).toBe(false);
  });
});

describe('frames', () => {
  it('double-encodes data except on pusher:error', () => {
    expect(encodeFrame({ event: 'e', channel: 'c', data: { a: 1 } })).toBe(
      '{"event":"e","channel":"c","data":"{\\"a\\":1}"}',
    );
    expect(encodeFrame({ event: 'e', data: 'plain' })).toBe('{"event":"e","data":"plain"}');
    expect(JSON.parse(errorFrame(null, 'nope'))).toEqual({
      event: 'pusher:error',
      data: { code: null, message: 'nope' },
    });
  });

  it('reads both forms of command data', () => {
    expect(commandData({ channel: 'a' })).toEqual({ channel: 'a' });
    expect(commandData('{"channel":"a"}')).toEqual({ channel: 'a' });
    expect(commandData(undefined)).toEqual({});
    expect(commandData('not json')).toBeNull();
    expect(commandData([1])).toBeNull();
    expect(commandData(5)).toBeNull();
  });

  it('says what is wrong with a frame', () => {
    expect(decodeFrame('{').ok).toBe(false);
    expect(decodeFrame('[]').ok).toBe(false);
    expect(decodeFrame('{"event":1}').ok).toBe(false);
    expect(decodeFrame('{"event":"x","channel":3}').ok).toBe(false);
    expect(decodeFrame('{"event":"x","channel":"c","data":{}}')).toEqual({
      ok: true,
      frame: { event: 'x', channel: 'c', data: {} },
    });
  });

  it('cuts close reasons to the 123 bytes RFC 6455 allows', () => {
    expect(Buffer.byteLength(closeReason('é'.repeat(200)))).toBeLessThanOrEqual(123);
    expect(closeReason('short')).toBe('short');
  });
});

describe('names', () => {
  it('classifies channels by prefix', () => {
    expect(channelType('private-encrypted-cache-x')).toEqual({ kind: 'encrypted', cache: true });
    expect(channelType('private-x')).toEqual({ kind: 'private', cache: false });
    expect(channelType('presence-cache-x')).toEqual({ kind: 'presence', cache: true });
    expect(channelType('cache-x')).toEqual({ kind: 'public', cache: true });
  });

  it('checks length, charset and the reserved user channel', () => {
    expect(channelNameProblem('a'.repeat(164))).toBeNull();
    expect(channelNameProblem('a'.repeat(165))).toMatch(/164/);
    expect(channelNameProblem('bad channel')).toMatch(/invalid/);
    expect(channelNameProblem('ok_-=@,.;')).toBeNull();
    expect(channelNameProblem('#server-to-user-1')).toMatch(/reserved/);
    expect(channelNameProblem('#server-to-user-1', { userChannel: true })).toBeNull();
    expect(eventNameProblem('e'.repeat(201))).toMatch(/200/);
    expect(eventNameProblem('')).not.toBeNull();
  });
});

describe('options and queries', () => {
  it('defaults to the dev app and refuses duplicates', () => {
    expect(resolveApps(undefined, false)[0]).toMatchObject({ appId: '100001', enableClientMessages: true });
    expect(resolveApps(undefined, true)[0]!.key).not.toBe('sandbox_dev_realtime_key');
    const app = { appId: '1', key: 'k', secret: 's' };
    expect(() => resolveApps([app, { ...app, key: 'k2' }], false)).toThrow(/twice/);
    expect(() => resolveApps([{ ...app, key: 'a/b' }], false)).toThrow(TypeError);
  });

  it('decides limits and refuses impossible ones', () => {
    const s = resolveSettings({});
    expect(s).toMatchObject({
      activityTimeoutSeconds: 120,
      maxPayloadBytes: 10_240,
      maxPresenceMembers: 100,
    });
    expect(() => resolveSettings({ clientEventsPerSecond: 0 })).toThrow(RangeError);
    expect(() => resolveSettings({ httpRateLimit: { limit: 0, intervalMs: 1 } })).toThrow(RangeError);
  });

  it('backs webhook retries off exponentially, capped', () => {
    const o = resolveSettings({ webhooks: { retryDelayMs: 100, maxRetryDelayMs: 500 } }).webhooks;
    expect([1, 2, 3, 4].map((n) => webhookRetryDelay(o, n))).toEqual([100, 200, 400, 500]);
  });

  it('parses unescaped and escaped query values alike, lowercasing keys', () => {
    expect(parseQuery('info=user_count,subscription_count&Filter_By_Prefix=presence-')).toEqual({
      info: 'user_count,subscription_count',
      filter_by_prefix: 'presence-',
    });
    const params = parseQuery('info=user_count%2Csubscription_count&x=%zz&__proto__=1');
    expect(Object.entries(params)).toEqual([
      ['info', 'user_count,subscription_count'],
      ['x', '%zz'],
      ['__proto__', '1'],
    ]);
    expect(Object.getPrototypeOf(params)).toBeNull();
  });
});
