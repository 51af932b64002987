import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { expect, it } from 'vitest';

/**
 * What a browser bundler makes of `@x/store/storefront`: it resolves for the browser (no `node:` module, no
 * Node builtin), and none of the admin client's key or OAuth code rides along.
 */
it('bundles for a browser without node: modules or the admin client', async () => {
  const entry = fileURLToPath(new URL('../../src/storefront/index.ts', import.meta.url));
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const inputs = Object.keys(result.metafile.inputs);
  expect(
    inputs.filter((path) => path.startsWith('node:') || /^(fs|http|https|net|crypto)$/.test(path)),
  ).toEqual([]);
  expect(inputs.some((path) => path.includes('transfer-node'))).toBe(false);
  expect(inputs.filter((path) => /(^|\/)src\/(client|oauth|resources\/|sync\/|webhook)/.test(path))).toEqual(
    [],
  );
  for (const marker of [
    'oauth_nonce',
    'HMAC-SHA1',
    'treated this request as anonymous',
    'StoreClient options',
  ])
    expect(code).not.toContain(marker);
  expect(code).toContain('StorefrontClient options');
});
