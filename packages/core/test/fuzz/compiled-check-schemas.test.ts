import { readdirSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import type * as z from 'zod/mini';
import { fuzzRuns, reportFuzz } from '../../../../fuzz.shared.js';
import { compileCheck, uncompiledReason } from '../../src/compiled-check.js';
import { CHANGES, mutate, paths, validOf } from './compiled-check-arbitraries.js';

// The service packages' schemas import openEnum from '@x/core': this package's source, not its dist.
vi.mock('@x/core', () => import('../../src/index.js'));

/**
 * The same property as compiled-check.test.ts, on the real schemas of the three service packages (every
 * zod schema their schemas/ modules export): values built from each schema and one-place mutations of
 * them; a yes must be zod's unchanged yes. And every schema a response is parsed with compiles, so the
 * fast path is taken for it (counted: valid values must hit it).
 */

const PACKAGES = new URL('../../../', import.meta.url);
const DIRS = ['transcription/src/schemas', 'store/src/schemas', 'realtime/src/server/schemas'];

/** The schemas passed as `schema:` to a request (grep `schema:` in packages/<service>/src/resources). */
const RESPONSES = {
  transcription: [
    'transcripts.transcript',
    'list.transcriptList',
    'files.uploadedFile',
    'derived.wordSearchResponse',
    'derived.sentencesResponse',
    'derived.paragraphsResponse',
    'streaming-token.streamingTemporaryToken',
  ],
  store: [
    'orders.order',
    'orders.refund',
    'orders.orderNote',
    'products.product',
    'products.variation',
    'products.term',
    'customers.customer',
    'webhooks.webhook',
    'common.batchItemError',
    'settings.setting',
    'settings.settingGroup',
    'payment-gateways.paymentGateway',
    'shipping-zones.shippingZone',
    'system-status.systemStatus',
    'reports.salesReport',
    'taxes.taxClass',
  ],
  realtime: [
    'channels.channelList',
    'channels.channelInfo',
    'channels.channelUsers',
    'events.triggerResult',
    'events.batchResult',
    'users.terminateResult',
  ],
};

async function schemasOf(dir: string): Promise<Map<string, z.ZodMiniType>> {
  const found = new Map<string, z.ZodMiniType>();
  const root = new URL(`${dir}/`, PACKAGES);
  for (const file of readdirSync(root).filter((f) => f.endsWith('.ts'))) {
    const module = (await import(new URL(file, root).href)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module))
      if (value && typeof value === 'object' && '_zod' in value)
        found.set(`${file.slice(0, -3)}.${name}`, value as z.ZodMiniType);
  }
  return found;
}

describe('compiled checks on the service packages’ schemas', () => {
  for (const dir of DIRS) {
    const service = dir.split('/')[0] as keyof typeof RESPONSES;
    it(`${service}: every response schema compiles`, async () => {
      const schemas = await schemasOf(dir);
      for (const name of RESPONSES[service]) {
        expect(schemas.has(name), `${name} exists`).toBe(true);
        expect(uncompiledReason(schemas.get(name)!), name).toBeUndefined();
      }
    });

    for (const run of fuzzRuns(30)) {
      it(`${service}: a yes is zod's unchanged yes, ${run.label}`, async () => {
        const schemas = [...(await schemasOf(dir))].filter(([, schema]) => compileCheck(schema, 'closures'));
        let inputs = 0;
        let hits = 0;
        for (const [name, schema] of schemas) {
          const checks = [compileCheck(schema, 'generated')!, compileCheck(schema, 'closures')!];
          const values = validOf(schema).chain((valid) =>
            fc.tuple(fc.constant(valid), fc.nat(), fc.nat()).map(([v, p, c]) => {
              const all = paths(v);
              return [v, mutate(v, all[p % all.length]!, CHANGES[c % CHANGES.length]!)];
            }),
          );
          fc.assert(
            fc.property(values, (pair) => {
              for (const value of pair) {
                inputs++;
                const parsed = schema.safeParse(value);
                const unchanged = parsed.success && isDeepStrictEqual(parsed.data, value);
                for (const check of checks) {
                  const yes = check(value);
                  if (yes) expect(unchanged, `${name}: ${JSON.stringify(value)?.slice(0, 300)}`).toBe(true);
                  if (yes && value === pair[0]) hits++;
                }
              }
            }),
            { seed: run.seed, numRuns: run.numRuns },
          );
        }
        reportFuzz(`compileCheck on ${service} schemas`, run, inputs);
        expect(hits).toBeGreaterThan(0);
      });
    }
  }
});
