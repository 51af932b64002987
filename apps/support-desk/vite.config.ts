import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, createServer, defineConfig, type InlineConfig, type Plugin } from 'vite';

const path = (p: string) => fileURLToPath(new URL(p, import.meta.url));

/**
 * The storefront page (`src/storefront`), served under `/storefront/`. It has a Vite config of its own
 * because Vite names a page's output after its path under `root`, and `src/storefront` is outside `src/web`.
 */
const storefront: InlineConfig = {
  configFile: false,
  root: path('./src/storefront'),
  base: '/storefront/',
  plugins: [react()],
  build: { outDir: path('./dist/web/storefront'), emptyOutDir: true },
  clearScreen: false,
};

/**
 * Builds the storefront into `dist/web/storefront` once the desk's page is built (which empties `dist/web`
 * first), and under `pnpm dev` serves it from the desk's own origin through a second Vite in middleware mode.
 */
function storefrontPage(): Plugin {
  let command: 'build' | 'serve' = 'serve';
  return {
    name: 'support-desk:storefront',
    configResolved(config) {
      command = config.command;
    },
    async configureServer(server) {
      const page = await createServer({
        ...storefront,
        logLevel: server.config.logLevel,
        server: { middlewareMode: true, hmr: false },
        appType: 'mpa',
      });
      server.middlewares.use((req, res, next) => {
        if (req.url === '/storefront' || req.url?.startsWith('/storefront?')) {
          res.writeHead(302, { Location: `/storefront/${req.url.slice('/storefront'.length)}` }).end();
        } else if (req.url?.startsWith('/storefront/')) page.middlewares(req, res, next);
        else next();
      });
      server.httpServer?.once('close', () => void page.close());
    },
    async closeBundle() {
      if (command === 'build') await build({ ...storefront, logLevel: 'warn' });
    },
  };
}

/**
 * The page: `src/web` built into `dist/web`, which the app server serves in tests and `pnpm start`, with the
 * storefront beside it in `dist/web/storefront`. Under `pnpm dev` Vite serves both and proxies `/api` to the
 * app server (`APP_SERVER_URL`).
 */
export default defineConfig({
  root: path('./src/web'),
  plugins: [react(), storefrontPage()],
  build: {
    outDir: path('./dist/web'),
    emptyOutDir: true,
  },
  server: {
    host: process.env.HOST ?? '127.0.0.1',
    port: Number(process.env.WEB_PORT ?? 5173),
    strictPort: true,
    proxy: { '/api/': process.env.APP_SERVER_URL ?? `http://127.0.0.1:${process.env.PORT ?? 5174}` },
  },
  clearScreen: false,
});
