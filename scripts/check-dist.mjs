#!/usr/bin/env node
// Each public package's `prepack` (run by `pnpm pack`, `npm pack` and `pnpm publish`, so by `pnpm release` too).
// `files: ["dist"]` packs whatever dist/ holds, and without a build that is nothing: the tarball installs, and
// only fails at the first import. This refuses to pack then. It checks rather than builds, because a service
// package's build needs @x/core built first (turbo knows that order; a prepack in one package does not), and
// a release must pack what was built and checked just before, not a fresh build. Silent on success: `pnpm pack
// --json` (scripts/release/check-pack.mjs) parses what it prints.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const dir = process.cwd();
const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));

/** Every ./dist/... path the package's entry points name (main, module, types, exports, imports, typesVersions). */
function distPaths(value, out = new Set()) {
  if (typeof value === 'string') {
    if (value.startsWith('./dist/') && !value.includes('*')) out.add(value);
  } else if (Array.isArray(value)) {
    for (const v of value) distPaths(v, out);
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) distPaths(v, out);
  }
  return out;
}

const entries = distPaths([pkg.main, pkg.module, pkg.types, pkg.exports, pkg.imports, pkg.typesVersions]);
const missing = [...entries].filter((path) => !existsSync(join(dir, path)));
if (missing.length > 0) {
  const where = relative(process.env.INIT_CWD ?? dir, dir) || '.';
  process.stderr.write(
    `${pkg.name}: not packed, because it is not built: ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} missing (in ${where}).\n` +
      `Build it first: \`pnpm turbo run build --filter=${pkg.name}...\` (it and the packages it uses), or \`pnpm build\` at the repository root.\n`,
  );
  process.exit(1);
}
