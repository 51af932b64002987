import * as core from '@x/core';
import { describe, expect, it } from 'vitest';
import { RealtimeError, ValidationError } from '../../src/index.js';

describe('client errors follow core’s brand protocol', () => {
  it('instanceof holds with core’s classes in both directions', () => {
    const error = new RealtimeError('connection refused: 4009', { closeCode: 4009 });
    expect(error).toBeInstanceOf(core.RealtimeError);
    expect(error).toBeInstanceOf(core.XError);
    expect(error).toBeInstanceOf(Error);
    expect(new core.RealtimeError('x', { code: 4301 })).toBeInstanceOf(RealtimeError);
    expect(error).not.toBeInstanceOf(core.APIError);
    expect(error.name).toBe('RealtimeError');
    expect(error.toJSON()).toEqual(
      new core.RealtimeError('connection refused: 4009', { closeCode: 4009 }).toJSON(),
    );
  });

  it('ValidationError matches core’s shape and message', () => {
    const issues = [{ path: 'name', message: 'must be a non-empty string' }];
    const ours = new ValidationError('channel name', issues);
    const theirs = new core.ValidationError('channel name', issues);
    expect(ours).toBeInstanceOf(core.ValidationError);
    expect(ours).toBeInstanceOf(core.XError);
    expect(theirs).toBeInstanceOf(ValidationError);
    expect(ours.message).toBe(theirs.message);
    expect(ours.toJSON()).toEqual(theirs.toJSON());
    expect(ours).not.toBeInstanceOf(RealtimeError);
  });
});
