#!/usr/bin/env bash
# Runtimes beyond Node, one CI step (after `pnpm build`):
#  - Bun and Deno from the npm registry, each running .ci/smoke/quickstarts.mjs (every public entry loaded by
#    name from dist, then the store, transcription and realtime quick starts) against a sandbox under Node;
#  - the browser entries bundled for browsers and for a worker target with no Node built-ins
#    (.ci/browser/bundle.mjs), then loaded in Debian's Chromium (.ci/browser/smoke.mjs).
# A runtime that does not install from the registry is reported as such and fails the step; nothing is
# skipped silently. RUNTIMES="bun deno browser" (the default) picks parts, e.g. RUNTIMES=deno.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1 # plain stack traces from Deno and Bun in the CI log
root=$PWD
status=0
parts=" ${RUNTIMES:-bun deno browser} "
arch=$(node -p 'process.arch') # x64 or arm64

# The `bun` and `deno` npm packages are wrappers: their postinstall (node install.js / install.cjs) looks
# for the platform package among their optionalDependencies and otherwise fetches a tarball itself, and
# newer npm versions block dependencies' install scripts. As for Node 22/24 in .ci/run, the platform
# package (the binary itself, published on npm) is installed directly, cached per major; prints the binary.
# (Neither wrapper goes beyond the npm registry: bun's install.js falls back to `npm install` of the
# platform package, then to fetching its tarball from registry.npmjs.org; deno's uses its optional deps.)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/x-sdk-runtimes
runtime_bin() { # name npm-package@range binary-path-in-package
  local dir="$cache/$1" bin="$cache/$1/node_modules/${2%@*}/$3"
  if ! "$bin" --version >/dev/null 2>&1; then
    rm -rf "$dir"
    npm i --prefix "$dir" --no-audit --no-fund --loglevel=error "$2" >/dev/null || return 1
  fi
  echo "$bin"
}
case $arch in
  # Bun's default x64 build needs AVX2; its wrapper picks the -baseline build without it, and so do we.
  x64) bun_pkg=@oven/bun-linux-x64$(grep -qw avx2 /proc/cpuinfo || echo -baseline)@1 deno_pkg=@deno/linux-x64-glibc@2 ;;
  arm64) bun_pkg=@oven/bun-linux-aarch64@1 deno_pkg=@deno/linux-arm64-glibc@2 ;;
  *) bun_pkg="" deno_pkg="" ;;
esac

# A scratch project whose node_modules/@x/* link to the built packages, so the smoke imports them by name
# through their `exports` maps (their own dependencies resolve from packages/*/node_modules).
scratch=$(mktemp -d)
sandbox_pid=""
cleanup() {
  [ -n "$sandbox_pid" ] && kill "$sandbox_pid" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
mkdir -p "$scratch/node_modules/@x"
for p in core store transcription realtime sandbox; do ln -s "$root/packages/$p" "$scratch/node_modules/@x/$p"; done
echo '{ "name": "x-sdk-runtime-smoke", "private": true, "type": "module" }' >"$scratch/package.json"
cp .ci/smoke/quickstarts.mjs "$scratch/"

smoke() { # label command...
  local label=$1 t0
  shift
  t0=$(date +%s)
  if [ -z "$sandbox_pid" ]; then
    # The sandbox under Node; its first line is the JSON the smoke reads. Its stdin is a FIFO kept open
    # by this shell, so it ends with this script even if the trap never runs.
    mkfifo "$scratch/sandbox.in"
    node .ci/smoke/sandbox.mjs <"$scratch/sandbox.in" >"$scratch/sandbox.out" 2>"$scratch/sandbox.err" &
    sandbox_pid=$!
    exec 3>"$scratch/sandbox.in"
    for _ in $(seq 150); do [ -s "$scratch/sandbox.out" ] && break; sleep 0.2; done
    if [ ! -s "$scratch/sandbox.out" ]; then cat "$scratch/sandbox.err"; echo "sandbox did not start"; return 1; fi
  fi
  if (cd "$scratch" && X_SMOKE=$(head -1 sandbox.out) "$@" quickstarts.mjs); then
    echo "$label: smoke passed ($(($(date +%s) - t0))s)"
  else
    echo "$label: smoke FAILED ($(($(date +%s) - t0))s)"
    return 1
  fi
}

# Each package's examples/quickstart.ts unchanged, TypeScript run by the runtime itself, from the package's
# directory (so `@x/<pkg>` is a self-reference to dist and `@x/sandbox` its devDependency's dist). Without
# service credentials each example starts a sandbox of its own, in the same runtime. A line each prints
# on success is checked, as the Node example tests do; the exit code must be 0.
declare -A example_line=(
  [store]='^order [0-9]+ is processing, total 12\.00 '
  [transcription]='^as expected: NotFoundError '
  [realtime]='^received order-shipped: \{"id":42\}$'
)
examples() { # label command...
  local label=$1 p t0 out
  shift
  for p in store transcription realtime; do
    t0=$(date +%s)
    if out=$(cd "packages/$p" && env -u STORE_URL -u ASSEMBLYAI_API_KEY -u PUSHER_APP_ID timeout 120 "$@" examples/quickstart.ts 2>&1) &&
      grep -Eq "${example_line[$p]}" <<<"$out"; then
      echo "$label: packages/$p/examples/quickstart.ts passed ($(($(date +%s) - t0))s)"
    else
      printf '%s\n' "$out" | tail -20
      echo "$label: packages/$p/examples/quickstart.ts FAILED ($(($(date +%s) - t0))s)"
      return 1
    fi
  done
}

if [[ $parts == *" bun "* ]]; then
  echo "--- Bun (npm: ${bun_pkg:-no package for linux-$arch})"
  if [ -n "$bun_pkg" ] && bun=$(runtime_bin bun "$bun_pkg" bin/bun); then
    echo "bun $("$bun" --version) from $bun_pkg"
    smoke "Bun" "$bun" run || status=1
    examples "Bun" "$bun" run || status=1
  else
    echo "Bun: could not be installed from the npm registry ($bun_pkg)"
    status=1
  fi
fi

if [[ $parts == *" deno "* ]]; then
  echo "--- Deno (npm: ${deno_pkg:-no package for linux-$arch})"
  if [ -n "$deno_pkg" ] && deno=$(runtime_bin deno "$deno_pkg" deno); then
    echo "$("$deno" --version | head -1) from $deno_pkg"
    # No network but the sandbox's loopback port; reading the audio file and the environment. The
    # scratch package.json with its node_modules makes Deno resolve npm packages from node_modules.
    smoke "Deno" "$deno" run --allow-net=127.0.0.1 --allow-read --allow-env --allow-sys --no-prompt || status=1
    # The examples start the sandbox (listen, spawn flite and PocketSphinx, temp files): all permissions.
    examples "Deno" "$deno" run -A --no-prompt || status=1
  else
    echo "Deno: could not be installed from the npm registry ($deno_pkg)"
    status=1
  fi
fi

if [[ $parts == *" browser "* ]]; then
  echo "--- browser and worker bundles (esbuild)"
  node .ci/browser/bundle.mjs "$scratch/bundles" || status=1
  echo "--- Chromium smoke ($(/usr/bin/chromium --version 2>/dev/null || echo 'no /usr/bin/chromium'))"
  node .ci/browser/smoke.mjs "$scratch/bundles" || status=1
fi

exit "$status"
