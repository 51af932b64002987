/**
 * What the store's fuzzing found, one regression test each, over real sockets: inputs that crashed a handler
 * (answered with WordPress's critical error, and a line on stderr) or that changed records WooCommerce keeps.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';
import { basicAuth, storeApi } from '../helpers/http.js';

let sandbox: Sandbox;
let stderr: string[] = [];
const write = process.stderr.write.bind(process.stderr);

beforeAll(async () => {
  sandbox = await startSandbox({ store: { rateLimit: false, seed: 'none' } });
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    stderr.push(String(chunk));
    return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stderr.write;
});
afterAll(async () => {
  process.stderr.write = write;
  await sandbox.close();
});

const api = (method: string, path: string, body?: unknown) => storeApi(sandbox, method, path, body);
const crashes = () => stderr.filter((line) => line.startsWith('x-sandbox: store:'));

describe('batch items', () => {
  it('an update whose id is an object with its own toString key is an invalid id, not a crash', async () => {
    stderr = [];
    const coupon = await api('POST', '/coupons', { code: 'keep', amount: '5' });
    // A repeated key: PHP's json_decode() and JSON.parse() both keep the last.
    const res = await api(
      'POST',
      '/coupons/batch',
      `{"update":[{"id":${coupon.json.id},"id":{"toString":""}}]}`,
    );
    expect(res.status).toBe(200);
    expect(res.json.update).toEqual([
      {
        id: 0,
        error: { code: 'woocommerce_rest_invalid_id', message: 'Invalid ID.', data: { status: 400 } },
      },
    ]);
    expect(crashes()).toEqual([]);
  });
});

describe('settings batch deletes', () => {
  it('an id that is a JSON object is cast as PHP casts an array (1), not a crash (a CI fuzz seed)', async () => {
    stderr = [];
    const res = await api('PUT', '/settings/email/batch', { delete: [{ toString: 0 }, {}, '7'] });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json.delete.map((d: { id: number }) => d.id)).toEqual([1, 7]);
    expect(crashes()).toEqual([]);
  });
});

describe('the default product category', () => {
  it('cannot be deleted, alone or in a batch, and stays on its products', async () => {
    const product = await api('POST', '/products', { name: 'Plain' });
    expect(product.json.categories.map((c: { id: number }) => c.id)).toEqual([15]);

    const one = await api('DELETE', '/products/categories/15?force=true');
    expect(one.status).toBe(500);
    expect(one.json).toEqual({
      code: 'woocommerce_rest_cannot_delete',
      message: 'Default product category cannot be deleted.',
      data: { status: 500 },
    });
    const batch = await api('POST', '/products/categories/batch', { delete: [15] });
    expect(batch.status).toBe(200);
    expect(batch.json.delete).toEqual([
      {
        id: 15,
        error: {
          code: 'woocommerce_rest_cannot_delete',
          message: 'Default product category cannot be deleted.',
          data: { status: 500 },
        },
      },
    ]);
    expect((await api('GET', '/products/categories/15')).status).toBe(200);
    const after = await api('GET', `/products/${product.json.id}`);
    expect(after.json.categories.map((c: { id: number }) => c.id)).toEqual([15]);
  });
});

describe('query keys named like prototype properties', () => {
  it('are entries PHP keeps: include[__proto__]=1 is not a list, as include[a]=1 is not', async () => {
    for (const query of ['include[a]=1', 'include[__proto__]=1', 'include[__proto__][0]=1']) {
      const res = await api('GET', `/products?${query}`);
      expect({ query, status: res.status, code: res.json.code, params: res.json.data?.params }).toEqual({
        query,
        status: 400,
        code: 'rest_invalid_param',
        params: { include: 'include is not of type array.' },
      });
    }
  });
});

describe('codes looked up in WooCommerce tables', () => {
  it('an order currency or customer country named like a prototype property is an unknown code, not a crash', async () => {
    stderr = [];
    for (const currency of ['__proto__', 'constructor', 'toString']) {
      const order = await api('POST', '/orders', { currency, billing: { country: currency } });
      expect(order.status, JSON.stringify(order.json)).toBe(201);
      expect(order.json.currency_symbol).toBe('');
    }
    const list = await api('GET', '/orders?per_page=100');
    expect(list.status).toBe(200);
    expect(crashes()).toEqual([]);
  });
});

describe('nested PHP arrays in a form body or query', () => {
  const form = async (body: string) => {
    const res = await fetch(`${sandbox.url}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: { Authorization: basicAuth(sandbox), 'Content-Type': 'application/x-www-form-urlencoded' },
      body,
    });
    return { status: res.status, json: (await res.json()) as any };
  };

  it('past max_input_nesting_level (64) drop the variable, as PHP does, however deep', async () => {
    stderr = [];
    const at64 = await form(`name${'[a]'.repeat(64)}=x&regular_price=2`);
    expect(at64.status).toBe(400);
    expect(at64.json.data.params).toEqual({ name: 'name is not of type string.' });
    // php_register_variable_ex() also removes what the name already held.
    for (const depth of [65, 100_000]) {
      const res = await form(`name=Mug&name${'[a]'.repeat(depth)}=x&regular_price=2`);
      expect({ depth, status: res.status, name: res.json.name }).toEqual({
        depth,
        status: 201,
        name: 'Product',
      });
    }
    const query = await api('GET', `/products?include${'[]'.repeat(3_000)}=1`);
    expect(query.status).toBe(200);
    expect(crashes()).toEqual([]);
  });
});

describe('a JSON list as the body', () => {
  it('is still the body a route reads (zone locations), and inert elsewhere', async () => {
    const zone = await api('POST', '/shipping/zones', { name: 'Lists' });
    const put = await api('PUT', `/shipping/zones/${zone.json.id}/locations`, [
      { code: 'US', type: 'country' },
    ]);
    expect(put.status).toBe(200);
    expect(put.json.map((l: { code: string }) => l.code)).toEqual(['US']);
    const product = await api('POST', '/products', [{ name: 'ignored' }]);
    expect(product.status).toBe(201);
    expect(product.json.name).toBe('Product');
  });

  // Spreading its index keys into the parameters took seconds per copy (12 s for this 8 MB body, every other
  // client waiting); now a fraction of one. Only the answer is checked here: a timing bound would be flaky.
  it('of four million items is answered', async () => {
    const res = await storeApi(sandbox, 'POST', '/products', `[${'1,'.repeat(4_000_000)}1]`);
    expect(res.status).toBe(201);
  });
});

describe('a client that hangs up', () => {
  it('before the body it declared is no crash, and the store goes on', async () => {
    stderr = [];
    const port = Number(new URL(sandbox.url).port);
    const head =
      'POST /wp-json/wc/v3/products HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Authorization: ${basicAuth(sandbox)}\r\nContent-Length: 100\r\n\r\n{"name":`;
    await new Promise<void>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => socket.end(head));
      socket.on('error', () => {});
      socket.on('close', () => resolve());
      socket.resume();
    });
    const after = await api('POST', '/products', { name: 'Next' });
    expect(after.status).toBe(201);
    expect(crashes()).toEqual([]);
  });
});

describe('crash reports', () => {
  it('an input PHP itself dies on answers the critical error without reporting a sandbox bug', async () => {
    stderr = [];
    const res = await api('PUT', '/settings/general/woocommerce_store_address', { value: ['an', 'array'] });
    expect(res.status).toBe(500);
    expect(res.json.code).toBe('internal_server_error');
    expect(crashes()).toEqual([]);
  });
});
