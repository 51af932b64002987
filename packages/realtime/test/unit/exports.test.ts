import { ERROR_CLASSES } from '@x/core';
import { describe, expect, it } from 'vitest';
import { errorClassNames, errorDrift, schemaNames } from '../../../../exports.shared.js';
import * as client from '../../src/index.js';
import * as react from '../../src/react.js';
import * as server from '../../src/server.js';

describe('@x/realtime/server', () => {
  it("re-exports every error class of core's ERROR_CLASSES, as core's own classes, beside its own", () => {
    expect(errorDrift(server, ERROR_CLASSES, ['WebhookVerificationError'])).toEqual({
      missing: [],
      notCore: [],
      unlisted: [],
      ownMissing: [],
    });
  });

  it('exports zod schemas only as <name>Schema', () => {
    const schemas = schemaNames(server);
    expect(schemas.length).toBeGreaterThan(0);
    expect(schemas.filter((name) => !name.endsWith('Schema'))).toEqual([]);
  });
});

describe('@x/realtime (the browser client)', () => {
  // The client's budget (8 KB gzip) keeps core's root entry out of it: it takes the two errors it throws from
  // `@x/core/base` and exports those alone, as core's own classes, so `instanceof` agrees everywhere.
  it("exports only the errors it throws, each the class of core's ERROR_CLASSES", () => {
    expect(errorClassNames(client)).toEqual(['RealtimeError', 'ValidationError']);
    expect(client.RealtimeError).toBe(ERROR_CLASSES.RealtimeError);
    expect(client.ValidationError).toBe(ERROR_CLASSES.ValidationError);
  });

  it('exports no zod schema (payloads are checked with the Standard Schemas a contract brings)', () => {
    expect(schemaNames(client)).toEqual([]);
  });
});

describe('@x/realtime/react', () => {
  it('exports hooks and a provider: no error class, no schema', () => {
    expect(errorClassNames(react)).toEqual([]);
    expect(schemaNames(react)).toEqual([]);
  });
});
