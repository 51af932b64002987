import { describe, expect, it } from 'vitest';
import { errorClassNames, errorDrift } from '../../../../exports.shared.js';
import * as core from '../../src/index.js';
import { XError } from '../../src/index.js';

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
});
