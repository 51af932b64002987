import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The page: `src/web` built into `dist/web`, which the app server serves in tests and `pnpm start`.
 * Under `pnpm dev` Vite serves it and proxies `/api` to the app server (`APP_SERVER_URL`).
 */
export default defineConfig({
  root: fileURLToPath(new URL('./src/web', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/web', import.meta.url)),
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
