#!/usr/bin/env node
// `pnpm release`: build, check every public package (publint + arethetypeswrong, size budgets, tarball
// contents and ranges), then `changeset publish`, which publishes each public package whose current version
// is not yet on the registry (versions come from `pnpm changeset version`, run and committed before).
//
//   pnpm release                                  to the registry of the usual npm config, with provenance
//   pnpm release --registry http://127.0.0.1:4873 --no-provenance --no-git-tag      (the CI dry run)
//
// Options: --registry URL (else npm config's `@x:registry`, else its `registry`), --no-provenance,
// --no-git-tag (passed to changesets: no git tags for the published versions), --tag NAME (a dist-tag).
import { execFileSync, spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    registry: { type: 'string' },
    // Node 20's parseArgs has no negated booleans (allowNegative is Node 22), hence the explicit no- options.
    'no-provenance': { type: 'boolean', default: false },
    'no-git-tag': { type: 'boolean', default: false },
    tag: { type: 'string' },
  },
});
const provenance = !values['no-provenance'];
const gitTag = !values['no-git-tag'];

/** A value from npm's own config (project .npmrc, user .npmrc, npm_config_* env), or undefined. */
function npmConfig(key) {
  const value = execFileSync('npm', ['config', 'get', key], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  }).trim();
  return value && value !== 'undefined' && value !== 'null' ? value : undefined;
}

// changesets reads the registry only from npm_config_registry / npm_config_@x:registry in the environment
// (not from .npmrc) and passes that to the publish it spawns, overriding .npmrc. Resolving it here through
// npm makes `registry=` or `@x:registry=` in any .npmrc, or --registry, what both its `npm info` check and
// `pnpm publish` use.
const registry = values.registry ?? npmConfig('@x:registry') ?? npmConfig('registry');
process.env['npm_config_@x:registry'] = registry;
if (values.registry) process.env.npm_config_registry = registry;

// Provenance: npm signs a statement of which CI run built the tarball, and the registry shows it next to
// the version. It needs an OIDC identity token from the CI (GitHub Actions with `id-token: write`, or
// GitLab's SIGSTORE_ID_TOKEN); without one npm refuses to publish, so say so before building.
if (provenance) {
  const oidc = process.env.ACTIONS_ID_TOKEN_REQUEST_URL || process.env.SIGSTORE_ID_TOKEN;
  if (!oidc) {
    console.error(
      'release: npm provenance needs an OIDC token from CI (GitHub Actions with `permissions: id-token: write`,\n' +
        'or GitLab with SIGSTORE_ID_TOKEN), and none is present. Publish from CI, or pass --no-provenance for a\n' +
        'dry run against a local registry.',
    );
    process.exit(1);
  }
  process.env.npm_config_provenance = 'true';
} else {
  // Set explicitly so a `provenance=true` in some .npmrc cannot make the dry run fail for want of OIDC.
  process.env.npm_config_provenance = 'false';
  console.log(
    'release: provenance off (--no-provenance): there is no CI OIDC identity to sign it with here.',
  );
}
console.log(`release: publishing @x/* to ${registry}${gitTag ? '' : ' (no git tags)'}`);

function run(command, args) {
  console.log(`\n$ ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`release: \`${command} ${args.join(' ')}\` failed; nothing was published after it.`);
    process.exit(result.status ?? 1);
  }
}

// new-only: turbo replays nothing for a cache hit (CI built and checked just before), but shows any real work.
run('pnpm', ['build', '--output-logs=new-only']);
run('pnpm', ['check:packages', '--output-logs=new-only']);
run('pnpm', ['size', '--output-logs=new-only']);
run('node', ['scripts/release/check-pack.mjs']);
run('pnpm', [
  'exec',
  'changeset',
  'publish',
  ...(gitTag ? [] : ['--no-git-tag']),
  ...(values.tag ? ['--tag', values.tag] : []),
]);
