import * as core from '@x/core';
import { describe, expect, it } from 'vitest';
import { RealtimeClient, RealtimeError, ValidationError } from '../../src/index.js';
import * as server from '../../src/server.js';

/** The client throws @x/core's own classes (through `@x/core/base`), so there is one class each, not a twin. */
describe('client errors are core’s classes', () => {
  it('@x/realtime, @x/realtime/server and @x/core export the same ValidationError and RealtimeError', () => {
    expect(ValidationError).toBe(core.ValidationError);
    expect(RealtimeError).toBe(core.RealtimeError);
    expect(server.ValidationError).toBe(ValidationError);
    expect(server.RealtimeError).toBe(RealtimeError);
  });

  it('an option the client refuses is core’s ValidationError, naming the field', () => {
    let thrown: unknown;
    try {
      new RealtimeClient('app-key', { cluster: 'eu', wsPort: 0 });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(core.ValidationError);
    expect(Object.getPrototypeOf(thrown)).toBe(core.ValidationError.prototype);
    expect((thrown as core.ValidationError).issues.map((issue) => issue.path)).toEqual(['wsPort']);
  });
});
