import { ERROR_CLASSES } from '@x/core';
import { describe, expect, it } from 'vitest';
import { errorDrift, schemaNames } from '../../../../exports.shared.js';
import * as storefront from '../../src/storefront/index.js';

describe('@x/store/storefront entry', () => {
  it("re-exports core's ERROR_CLASSES as core's classes, plus its own CartConflictError", () => {
    expect(errorDrift(storefront, ERROR_CLASSES, ['CartConflictError'])).toEqual({
      missing: [],
      notCore: [],
      unlisted: [],
      ownMissing: [],
    });
  });

  it('exports zod schemas only as <name>Schema', () => {
    const schemas = schemaNames(storefront);
    expect(schemas).toContain('cartSchema');
    expect(schemas.filter((name) => !name.endsWith('Schema'))).toEqual([]);
  });

  it('carries none of the admin client (no keys in a browser)', () => {
    expect(Object.keys(storefront)).not.toContain('StoreClient');
    expect(Object.keys(storefront)).not.toContain('oauthBaseString');
  });
});
