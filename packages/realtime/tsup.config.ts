import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    react: 'src/react.ts',
    // The two sides of the `#websocket` import map (package.json "imports"): Node gets `ws`, every other
    // runtime the global WebSocket, so browser bundles never see `ws` or `node:` modules.
    'websocket-node': 'src/client/socket/websocket-node.ts',
    'websocket-web': 'src/client/socket/websocket-web.ts',
  },
  // React is the app's own copy (an optional peer): two Reacts in one page break every hook.
  external: ['#websocket', 'react'],
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', server: 'src/server.ts', react: 'src/react.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
