import { describe, expect, it } from 'vitest';
import type { Webhook } from '../../src/index.js';
import { webhookHealth } from '../../src/resources/webhook-health.js';

/**
 * The sorting health() does over what the REST API returns. Stock WooCommerce's response has no
 * failure_count (the integration test sees that against the emulator); a store that adds it through
 * `woocommerce_rest_prepare_webhook` gets its active webhooks with failures listed as failing.
 */
const hook = (id: number, status: string, extra: Record<string, unknown> = {}) =>
  ({
    id,
    name: `h${id}`,
    status,
    topic: 'order.updated',
    resource: 'order',
    event: 'updated',
    delivery_url: 'https://example.com/hooks',
    date_created: null,
    date_created_gmt: null,
    date_modified: null,
    date_modified_gmt: '2026-11-27T06:00:00',
    _links: {},
    ...extra,
  }) as unknown as Webhook;

async function* pages(items: Webhook[]) {
  yield* items;
}

describe('webhookHealth', () => {
  it('lists disabled, paused and counted failures; the rest is healthy', async () => {
    const health = await webhookHealth(
      pages([
        hook(1, 'active'),
        hook(2, 'disabled'),
        hook(3, 'paused'),
        hook(4, 'active', { failure_count: 3 }),
        hook(5, 'active', { failure_count: '2' }),
        hook(6, 'active', { failure_count: 0 }),
        hook(7, 'active', { failure_count: 'many' }),
      ]),
    );
    expect(health).toMatchObject({ ok: false, checked: 7, failure_count_exposed: true });
    expect(health.disabled.map((p) => [p.id, p.reason, p.failure_count])).toEqual([
      [2, 'disabled', undefined],
    ]);
    expect(health.paused.map((p) => p.id)).toEqual([3]);
    expect(health.failing.map((p) => [p.id, p.failure_count])).toEqual([
      [4, 3],
      [5, 2],
    ]);
    expect(health.disabled[0]?.date_modified_gmt).toBe('2026-11-27T06:00:00');
  });

  it('is ok with no webhooks or only active ones, and says when no count was exposed', async () => {
    expect(await webhookHealth(pages([]))).toEqual({
      ok: true,
      checked: 0,
      disabled: [],
      paused: [],
      failing: [],
      failure_count_exposed: false,
    });
    expect(await webhookHealth(pages([hook(1, 'active')]))).toMatchObject({ ok: true, checked: 1 });
  });
});
