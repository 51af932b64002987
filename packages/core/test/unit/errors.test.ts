import { describe, expect, it } from 'vitest';
import {
  APIError,
  ConnectionError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  XError,
} from '../../src/errors.js';

describe('error hierarchy', () => {
  it('instanceof follows the brand chain', () => {
    const error = APIError.from({
      status: 404,
      code: 'not_here',
      message: 'Gone.',
      requestId: 'r1',
      headers: new Headers(),
      body: null,
    });
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toBeInstanceOf(APIError);
    expect(error).toBeInstanceOf(XError);
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(RateLimitError);
    expect(error.name).toBe('NotFoundError');
    expect(new TimeoutError('t')).toBeInstanceOf(ConnectionError);
    expect(new ConnectionError('c')).not.toBeInstanceOf(TimeoutError);
    expect({}).not.toBeInstanceOf(XError);
  });

  it('a foreign object carrying the brand (another loaded copy) is recognised', () => {
    const foreign = new (class extends Error {})('from another copy');
    Object.defineProperty(foreign, Symbol.for('@x/core/error-brands'), {
      value: ['NotFoundError', 'APIError', 'XError'],
    });
    expect(foreign).toBeInstanceOf(NotFoundError);
    expect(foreign).toBeInstanceOf(XError);
    expect(foreign).not.toBeInstanceOf(RateLimitError);
  });

  it('urls in errors lose their credentials', () => {
    const error = APIError.from({
      status: 401,
      message: 'no',
      headers: new Headers(),
      body: null,
      url: 'https://user:pw@shop.test/x?consumer_secret=cs_abc&page=1',
    });
    expect(error.url).toBe('https://shop.test/x?consumer_secret=[REDACTED]&page=1');
    expect(JSON.stringify(error)).not.toContain('cs_abc');
  });
});
