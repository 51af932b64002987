import type { Store } from '../data/store.js';
import { presentGateway } from '../present/gateways.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, EDITABLE, READABLE, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { findGateway, gatewaySettings, orderedGateways, updateGateway } from '../settings/gateways.js';
import { VIEW } from './params/common.js';

/** /payment_gateways and /payment_gateways/{id}: WC_REST_Payment_Gateways_Controller (Version3, over V2). */

/** get_endpoint_args_for_item_schema( EDITABLE ): the writable schema properties. */
const UPDATE_SPECS = {
  title: { type: 'string' },
  description: { type: 'string' },
  order: { type: 'integer' },
  enabled: { type: 'boolean' },
  settings: { type: 'object' },
} as const;

const notFound = () =>
  new RestError(404, 'woocommerce_rest_payment_gateway_invalid', 'Resource does not exist.');

function list(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'list');
  return { status: 200, body: orderedGateways(ctx.store).map((g) => presentGateway(ctx.store, g)) };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  requireCap(ctx, 'view');
  const g = findGateway(ctx.store, ctx.urlParams.id ?? '');
  if (!g) throw notFound();
  return { status: 200, body: presentGateway(ctx.store, g) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, UPDATE_SPECS);
  requireCap(ctx, 'edit');
  const g = findGateway(ctx.store, ctx.urlParams.id ?? '');
  if (!g) throw notFound();
  const before = gatewaySettings(ctx.store, g);
  const ok = updateGateway(ctx.store, g, {
    settings: p.settings as Record<string, unknown> | undefined,
    enabled: p.enabled as boolean | undefined,
    title: p.title as string | undefined,
    description: p.description as string | undefined,
    // The order arg is sanitized with absint().
    order: typeof p.order === 'number' ? Math.abs(p.order) : undefined,
  });
  if (!ok) throw new RestError(400, 'rest_setting_value_invalid', 'An invalid setting value was passed.');
  const after = gatewaySettings(ctx.store, g);
  const props = {
    title: p.title !== undefined ? after.title : before.title,
    description: p.description !== undefined ? after.description : before.description,
    enabled: p.enabled !== undefined ? after.enabled : before.enabled === 'yes' ? 'yes' : 'no',
  };
  return { status: 200, body: presentGateway(ctx.store, g, props) };
}

export function registerPaymentGateways(router: Router, _store: Store): void {
  router.add('/wc/v3/payment_gateways', READABLE, list);
  router.add('/wc/v3/payment_gateways/(?P<id>[\\w-]+)', READABLE, get);
  router.add('/wc/v3/payment_gateways/(?P<id>[\\w-]+)', EDITABLE, update);
}
