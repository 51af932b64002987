import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    redis: 'src/redis.ts',
    // `@x/core/socket`: its own entry, sharing no module with `index`, so a browser bundle of a WebSocket
    // client gets no chunk of the HTTP side (ky, zod, the error classes' module-level code).
    socket: 'src/socket/index.ts',
    // `@x/core/base`: errors' root, backoff, clock and log levels, imported by the browser realtime client
    // (and by `index` and `socket` themselves, so esbuild's splitting leaves one copy of each in ESM).
    base: 'src/base/index.ts',
    // The two sides of the `#transfer` import map (package.json "imports"): Node streams uploads over
    // node:http, every other runtime gets the fetch-only variant, so browser bundles never see `node:`.
    'transfer-node': 'src/internal/transfer-node.ts',
    'transfer-web': 'src/internal/transfer-web.ts',
  },
  external: ['#transfer'],
  sourcemap: true,
  target: 'es2022',
};

const dtsEntry = {
  index: 'src/index.ts',
  redis: 'src/redis.ts',
  socket: 'src/socket/index.ts',
  base: 'src/base/index.ts',
};

export default defineConfig([
  { ...shared, format: ['esm'], dts: { entry: dtsEntry } },
  // ky is ESM-only; esbuild's CJS interop reads `require('ky').default` as the namespace, so the CJS build
  // carries its own copy of ky (about 4 kB) instead of requiring it.
  {
    ...shared,
    format: ['cjs'],
    noExternal: ['ky'],
    dts: { entry: dtsEntry },
  },
]);
