/**
 * The check behind every package's `test/unit/exports.test.ts`: does a public entry re-export @x/core's
 * error classes (core's `ERROR_CLASSES`) complete and as the same classes, beside the package's own?
 * It imports nothing (the root has no @x/core to import); each test passes core's list in.
 */

/** The names of the classes an entry exports whose instances are `Error`s (core's, the package's, any). */
export function errorClassNames(entry: Record<string, unknown>): string[] {
  return Object.keys(entry)
    .filter((name) => {
      const value = entry[name];
      return typeof value === 'function' && value.prototype instanceof Error;
    })
    .sort();
}

export interface ErrorDrift {
  /** In core's list, not exported by the entry. */
  missing: string[];
  /** Exported under a name of core's list, but not core's class (a copy, or a class of the same name). */
  notCore: string[];
  /** Error classes the entry exports that are neither core's nor listed as the package's own. */
  unlisted: string[];
  /** Listed as the package's own, not exported by the entry. */
  ownMissing: string[];
}

/**
 * How an entry's error classes differ from core's list plus the package's `own` classes; every field is
 * empty when they agree. Pass `coreClasses` = `{}` for an entry that deliberately exports none of core's.
 */
export function errorDrift(
  entry: Record<string, unknown>,
  coreClasses: Record<string, unknown>,
  own: readonly string[],
): ErrorDrift {
  const exported = errorClassNames(entry);
  const core = Object.keys(coreClasses).sort();
  return {
    missing: core.filter((name) => !(name in entry)),
    notCore: core.filter((name) => name in entry && entry[name] !== coreClasses[name]),
    unlisted: exported.filter((name) => !(name in coreClasses) && !own.includes(name)),
    ownMissing: own.filter((name) => !exported.includes(name)),
  };
}

/** The names under which an entry exports zod schemas (objects carrying zod's `_zod` internals). */
export function schemaNames(entry: Record<string, unknown>): string[] {
  return Object.keys(entry)
    .filter((name) => {
      const value = entry[name];
      return typeof value === 'object' && value !== null && '_zod' in value;
    })
    .sort();
}
