/**
 * Contract: the official client `@woocommerce/woocommerce-rest-api` against GET /system_status and the
 * /system_status/tools routes, following WC_REST_System_Status_V2_Controller and
 * WC_REST_System_Status_Tools_V2_Controller (get_tools(), execute_tool(), the `edit` context of a run).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/index.js';
import { failure, storeWithOfficialClient, type WooCommerceRestApi } from '../helpers/woo-client.js';

const transports = [
  { name: 'HTTPS with Basic auth', https: true },
  { name: 'plain HTTP with OAuth 1.0a HMAC-SHA256', https: false },
] as const;

describe.each(transports)('official client, system status, over $name', (transport) => {
  let sandbox: Sandbox;
  let api: WooCommerceRestApi;

  beforeAll(async () => {
    ({ sandbox, api } = await storeWithOfficialClient({ https: transport.https }));
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it('GET system_status: every section, the install versions and counts from the state', async () => {
    await api.post('products', { name: 'Counted', regular_price: '3.00' });
    const res = await api.get('system_status');
    expect(res.status).toBe(200);
    expect(Object.keys(res.data)).toEqual([
      'environment',
      'database',
      'active_plugins',
      'inactive_plugins',
      'dropins_mu_plugins',
      'theme',
      'settings',
      'security',
      'pages',
      'post_type_counts',
    ]);
    expect(res.data.environment.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(res.data.environment.home_url).toBe(sandbox.url.replace(/\/$/, ''));
    expect(res.data.database.database_prefix).toBe('wp_');
    expect(Object.keys(res.data.database.database_tables.woocommerce)).toContain(
      'wp_woocommerce_shipping_zones',
    );
    expect(res.data.active_plugins[0]).toMatchObject({
      plugin: 'woocommerce/woocommerce.php',
      name: 'WooCommerce',
    });
    // get_settings() sends get_woocommerce_currency_symbol() as it is: the HTML entity, not the character.
    expect(res.data.settings).toMatchObject({
      currency: 'USD',
      currency_symbol: '&#36;',
      number_of_decimals: 2,
    });
    expect(res.data.security.secure_connection).toBe(transport.https);
    expect(res.data.pages.map((p: any) => p.page_name)).toEqual([
      'Shop base',
      'Cart',
      'Checkout',
      'My account',
      'Terms and conditions',
    ]);
    // get_post_type_counts(): rows of `SELECT post_type, count(1)`, counts as strings.
    expect(res.data.post_type_counts).toContainEqual({ type: 'product', count: '1' });
  });

  it('_fields trims the sections', async () => {
    const res = await api.get('system_status', { _fields: 'environment.version,settings.currency' });
    expect(res.data).toEqual({
      environment: { version: expect.any(String) },
      settings: { currency: 'USD' },
    });
  });

  it('tools: list, get, run (PUT) answering success and message; 404 for an unknown tool', async () => {
    const list = await api.get('system_status/tools');
    const ids = list.data.map((t: any) => t.id);
    expect(ids).toEqual(
      expect.arrayContaining(['clear_transients', 'recount_terms', 'reset_roles', 'delete_taxes']),
    );
    expect(list.data[0]).toMatchObject({
      id: 'clear_transients',
      name: 'WooCommerce transients',
      action: 'Clear transients',
      description: 'This tool will clear the product/shop transients cache.',
    });
    expect(list.data[0]).not.toHaveProperty('success');
    expect(list.data[0]._links.item[0]).toMatchObject({ embeddable: true });

    const one = await api.get('system_status/tools/recount_terms');
    expect(one.data).toMatchObject({ id: 'recount_terms', action: 'Recount terms' });

    const run = await api.put('system_status/tools/clear_transients', { confirm: true });
    expect(run.data).toMatchObject({
      id: 'clear_transients',
      success: true,
      message: 'Product transients cleared',
    });
    const roles = await api.put('system_status/tools/reset_roles', { confirm: true });
    expect(roles.data).toMatchObject({ success: true, message: 'Roles successfully reset' });

    const missing = await failure(api.put('system_status/tools/launch_rockets', { confirm: true }));
    expect(missing.status).toBe(404);
    expect(missing.data).toMatchObject({
      code: 'woocommerce_rest_system_status_tool_invalid_id',
      message: 'Invalid tool ID.',
    });
  });
});
