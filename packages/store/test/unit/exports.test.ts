import { ERROR_CLASSES } from '@x/core';
import { describe, expect, it } from 'vitest';
import { errorDrift, schemaNames } from '../../../../exports.shared.js';
import * as store from '../../src/index.js';

describe('@x/store entry', () => {
  it("re-exports every error class of core's ERROR_CLASSES, as core's own classes, and none besides", () => {
    expect(errorDrift(store, ERROR_CLASSES, [])).toEqual({
      missing: [],
      notCore: [],
      unlisted: [],
      ownMissing: [],
    });
  });

  it('exports zod schemas only as <name>Schema', () => {
    const schemas = schemaNames(store);
    expect(schemas.length).toBeGreaterThan(0);
    expect(schemas.filter((name) => !name.endsWith('Schema'))).toEqual([]);
  });
});
