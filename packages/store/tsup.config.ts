import { defineConfig } from 'tsup';

export default defineConfig({
  // `storefront` is `@x/store/storefront`, the keyless Store API client for browsers: its own entry, so a
  // page's bundle gets none of the admin client's consumer-key and OAuth code.
  entry: { index: 'src/index.ts', storefront: 'src/storefront/index.ts' },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
