import { sep } from 'node:path';
import { defineConfig, type Options } from 'tsup';

const REACT_DIR = `${sep}src${sep}react${sep}`;

/**
 * `@x/realtime/react` runs on the main entry's code, in both formats: its files import values through
 * `../index.js`, which the build turns into an import of `@x/realtime` itself (Node resolves a package's
 * own name through its exports map; in an app's node_modules any resolver finds it). Without this the CJS
 * build, which tsup does not split, carried a second copy of the client: a client made with
 * `require('@x/realtime')` and one the provider made were different classes with separate module state.
 * Any other value import from outside src/react would bring that copy back, so it fails the build.
 */
const reactUsesMainEntry: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'react-uses-main-entry',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, ({ path, importer }) => {
      if (!importer.includes(REACT_DIR) || path.startsWith('./')) return undefined;
      if (path === '../index.js') return { path: '@x/realtime', external: true };
      return {
        errors: [{ text: `${importer}: import values from '../index.js' (the main entry), not '${path}'` }],
      };
    });
  },
};

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    server: 'src/server.ts',
    react: 'src/react.ts',
    // The two sides of the `#websocket` import map (package.json "imports"): Node gets `ws`, every other
    // runtime the global WebSocket, so browser bundles never see `ws` or `node:` modules.
    'websocket-node': 'src/client/socket/websocket-node.ts',
    'websocket-web': 'src/client/socket/websocket-web.ts',
    // `#hmac` likewise: Node signs with node:crypto, every other runtime with Web Crypto.
    'hmac-node': 'src/server/internal/hmac-node.ts',
    'hmac-web': 'src/server/internal/hmac-web.ts',
  },
  // React is the app's own copy (an optional peer): two Reacts in one page break every hook.
  external: ['#websocket', '#hmac', 'react'],
  esbuildPlugins: [reactUsesMainEntry],
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts', server: 'src/server.ts', react: 'src/react.ts' } },
  clean: true,
  sourcemap: true,
  target: 'es2022',
});
