import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    // The two sides of the `#websocket` import map (package.json "imports"): Node gets `ws`, every other
    // runtime the global WebSocket, so browser bundles never see `ws` or `node:` modules.
    'websocket-node': 'src/client/socket/websocket-node.ts',
    'websocket-web': 'src/client/socket/websocket-web.ts',
  },
  external: ['#websocket'],
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', server: 'src/server.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
