/**
 * No request may change how the emulator answers other requests except through the API: user-supplied
 * paths and keys (`_fields`, JSON bodies, PHP-style query arrays) must never reach Object.prototype.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { request, storeApi } from '../helpers/http.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
});
afterAll(() => sandbox.close());

function prototypeIsClean(): void {
  for (const name of ['force', 'status', 'x', 'polluted'])
    expect(Object.hasOwn(Object.prototype, name)).toBe(false);
  expect(({} as Record<string, unknown>).force).toBeUndefined();
}

describe('prototype pollution', () => {
  it('_fields=__proto__.* (no auth needed) writes nothing onto Object.prototype; DELETE still trashes', async () => {
    for (const fields of [
      '__proto__.force',
      '__proto__.status',
      'constructor.prototype.force',
      'a.__proto__.x',
    ]) {
      const res = await request(`${sandbox.url}/wp-json/wc/v3?_fields=${encodeURIComponent(fields)}`);
      expect(res.status).toBe(200);
    }
    prototypeIsClean();

    const created = await storeApi(sandbox, 'POST', '/products', { name: 'Kept in the trash' });
    expect(created.status).toBe(201);
    const trashed = await storeApi(sandbox, 'DELETE', `/products/${created.json.id}`);
    expect(trashed.status).toBe(200);
    const after = await storeApi(sandbox, 'GET', `/products/${created.json.id}`);
    expect(after.status).toBe(200);
    expect(after.json.status).toBe('trash');

    const list = await storeApi(sandbox, 'GET', '/products');
    expect(list.status).toBe(200);
  });

  it('_fields naming __proto__ on a real object returns only own fields', async () => {
    const created = await storeApi(sandbox, 'POST', '/products', { name: 'Fields' });
    const res = await storeApi(
      sandbox,
      'GET',
      `/products/${created.json.id}?_fields=__proto__,name,constructor`,
    );
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: created.json.id, name: 'Fields' });
    prototypeIsClean();
  });

  it('a JSON body with __proto__ and constructor keys changes no other request', async () => {
    const body =
      '{"name":"p","__proto__":{"force":true,"polluted":1},"meta_data":[{"key":"__proto__","value":{"x":1}}]}';
    const created = await storeApi(sandbox, 'POST', '/products', body);
    expect(created.status).toBe(201);
    const order = await storeApi(
      sandbox,
      'POST',
      '/orders',
      '{"constructor":{"prototype":{"force":true}},"billing":{"__proto__":{"polluted":1}}}',
    );
    expect(order.status).toBe(201);
    prototypeIsClean();
    const trashed = await storeApi(sandbox, 'DELETE', `/products/${created.json.id}`);
    expect(trashed.status).toBe(200);
    expect((await storeApi(sandbox, 'GET', `/products/${created.json.id}`)).json.status).toBe('trash');
  });

  it('PHP-style query arrays with __proto__ keys are inert', async () => {
    const res = await storeApi(
      sandbox,
      'GET',
      '/products?__proto__[force]=1&a[__proto__][polluted]=1&include[__proto__]=1',
    );
    expect(res.status).toBeLessThan(500);
    prototypeIsClean();
  });
});
