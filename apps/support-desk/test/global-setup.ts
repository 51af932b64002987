import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const app = fileURLToPath(new URL('..', import.meta.url));
const built = join(app, 'dist/web/index.html');
/** Built after the desk's page (vite.config.ts): missing when that build stopped halfway. */
const storefront = join(app, 'dist/web/storefront/index.html');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/**
 * Builds the page once for the end-to-end tests, unless dist/web is already newer than its sources and the
 * SDK builds it bundles (a rebuilt `@x/transcription` changes what the page streams with, a rebuilt `@x/store`
 * the storefront's client).
 */
export default async function setup(): Promise<void> {
  const sources = Math.max(
    newestSource(join(app, 'src/web')),
    newestSource(join(app, 'src/storefront')),
    newestSource(join(app, 'src/shared')),
    statSync(join(app, 'vite.config.ts')).mtimeMs,
    ...['realtime', 'transcription', 'store'].map((sdk) => {
      const dist = join(app, 'node_modules/@x', sdk, 'dist');
      return existsSync(dist) ? newestSource(dist) : 0;
    }),
  );
  if (existsSync(built) && existsSync(storefront) && statSync(built).mtimeMs >= sources) return;
  const { build } = await import('vite');
  // Vitest sets NODE_ENV=test, which Vite keeps: React's development build would be what the tests load.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: join(app, 'vite.config.ts'), logLevel: 'warn' });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
