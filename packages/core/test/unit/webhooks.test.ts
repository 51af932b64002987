import { describe, expect, it } from 'vitest';
import { hmac, timingSafeEqual, verifyHmac } from '../../src/webhooks.js';

// RFC 4231 test case 2 and RFC 2202 test case 2.
const KEY = 'Jefe';
const DATA = 'what do ya want for nothing?';

describe('hmac', () => {
  it('matches the RFC test vectors in hex and base64', async () => {
    expect(await hmac('SHA-256', KEY, DATA, 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
    expect(await hmac('SHA-1', KEY, DATA, 'hex')).toBe('effcdf6ae5eb2fa2d27416d5f184df9c259a7c79');
    expect(await hmac('SHA-256', KEY, DATA, 'base64')).toBe('W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=');
    expect(await hmac('SHA-256', new TextEncoder().encode(KEY), new TextEncoder().encode(DATA), 'hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('verifies only the exact signature of the exact bytes', async () => {
    const signature = await hmac('SHA-256', 'secret', '{"id":1}', 'base64');
    expect(
      await verifyHmac({
        algorithm: 'SHA-256',
        secret: 'secret',
        payload: '{"id":1}',
        signature,
        encoding: 'base64',
      }),
    ).toBe(true);
    expect(
      await verifyHmac({
        algorithm: 'SHA-256',
        secret: 'secret',
        payload: '{"id": 1}',
        signature,
        encoding: 'base64',
      }),
    ).toBe(false);
    expect(
      await verifyHmac({
        algorithm: 'SHA-256',
        secret: 'other',
        payload: '{"id":1}',
        signature,
        encoding: 'base64',
      }),
    ).toBe(false);
    expect(
      await verifyHmac({
        algorithm: 'SHA-256',
        secret: 'secret',
        payload: '{"id":1}',
        signature: null,
        encoding: 'base64',
      }),
    ).toBe(false);
    const hex = await hmac('SHA-256', 'secret', 'x', 'hex');
    expect(
      await verifyHmac({
        algorithm: 'SHA-256',
        secret: 'secret',
        payload: 'x',
        signature: hex.toUpperCase(),
        encoding: 'hex',
      }),
    ).toBe(true);
  });
});

describe('timingSafeEqual', () => {
  it('compares by value whatever the lengths', () => {
    expect(timingSafeEqual('abc', 'abc')).toBe(true);
    expect(timingSafeEqual('abd', 'abc')).toBe(false);
    expect(timingSafeEqual('ab', 'abc')).toBe(false);
    expect(timingSafeEqual('abcd', 'abc')).toBe(false);
    expect(timingSafeEqual('', 'a')).toBe(false);
    expect(timingSafeEqual('', '')).toBe(true);
  });
});
