import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: ['src/index.ts', 'src/redis.ts'],
  dts: true,
  sourcemap: true,
  target: 'es2022',
};

export default defineConfig([
  { ...shared, format: ['esm'] },
  // ky ships ESM only. Node's require(esm) hands the CJS build ky's namespace, which esbuild's interop
  // wraps once more (`ky.default.create` is undefined), so the CJS build carries its own copy of ky.
  { ...shared, format: ['cjs'], noExternal: ['ky'] },
]);
