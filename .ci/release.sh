#!/usr/bin/env bash
# The release path, end to end, without touching the checkout the other CI steps test:
#  1. changesets: independent versioning in a scratch copy (scripts/release/changesets-exercise.mjs);
#  2. a throwaway Verdaccio (storage in a temp dir, no uplinks): `pnpm release` publishes every public
#     package at its current version to it, through the usual npm config (`@x:registry=` in a temp
#     userconfig), with provenance off (it needs a CI OIDC identity) and no git tags;
#  3. packaging: the tarballs as published, downloaded back, hold only dist/, README.md, LICENSE,
#     CHANGELOG.md and package.json, with caret ranges (`pnpm release` checked what it packed before too);
#  4. selective installs: each service package alone in a fresh npm project outside the workspace, @x/*
#     from Verdaccio and everything else from the public registry, runs an ESM and a CommonJS script against
#     a sandbox started from the workspace; then the footprint of each next to the official SDKs'.
# Needs `pnpm install` and `pnpm build` done (CI's earlier steps). Prints the time of each phase.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
started=$(date +%s)
phase() { printf -- '--- %s (%ss)\n' "$1" "$(($(date +%s) - started))"; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/x-sdk-release.XXXXXX")
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
# Waits up to 30 s for a log line (a server's "ready"), or fails with the log.
wait_for() {
  local file=$1 pattern=$2 name=$3
  for _ in $(seq 1 150); do
    if grep -q "$pattern" "$file" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "$name did not start:" >&2
  cat "$file" >&2
  return 1
}
# The checkout must come out of this step as it went in (if it is a git checkout at all).
status_before=$(git status --porcelain 2>/dev/null || true)

phase "changesets: independent versioning in a scratch copy"
node scripts/release/changesets-exercise.mjs

phase "Verdaccio (throwaway: storage in $tmp/storage, no uplinks)"
port=$(free_port)
registry="http://127.0.0.1:$port/"
# Only @x/* lives here; with no uplinks, anything else asked of it is a 404, so the installs below take
# third-party packages from the public registry through the scoped `@x:registry` setting instead.
cat >"$tmp/verdaccio.yaml" <<EOF
storage: $tmp/storage
auth:
  htpasswd:
    file: $tmp/htpasswd
    max_users: 1
uplinks: {}
packages:
  '@x/*':
    access: \$all
    publish: \$authenticated
  '**':
    access: \$all
web:
  enable: false
log: { type: stdout, format: pretty, level: warn }
EOF
# The bin shim execs node, so $! is Verdaccio itself.
node_modules/.bin/verdaccio --config "$tmp/verdaccio.yaml" --listen "127.0.0.1:$port" >"$tmp/verdaccio.log" 2>&1 &
pids+=($!)
up=false
for _ in $(seq 1 150); do
  if node -e 'fetch(process.argv[1] + "-/ping").then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))' "$registry"; then
    up=true
    break
  fi
  sleep 0.2
done
if [ "$up" != true ]; then
  echo "Verdaccio did not answer on $registry within 30 s:" >&2
  cat "$tmp/verdaccio.log" >&2
  exit 1
fi
# A user, created non-interactively the way `npm adduser` does it: PUT /-/user/org.couchdb.user:<name>.
token=$(node -e '
  fetch(`${process.argv[1]}-/user/org.couchdb.user:ci`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "ci", password: "dry-run-only" }),
  }).then(async (r) => {
    const body = await r.json();
    if (!body.token) throw new Error(`no token: ${r.status} ${JSON.stringify(body)}`);
    console.log(body.token);
  })' "$registry")
# A user config of our own (the machine's, if any, first), so the checkout's files stay as they are.
userconfig=$(npm config get userconfig 2>/dev/null || true)
{
  if [ -f "$userconfig" ]; then cat "$userconfig"; echo; fi
  echo "@x:registry=$registry"
  echo "//127.0.0.1:$port/:_authToken=$token"
} >"$tmp/npmrc"
export NPM_CONFIG_USERCONFIG="$tmp/npmrc"
echo "Verdaccio on $registry, user ci"

