/**
 * `pnpm check:spec <openapi.yml|openapi.json>`: compares AssemblyAI's OpenAPI document with this package's
 * schemas, prints what is missing or extra per component, and exits 1 when a field or enum value of the
 * spec is missing here (2 when the document cannot be read).
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { compareSpec, formatReport, SpecFormatError, specCheckFails } from './spec-compare.js';
import { ALLOWED_DIFFERENCES } from './spec-differences.js';
import { MAPPINGS, SKIPPED } from './spec-map.js';

// The spec repository ships openapi.yml (the source) and openapi.json (generated from it); both are read.
async function parseSpec(path: string, text: string): Promise<unknown> {
  if (/\.json$/i.test(path) || text.trimStart().startsWith('{')) return JSON.parse(text);
  const { parse } = await import('yaml');
  try {
    return parse(text) as unknown;
  } catch (error) {
    throw new SpecFormatError(`${path} is neither JSON nor valid YAML: ${(error as Error).message}`);
  }
}

export async function main(args: readonly string[]): Promise<number> {
  const given = args.find((arg) => arg !== '--');
  if (!given) {
    process.stderr.write('usage: pnpm check:spec <path to openapi.yml or openapi.json>\n');
    return 2;
  }
  // `pnpm --filter` runs this in the package directory; a relative path means where the command was typed.
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), given);
  let spec: unknown;
  try {
    spec = await parseSpec(path, await readFile(path, 'utf8'));
  } catch (error) {
    process.stderr.write(`check:spec: cannot read ${path}: ${(error as Error).message}\n`);
    return 2;
  }
  try {
    const report = compareSpec(spec, MAPPINGS, ALLOWED_DIFFERENCES, Object.keys(SKIPPED));
    process.stdout.write(`${formatReport(report)}\n`);
    return specCheckFails(report) ? 1 : 0;
  } catch (error) {
    // A document nested deeper than the stack allows ends here too, as a message rather than a crash.
    const what = error instanceof SpecFormatError ? '' : `${(error as Error).name}: `;
    process.stderr.write(`check:spec: ${path}: ${what}${(error as Error).message}\n`);
    return 2;
  }
}

process.exitCode = await main(process.argv.slice(2));
