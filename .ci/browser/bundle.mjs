#!/usr/bin/env node
/**
 * Bundles every browser-facing entry from its built `dist` (by package name, as an app's bundler would)
 * twice: for browsers (`platform: 'browser'`) and for a worker / edge target (`platform: 'neutral'`,
 * conditions worker + browser), with nothing marked external. Fails when a bundle needs a Node built-in:
 * for the browser platform esbuild reports any built-in it cannot resolve, and the neutral platform knows
 * no built-ins at all, so `node:*`, `fs`, `crypto`, `buffer` ... cannot resolve there either; the
 * metafile is checked as well, in case a plugin or a future option lets one through as external.
 *
 *   node .ci/browser/bundle.mjs [out-dir]     (default node_modules/.cache/x-sdk-bundles)
 *
 * Writes <out>/<target>/<entry>.js (ESM, minified) for the Chromium smoke (.ci/browser/smoke.mjs) and
 * prints each bundle's size and gzip size.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../..', import.meta.url));
const out = resolve(process.argv[2] ?? `${root}/node_modules/.cache/x-sdk-bundles`);

// Which entries are meant for browsers: core's `#transfer` and realtime's `#websocket` import maps give
// every non-Node runtime a fetch / global-WebSocket variant; store and transcription are core plus
// schemas. `@x/core/redis` (ioredis, node:crypto) is Node-only, and `@x/realtime/server` holds the app
// secret, so it is bundled for workers (edge functions) only. `@x/sandbox` is a Node server.
const entries = [
  { id: '@x/core', dir: 'core', targets: ['browser', 'worker'] },
  { id: '@x/store', dir: 'store', targets: ['browser', 'worker'] },
  { id: '@x/transcription', dir: 'transcription', targets: ['browser', 'worker'] },
  { id: '@x/realtime', dir: 'realtime', targets: ['browser', 'worker'] },
  { id: '@x/realtime/server', dir: 'realtime', targets: ['worker'] },
];

const targets = {
  browser: { platform: 'browser' },
  worker: {
    platform: 'neutral',
    conditions: ['worker', 'browser'],
    mainFields: ['browser', 'module', 'main'],
  },
};

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const isBuiltin = (path) =>
  path.startsWith('node:') || builtins.has(path) || builtins.has(path.split('/')[0]);
const kb = (n) => `${(n / 1024).toFixed(1)} kB`;

let failed = 0;
const rows = [];
for (const { id, dir, targets: names } of entries) {
  for (const target of names) {
    const file = `${out}/${target}/${id.replace('@x/', '').replace('/', '-')}.js`;
    mkdirSync(`${out}/${target}`, { recursive: true });
    try {
      const result = await build({
        // Resolved from the package's own directory: a self-reference through its `exports` map, and its
        // dependencies (ky, zod, @noble/ciphers, @x/core) from its node_modules, as an installed copy would.
        stdin: { contents: `export * from '${id}';`, resolveDir: `${root}/packages/${dir}`, loader: 'js' },
        bundle: true,
        format: 'esm',
        minify: true,
        target: 'es2022',
        outfile: file,
        metafile: true,
        logLevel: 'silent',
        ...targets[target],
      });
      const imports = Object.values(result.metafile.outputs).flatMap((o) => o.imports);
      const external = imports.filter((i) => i.external && !i.path.startsWith('./'));
      const fromNode = Object.keys(result.metafile.inputs).filter(isBuiltin);
      if (external.length || fromNode.length) {
        failed++;
        console.error(
          `FAIL ${id} (${target}): needs ${[...external.map((i) => i.path), ...fromNode].join(', ')}`,
        );
        continue;
      }
      const bytes = Object.values(result.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
      const gz = gzipSync(readFileSync(file)).length;
      rows.push([id, target, kb(bytes), kb(gz)]);
    } catch (error) {
      failed++;
      const messages = (error.errors ?? [{ text: String(error) }]).map(
        (e) => `${e.text}${e.location ? ` (${e.location.file}:${e.location.line})` : ''}`,
      );
      console.error(`FAIL ${id} (${target}):\n  ${messages.join('\n  ')}`);
    }
  }
}

console.log('entry                 target   minified   gzip');
for (const [id, target, size, gz] of rows)
  console.log(`${id.padEnd(21)} ${target.padEnd(8)} ${size.padStart(9)} ${gz.padStart(9)}`);
console.log(`bundles in ${out}`);
if (failed) {
  console.error(`${failed} bundle(s) need Node built-ins or failed to build`);
  process.exit(1);
}
