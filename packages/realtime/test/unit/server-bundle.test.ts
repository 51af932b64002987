import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The `./server` entry must run on edge workers (pusher-http-node#173, #209): bundled for a worker with
 * no Node built-ins available, nothing may import `node:*` or touch `Buffer` or `process`. esbuild comes
 * with tsup; core resolves through its package exports, so its `#transfer` import map must pick the web side.
 */
const require = createRequire(import.meta.url);
/** The part of esbuild's API used here (its types are not a dependency of this package). */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{
    outputFiles: Array<{ path: string; text: string }>;
    metafile: { inputs: Record<string, unknown> };
  }>;
}
const esbuild = require(createRequire(require.resolve('tsup')).resolve('esbuild')) as Esbuild;

describe('@x/realtime/server bundle', () => {
  it('bundles for a worker with no Node built-ins, Buffer or process', async () => {
    const result = await esbuild.build({
      entryPoints: [fileURLToPath(new URL('../../src/server.ts', import.meta.url))],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      conditions: ['worker', 'browser'],
      mainFields: ['module', 'main'],
      splitting: true,
      outdir: 'out',
      metafile: true,
      logLevel: 'silent',
    });
    const code = result.outputFiles.map((file) => file.text).join('\n');
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((input) => input.includes('transfer-web'))).toBe(true);
    expect(inputs.filter((input) => input.includes('transfer-node'))).toEqual([]);
    expect(code).not.toMatch(/\bfrom\s*["']node:|require\(["']node:|import\(["']node:/);
    // The globals, not methods of the same name (noble's hash objects have a `process()` method).
    expect(code).not.toMatch(/(?<![.\w$])Buffer\b/);
    expect(code).not.toMatch(/(?<![.\w$])process\s*[.[]|globalThis\.process/);
    // The cipher is a chunk of its own, loaded only when an encrypted channel is used.
    const entry = result.outputFiles.find((file) => file.path.endsWith('server.js'))!;
    const cipher = result.outputFiles.find((file) => /salsa-\w+\.js$/.test(file.path));
    expect(cipher?.text).toContain('xsalsa20poly1305');
    expect(entry.text).toMatch(/import\(["']\.\/salsa-\w+\.js["']\)/);
    expect(entry.text).not.toContain('hsalsa');
  }, 60_000);
});
