import { describe, expect, it } from 'vitest';
import { errorClassNames, errorDrift } from '../../../../exports.shared.js';
import * as base from '../../src/base/index.js';
import * as core from '../../src/index.js';
import { XError } from '../../src/index.js';
import * as redis from '../../src/redis.js';
import * as socket from '../../src/socket/index.js';

describe('@x/core error list', () => {
  it('ERROR_CLASSES is every error class the entry exports, each the exported class itself', () => {
    expect(errorDrift(core, core.ERROR_CLASSES, [])).toEqual({
      missing: [],
      notCore: [],
      unlisted: [],
      ownMissing: [],
    });
    expect(Object.keys(core.ERROR_CLASSES).sort()).toEqual(errorClassNames(core));
  });

  it('every listed class is XError or extends it, and is branded with its own name', () => {
    for (const [name, ErrorClass] of Object.entries(core.ERROR_CLASSES)) {
      expect(ErrorClass === XError || Object.prototype.isPrototypeOf.call(XError, ErrorClass)).toBe(true);
      // The brand is what `instanceof` and `error.name` use: a class listed under another name would lie.
      expect(ErrorClass.brand).toBe(name);
    }
  });

  // The subpaths export only the errors their code throws (the browser's budget keeps the root entry out of
  // `./base` and `./socket`), but each must be the class of the list, or `instanceof` would split in two.
  it.each([
    {
      subpath: '@x/core/base',
      entry: base as Record<string, unknown>,
      errors: ['RealtimeError', 'ValidationError', 'XError'],
    },
    { subpath: '@x/core/redis', entry: redis as Record<string, unknown>, errors: ['RateLimitStoreError'] },
    { subpath: '@x/core/socket', entry: socket as Record<string, unknown>, errors: [] },
  ])("$subpath exports its errors as the classes of core's ERROR_CLASSES", ({ entry, errors }) => {
    expect(errorClassNames(entry)).toEqual(errors);
    for (const name of errors)
      expect(entry[name]).toBe(core.ERROR_CLASSES[name as keyof typeof core.ERROR_CLASSES]);
  });
});
