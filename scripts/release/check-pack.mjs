#!/usr/bin/env node
// What a user downloads: for every public package, the tarball holds only dist/**, README.md, LICENSE,
// CHANGELOG.md and package.json (plus the files its `bin` names), and every dependency range in the packed
// package.json is a caret range.
//
//   node scripts/release/check-pack.mjs              packs each public package under packages/ with pnpm
//   node scripts/release/check-pack.mjs a.tgz b.tgz  checks these tarballs (e.g. downloaded from a registry)
//
// It packs with `pnpm pack`, not `npm pack --dry-run`: pnpm is what publishes (changesets runs `pnpm publish`),
// and only pnpm rewrites `workspace:^` and `catalog:` into the real ranges; npm would pack them verbatim.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const REQUIRED = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md'];
// A caret range on a full version (^1.2.3, ^0.4.6, ^4.6.7-beta.1); `^1` or `^1.x` would be carets too,
// but nothing here writes them, so they would be a mistake worth a look.
const CARET = /^\^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

/** Lists a tarball's files (without npm's `package/` prefix) and reads its package.json. */
function readTarball(file) {
  const files = execFileSync('tar', ['-tzf', file], { encoding: 'utf8' })
    .split('\n')
    .filter((line) => line && !line.endsWith('/'))
    .map((line) => line.replace(/^package\//, ''));
  const manifest = JSON.parse(
    execFileSync('tar', ['-xzOf', file, 'package/package.json'], { encoding: 'utf8' }),
  );
  return { files, manifest };
}

/** Problems with one packed package; an empty list when it is fine. */
function checkTarball({ files, manifest }) {
  const problems = [];
  const bins = new Set(
    Object.values(
      typeof manifest.bin === 'string' ? { [manifest.name]: manifest.bin } : (manifest.bin ?? {}),
    ).map((path) => path.replace(/^\.\//, '')),
  );
  for (const file of files) {
    const allowed = file.startsWith('dist/') || REQUIRED.includes(file) || bins.has(file);
    if (!allowed) problems.push(`unexpected file in the tarball: ${file}`);
  }
  for (const file of REQUIRED) if (!files.includes(file)) problems.push(`missing from the tarball: ${file}`);
  if (!files.some((file) => file.startsWith('dist/'))) problems.push('no dist/ in the tarball (not built?)');
  for (const field of ['dependencies', 'optionalDependencies']) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (!CARET.test(range)) problems.push(`${field}.${name} is "${range}", not a caret range`);
    }
  }
  // Peer ranges are the user's to satisfy, often wider than a caret (ioredis >=5); they must still not be
  // an exact pin or a workspace/catalog reference left unrewritten.
  for (const [name, range] of Object.entries(manifest.peerDependencies ?? {})) {
    if (/^(workspace|catalog):/.test(range) || /^\d+\.\d+\.\d+$/.test(range)) {
      problems.push(`peerDependencies.${name} is "${range}"`);
    }
  }
  return problems;
}

/** Public packages under packages/, packed with pnpm into `dir`; yields [name, tarball, source manifest]. */
function* packWorkspace(dir) {
  for (const entry of readdirSync(join(root, 'packages')).sort()) {
    const pkgDir = join(root, 'packages', entry);
    if (!existsSync(join(pkgDir, 'package.json'))) continue;
    const source = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    if (source.private) continue;
    const out = execFileSync('pnpm', ['pack', '--pack-destination', dir, '--json'], {
      cwd: pkgDir,
      encoding: 'utf8',
    });
    // The output starts with the `prepack` script's header (scripts/check-dist.mjs), then the JSON.
    yield [source.name, JSON.parse(out.slice(out.search(/^\{/m))).filename, source];
  }
}

const args = process.argv.slice(2);
const scratch = args.length ? undefined : mkdtempSync(join(tmpdir(), 'x-sdk-pack-'));
let failed = false;
try {
  const tarballs = scratch
    ? [...packWorkspace(scratch)]
    : args.map((file) => [undefined, resolve(file), undefined]);
  for (const [name, file, source] of tarballs) {
    const packed = readTarball(file);
    const problems = checkTarball(packed);
    // The source side of the CHANGELOG rule: the file exists and `files` names it (npm does not add a
    // CHANGELOG on its own).
    if (source && !source.files?.includes('CHANGELOG.md'))
      problems.push('package.json "files" lacks CHANGELOG.md');
    const deps = Object.entries(packed.manifest.dependencies ?? {})
      .map(([dep, range]) => `${dep}@${range}`)
      .join(' ');
    const label = `${name ?? packed.manifest.name}@${packed.manifest.version}`;
    if (problems.length) {
      failed = true;
      console.error(`FAIL ${label}:\n  ${problems.join('\n  ')}`);
    } else {
      console.log(`ok ${label}: ${packed.files.length} files; dependencies ${deps || 'none'}`);
    }
  }
} finally {
  if (scratch) rmSync(scratch, { recursive: true, force: true });
}
if (failed) process.exit(1);