phase "pnpm release (dry run against Verdaccio)"
# --no-provenance: provenance is signed with the CI's OIDC identity (GitHub Actions id-token), which this
# machine does not have; npm would refuse to publish. --no-git-tag: no tags in the checkout's repository.
pnpm release --no-provenance --no-git-tag
npm view @x/store --registry "$registry"

phase "packaging: the published tarballs"
mkdir -p "$tmp/published"
names=()
for dir in packages/*/; do
  read -r name private < <(node -p 'const p = require(`./${process.argv[1]}package.json`); `${p.name} ${Boolean(p.private)}`' "$dir")
  if [ "$private" = false ]; then names+=("$name@$(node -p "require('./${dir}package.json').version")"); fi
done
(cd "$tmp/published" && npm pack --silent --registry "$registry" "${names[@]}" >/dev/null)
node scripts/release/check-pack.mjs "$tmp/published"/*.tgz

phase "selective installs"
# The official SDKs, pinned to the catalog's versions, install in the background while ours run.
catalog() { node -e 'const m = require("fs").readFileSync("pnpm-workspace.yaml", "utf8").match(new RegExp(`^  "?${process.argv[1]}"?: (.+)$`, "m")); console.log(m[1])' "$1"; }
fresh_install() {
  local dir=$1
  shift
  mkdir -p "$dir"
  echo '{ "name": "selective-install", "private": true }' >"$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error "$@" >/dev/null)
}
official=(
  "@woocommerce/woocommerce-rest-api@$(catalog @woocommerce/woocommerce-rest-api)"
  "assemblyai@$(catalog assemblyai)"
  "pusher@$(catalog pusher) pusher-js@$(catalog pusher-js)"
)
official_pids=()
for i in "${!official[@]}"; do
  # shellcheck disable=SC2086 # word splitting of "pusher@x pusher-js@y" is intended
  fresh_install "$tmp/official/$i" ${official[$i]} &
  official_pids+=($!)
  pids+=($!)
done

sport=$(free_port)
node packages/sandbox/dist/cli.js --port "$sport" --transcription --realtime >"$tmp/sandbox.log" 2>&1 &
pids+=($!)
wait_for "$tmp/sandbox.log" 'Ctrl+C to stop' sandbox
# The sandbox's fixed dev credentials, from its own exports.
eval "$(node --input-type=module -e '
  import { REALTIME_DEV_APP, STORE_DEV_KEYS, TRANSCRIPTION_DEV_KEY } from "./packages/sandbox/dist/index.js";
  const rw = STORE_DEV_KEYS.read_write;
  console.log(`export X_STORE_KEY=${rw.consumerKey} X_STORE_SECRET=${rw.consumerSecret}`);
  console.log(`export X_TRANSCRIPTION_KEY=${TRANSCRIPTION_DEV_KEY}`);
  console.log(`export X_REALTIME_APP_ID=${REALTIME_DEV_APP.appId} X_REALTIME_KEY=${REALTIME_DEV_APP.key} X_REALTIME_SECRET=${REALTIME_DEV_APP.secret}`);
')"
export X_SANDBOX_URL="http://127.0.0.1:$sport"

footprint=()
for service in store transcription realtime; do
  dir="$tmp/x/$service"
  fresh_install "$dir" "@x/$service"
  cp ".ci/fixtures/selective/$service.mjs" ".ci/fixtures/selective/$service.cjs" "$dir/"
  (cd "$dir" && node "$service.mjs" && node "$service.cjs")
  footprint+=("@x/$service=$dir")
done
for pid in "${official_pids[@]}"; do wait "$pid"; done
for i in "${!official[@]}"; do footprint+=("${official[$i]// / + }=$tmp/official/$i"); done

phase "footprint (npm install of each alone, node_modules)"
node scripts/release/footprint.mjs "${footprint[@]}"

if [ "$(git status --porcelain 2>/dev/null || true)" != "$status_before" ]; then
  echo "the release step changed the checkout:" >&2
  git status --porcelain >&2
  exit 1
fi
phase "done"
