#!/usr/bin/env node
// The committed entry pnpm links as `x-sandbox`. pnpm creates bin links at install time, before any build,
// so a bin pointing into dist/ is missing then (a warning per link, and `pnpm exec x-sandbox` is "not found");
// this file always exists and loads the built CLI, or says how to build it.
import { existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (!existsSync(cli)) {
  process.stderr.write(
    'x-sandbox: the CLI is not built (packages/sandbox/dist/cli.js is missing); run `pnpm build` first.\n',
  );
  process.exit(1);
}
await import(cli.href);
