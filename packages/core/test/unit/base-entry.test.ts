import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * `@x/core/base` is what the browser realtime client takes from core: it must stay free of ky, zod and
 * Node built-ins, and hold the very classes and functions the other entries use (one of each), so an
 * error the client throws is `instanceof` core's class, not a look-alike. Reads the build, as a bundler does.
 */
const pkg = fileURLToPath(new URL('../../', import.meta.url));
const dist = `${pkg}dist/`;
const require = createRequire(import.meta.url);
/** The part of esbuild's API used here; esbuild comes with tsup and is not a dependency of core. */
interface Esbuild {
  build(options: Record<string, unknown>): Promise<{
    outputFiles: Array<{ text: string }>;
    metafile: { inputs: Record<string, unknown> };
  }>;
}
const esbuild = require(createRequire(require.resolve('tsup')).resolve('esbuild')) as Esbuild;

describe('@x/core/base', () => {
  it('bundles from core’s own build alone: no dependency, no node: import', async () => {
    expect(existsSync(`${dist}base.js`), 'build @x/core first (turbo runs build before test)').toBe(true);
    const result = await esbuild.build({
      entryPoints: [`${dist}base.js`],
      bundle: true,
      write: false,
      format: 'esm',
      platform: 'neutral',
      metafile: true,
      logLevel: 'silent',
      absWorkingDir: pkg,
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('dist/base.js');
    // Paths relative to the package: anything from a dependency would be under node_modules/.
    expect(inputs.filter((input) => !input.startsWith('dist/'))).toEqual([]);
    expect(result.outputFiles[0]?.text).not.toMatch(/["']node:/);
  });

  it('exports the classes and functions the root and the socket entry use, not copies', async () => {
    const base = await import(/* @vite-ignore */ `${dist}base.js`);
    const root = await import(/* @vite-ignore */ `${dist}index.js`);
    const socket = await import(/* @vite-ignore */ `${dist}socket.js`);
    for (const name of ['XError', 'ValidationError', 'RealtimeError']) expect(base[name]).toBe(root[name]);
    for (const name of ['backoffDelay', 'DEFAULT_BACKOFF', 'systemClock', 'Timer'])
      expect(base[name]).toBe(socket[name]);
  });

  it('its CJS errors are instances of the ESM root’s classes, and back', async () => {
    const cjs = require(`${dist}base.cjs`);
    const root = await import(/* @vite-ignore */ `${dist}index.js`);
    const issues = [{ path: 'name', message: 'must be a non-empty string' }];
    const error = new cjs.ValidationError('channel name', issues);
    expect(cjs.ValidationError).not.toBe(root.ValidationError);
    expect(error).toBeInstanceOf(root.ValidationError);
    expect(error).toBeInstanceOf(root.XError);
    expect(error).not.toBeInstanceOf(root.RealtimeError);
    expect(new root.RealtimeError('refused', { closeCode: 4009 })).toBeInstanceOf(cjs.RealtimeError);
    expect(error.toJSON()).toEqual(new root.ValidationError('channel name', issues).toJSON());
  });
});
