/**
 * Cache channels over the real HTTP API: an app writing to ever new `cache-*` channels keeps at most
 * `CACHE_LIMITS.maxChannels` of them, forgetting the oldest writes first, instead of every one it ever wrote.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { CACHE_LIMITS } from '../../src/realtime/model/cache.js';
import { api } from '../helpers/realtime.js';

const APP = { appId: '77', key: 'cache-bounds-key', secret: 'cache-bounds-secret' };
let box: Sandbox<false>;
const creds = () => ({ url: box.realtime!.url, ...APP });

beforeAll(async () => {
  box = await startSandbox({ store: false, realtime: { apps: [APP], httpRateLimit: false } });
});
afterAll(async () => {
  await box?.close();
});

const cached = async (channel: string) =>
  (await api(creds(), 'GET', `/apps/${APP.appId}/channels/${channel}`, { params: { info: 'cache' } })).json
    .cache;

it('more cache channels than the cap: the oldest are forgotten, the newest kept', async () => {
  const total = CACHE_LIMITS.maxChannels + 30;
  const data = 'x'.repeat(1000);
  for (let first = 0; first < total; first += 10) {
    const batch = Array.from({ length: 10 }, (_, i) => ({
      name: 'update',
      channel: `cache-c${first + i}`,
      data,
    }));
    const res = await api(creds(), 'POST', `/apps/${APP.appId}/batch_events`, { body: { batch } });
    expect(res.status, res.text).toBe(200);
  }
  for (let i = 0; i < 30; i++) expect(await cached(`cache-c${i}`)).toBeUndefined();
  expect(await cached(`cache-c30`)).toMatchObject({ data });
  expect(await cached(`cache-c${total - 1}`)).toMatchObject({ data });
});
