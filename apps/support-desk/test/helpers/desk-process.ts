/**
 * The app server alone in a child process, for tests that kill it (`kill -9`): `DESK_CONFIG` holds its
 * `ServerConfig` as JSON (without the logger). Prints `READY <url>` once it listens; logs go to stderr.
 */
import { type ServerConfig, startServer } from '../../src/server/index.js';

const config = JSON.parse(process.env.DESK_CONFIG ?? '{}') as ServerConfig;
const log = (...args: unknown[]) => process.stderr.write(`${args.map(String).join(' ')}\n`);
const server = await startServer({ ...config, logger: { info: log, warn: log, error: log } });
process.stdout.write(`READY ${server.url}\n`);
