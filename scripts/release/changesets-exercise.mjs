#!/usr/bin/env node
// Independent versioning, exercised in a scratch copy (the checkout is never touched): the package.json
// and CHANGELOG.md files, pnpm-workspace.yaml and .changeset/config.json are copied to a temp dir, the
// repo's pending changesets are left out (they would bump every package), one changeset is written, and
// `changeset version` runs there. Every package.json is then compared with the checkout's.
//
// What changesets does with `workspace:^` (asserted below, so a changesets upgrade that changes it shows):
// the range text stays `workspace:^` in the source; pnpm turns it into `^<version of @x/core at publish
// time>` when it packs. A dependent is bumped only when the new @x/core is outside its current range:
// a patch of core (0.1.0 -> 0.1.1, inside ^0.1.0) leaves store and realtime alone; a minor at 0.x
// (0.1.0 -> 0.2.0, outside ^0.1.0) gives each dependent a patch with an "Updated dependencies" entry.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const workspaces = ['packages', 'apps'].flatMap((dir) =>
  readdirSync(join(root, dir))
    .map((name) => join(dir, name))
    .filter((rel) => existsSync(join(root, rel, 'package.json'))),
);
const read = (base, rel) => JSON.parse(readFileSync(join(base, rel, 'package.json'), 'utf8'));
const before = Object.fromEntries(workspaces.map((rel) => [rel, read(root, rel)]));

/** Runs `changeset version` on a fresh scratch copy with one changeset; returns what changed per package. */
function version(bumps, summary) {
  const scratch = mkdtempSync(join(tmpdir(), 'x-sdk-changesets-'));
  try {
    const files = ['package.json', 'pnpm-workspace.yaml', '.changeset/config.json'];
    for (const rel of workspaces) files.push(join(rel, 'package.json'), join(rel, 'CHANGELOG.md'));
    for (const file of files) {
      if (!existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(scratch, file)), { recursive: true });
      cpSync(join(root, file), join(scratch, file));
    }
    // changesets loads its changelog generator from node_modules.
    symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
    const front = Object.entries(bumps).map(([name, type]) => `"${name}": ${type}`);
    writeFileSync(join(scratch, '.changeset/exercise.md'), `---\n${front.join('\n')}\n---\n\n${summary}\n`);
    execFileSync(join(root, 'node_modules/.bin/changeset'), ['version'], { cwd: scratch, stdio: 'pipe' });
    const changes = {};
    for (const rel of workspaces) {
      const after = read(scratch, rel);
      const was = before[rel];
      // Every field other than version and the dependency maps must be byte-for-byte the same.
      const strip = ({
        version: _v,
        dependencies: _d,
        devDependencies: _dd,
        peerDependencies: _p,
        ...rest
      }) => rest;
      if (JSON.stringify(strip(after)) !== JSON.stringify(strip(was)))
        throw new Error(`${rel}: fields other than version and dependencies changed`);
      const moved = [];
      if (after.version !== was.version) moved.push(`version ${was.version} -> ${after.version}`);
      for (const field of ['dependencies', 'devDependencies', 'peerDependencies']) {
        for (const [dep, range] of Object.entries(after[field] ?? {})) {
          if (was[field]?.[dep] !== range) moved.push(`${field}.${dep} ${was[field]?.[dep]} -> ${range}`);
        }
      }
      const changelog = existsSync(join(scratch, rel, 'CHANGELOG.md'))
        ? readFileSync(join(scratch, rel, 'CHANGELOG.md'), 'utf8')
        : '';
      if (moved.length) changes[after.name] = { moved, version: after.version, changelog };
    }
    return changes;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

let failed = false;
function expect(label, changes, expected) {
  const got = Object.fromEntries(Object.entries(changes).map(([name, c]) => [name, c.moved.join('; ')]));
  const problems = [];
  for (const [name, moved] of Object.entries(expected))
    if (got[name] !== moved) problems.push(`${name}: expected "${moved}", got "${got[name] ?? 'nothing'}"`);
  for (const name of Object.keys(got))
    if (!(name in expected)) problems.push(`${name} moved but should not have: ${got[name]}`);
  for (const [name, { version, changelog }] of Object.entries(changes)) {
    // The entry changesets writes: "## <version>" then "### Patch Changes" (or Minor) and the summary.
    const entry = new RegExp(`^## ${version.replaceAll('.', '\\.')}\\n\\n### (Patch|Minor) Changes\\n`, 'm');
    if (!entry.test(changelog)) problems.push(`${name}: CHANGELOG.md has no "## ${version}" entry`);
  }
  console.log(`${problems.length ? 'FAIL' : 'ok'} ${label}`);
  for (const [name, moved] of Object.entries(got)) console.log(`    ${name}: ${moved}`);
  for (const problem of problems) console.error(`    ${problem}`);
  if (problems.length) failed = true;
  return changes;
}

const v = (name) => Object.values(before).find((p) => p.name === name).version;
const patch = (version) => version.replace(/\d+$/, (n) => String(Number(n) + 1));
const minor = (version) => version.replace(/^(\d+)\.(\d+)\.\d+/, (_, a, b) => `${a}.${Number(b) + 1}.0`);

const one = expect(
  'patch @x/transcription + patch @x/core: only those two versions move; store and realtime keep workspace:^ and their versions',
  version({ '@x/transcription': 'patch', '@x/core': 'patch' }, 'Exercise: a patch.'),
  {
    '@x/core': `version ${v('@x/core')} -> ${patch(v('@x/core'))}`,
    '@x/transcription': `version ${v('@x/transcription')} -> ${patch(v('@x/transcription'))}`,
  },
);
if (!one['@x/core']?.changelog.includes('- Exercise: a patch.')) {
  console.error('    @x/core: CHANGELOG.md lacks the changeset summary');
  failed = true;
}

// 0.x: a minor of core leaves every caret range on it, so changesets patches each dependent.
const dependents = Object.values(before)
  .filter((p) => !p.private && p.dependencies?.['@x/core'])
  .map((p) => p.name);
const two = expect(
  `minor @x/core at 0.x: core ${v('@x/core')} -> ${minor(v('@x/core'))}, and its dependents (${dependents.join(', ')}) get a patch; ranges stay workspace:^`,
  version({ '@x/core': 'minor' }, 'Exercise: a minor.'),
  {
    '@x/core': `version ${v('@x/core')} -> ${minor(v('@x/core'))}`,
    ...Object.fromEntries(dependents.map((name) => [name, `version ${v(name)} -> ${patch(v(name))}`])),
  },
);
for (const name of dependents) {
  if (!two[name]?.changelog.includes(`- @x/core@${minor(v('@x/core'))}`)) {
    console.error(
      `    ${name}: CHANGELOG.md lacks "Updated dependencies ... @x/core@${minor(v('@x/core'))}"`,
    );
    failed = true;
  }
}
if (failed) process.exit(1);
