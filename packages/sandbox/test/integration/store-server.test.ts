import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Sandbox, startSandbox } from '../../src/index.js';

const open: Sandbox[] = [];
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'x-sandbox-store-'));
});
afterAll(async () => {
  await Promise.all(open.map((s) => s.close()));
  await rm(dir, { recursive: true, force: true });
});

async function start(options: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const s = await startSandbox(options);
  open.push(s);
  return s;
}

function basic(s: Sandbox): string {
  return `Basic ${Buffer.from(`${s.store.consumerKey}:${s.store.consumerSecret}`).toString('base64')}`;
}

function httpsGet(
  url: string,
  ca: string,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { ca, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('persistence', () => {
  it('keeps state across a restart with dataFile (atomic JSON file)', async () => {
    const file = join(dir, 'store.json');
    const keys = [
      {
        consumerKey: `ck_${'a'.repeat(40)}`,
        consumerSecret: `cs_${'b'.repeat(40)}`,
        permissions: 'read_write' as const,
      },
    ];
    const first = await start({ port: 0, dataFile: file, store: { keys } });
    const res = await fetch(`${first.url}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: { Authorization: basic(first), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Persisted', regular_price: '4.20' }),
    });
    const created = (await res.json()) as { id: number };
    await first.close();
    const onDisk = JSON.parse(await readFile(file, 'utf8')) as { products: { name: string }[] };
    expect(onDisk.products.map((p) => p.name)).toContain('Persisted');

    const second = await start({ port: 0, dataFile: file, store: { keys } });
    expect(second.store.consumerKey).toBe(keys[0]!.consumerKey);
    const got = await fetch(`${second.url}/wp-json/wc/v3/products/${created.id}`, {
      headers: { Authorization: basic(second) },
    });
    expect(got.status).toBe(200);
    expect(((await got.json()) as { price: string }).price).toBe('4.20');
    const next = await fetch(`${second.url}/wp-json/wc/v3/products`, {
      method: 'POST',
      headers: { Authorization: basic(second), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'After restart' }),
    });
    expect(((await next.json()) as { id: number }).id).toBeGreaterThan(created.id);
  });
});

describe('HTTPS', () => {
  it('serves TLS with a self-signed certificate clients can trust as a CA', async () => {
    const s = await start({ port: 0, https: true });
    expect(s.https).toBe(true);
    expect(s.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(s.certificate).toMatch(/^-----BEGIN CERTIFICATE-----/);
    const r = await httpsGet(`${s.url}/wp-json/wc/v3/products`, s.certificate!, { Authorization: basic(s) });
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body)).toEqual([]);
    await expect(httpsGet(`${s.url}/wp-json/wc/v3/products`, '', {})).rejects.toThrow();
  });

  it('accepts Basic over HTTPS even in strictHttps mode', async () => {
    const s = await start({ port: 0, https: true, store: { strictHttps: true } });
    const r = await httpsGet(`${s.url}/wp-json/wc/v3/orders`, s.certificate!, { Authorization: basic(s) });
    expect(r.status).toBe(200);
  });
});

describe('seed, reset and stats', () => {
  it('seeds a deterministic demo catalogue and re-seeds on reset()', async () => {
    const a = await start({ port: 0, store: { seed: 'demo' } });
    const b = await start({ port: 0, store: { seed: 'demo' } });
    const list = async (s: Sandbox, path: string) => {
      const r = await fetch(`${s.url}/wp-json/wc/v3${path}`, { headers: { Authorization: basic(s) } });
      return {
        total: Number(r.headers.get('x-wp-total')),
        body: (await r.json()) as Record<string, unknown>[],
      };
    };
    const pa = await list(a, '/products?per_page=100&_fields=id,name,sku,price,stock_quantity,type');
    const pb = await list(b, '/products?per_page=100&_fields=id,name,sku,price,stock_quantity,type');
    expect(pa.total).toBeGreaterThanOrEqual(24);
    expect(pa.body).toEqual(pb.body);
    expect(pa.body.some((p) => p.type === 'variable')).toBe(true);
    const orders = await list(a, '/orders?per_page=100');
    const statuses = new Set(orders.body.map((o) => o.status));
    for (const st of ['pending', 'processing', 'completed', 'cancelled', 'on-hold'])
      expect(statuses).toContain(st);
    expect((await list(a, '/customers')).total).toBeGreaterThan(0);

    await fetch(`${a.url}/wp-json/wc/v3/products/${pa.body[0]!.id}?force=true`, {
      method: 'DELETE',
      headers: { Authorization: basic(a) },
    });
    await a.store.reset();
    expect(
      (await list(a, '/products?per_page=100&_fields=id,name,sku,price,stock_quantity,type')).body,
    ).toEqual(pa.body);
  });

  it('counts requests and arrivals, and resetStats() clears them', async () => {
    const s = await start({ port: 0 });
    for (let i = 0; i < 3; i++)
      await (
        await fetch(`${s.url}/wp-json/wc/v3/products`, { headers: { Authorization: basic(s) } })
      ).arrayBuffer();
    const st = s.store.stats();
    expect(st.requests).toBe(3);
    expect(st.arrivals).toHaveLength(3);
    expect(st.arrivals[2]!).toBeGreaterThanOrEqual(st.arrivals[0]!);
    s.store.resetStats();
    expect(s.store.stats()).toEqual({ requests: 0, rateLimited: 0, arrivals: [] });
  });

  it('answers browsers as rest_send_cors_headers() does: the Origin echoed, credentials allowed, preflight 200', async () => {
    const s = await start({ port: 0 });
    const origin = 'http://app.example';
    const res = await fetch(`${s.url}/wp-json/wc/v3/products`, {
      headers: { Authorization: basic(s), Origin: origin },
    });
    await res.arrayBuffer();
    expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-allow-methods')).toBe('OPTIONS, GET, POST, PUT, PATCH, DELETE');
    expect(res.headers.get('access-control-expose-headers')).toBe('X-WP-Total, X-WP-TotalPages, Link');
    expect(res.headers.get('vary')).toContain('Origin');
    // The preflight carries no credentials; WordPress answers OPTIONS from the route's description.
    const preflight = await fetch(`${s.url}/wp-json/wc/v3/products`, {
      method: 'OPTIONS',
      headers: {
        Origin: origin,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    await preflight.arrayBuffer();
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(origin);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization');
    const anonymous = await fetch(`${s.url}/wp-json/wc/v3/products`);
    await anonymous.arrayBuffer();
    expect(anonymous.headers.get('access-control-allow-origin')).toBeNull();
  });
});
