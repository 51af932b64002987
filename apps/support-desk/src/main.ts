/**
 * `pnpm start`: the server on its own, configured only by `.env` (every service must be configured
 * there; `pnpm dev` fills the gaps with the sandbox). Serves the built page from dist/web.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { configFromEnv, startServer } from './server/index.js';

const envFile = fileURLToPath(new URL('../.env', import.meta.url));
if (existsSync(envFile)) process.loadEnvFile(envFile);
const staticDir = fileURLToPath(new URL('../dist/web', import.meta.url));
const config = { ...configFromEnv(process.env, null), staticDir };
const server = await startServer(config);
console.info(`Support desk on ${server.url}`);
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void server.close().then(() => process.exit(0)));
