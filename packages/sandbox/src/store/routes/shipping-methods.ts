import { presentShippingMethod } from '../present/shipping-zones.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, READABLE, type Result, type Router, requireCap } from '../rest/router.js';
import { RestError } from '../runtime/errors.js';
import { findMethod, SHIPPING_METHODS } from '../shipping/methods.js';
import { SHIPPING_METHOD_VIEW } from './params/shipping-zones.js';

/** WC_REST_Shipping_Methods_V2_Controller::get_items(): every registered method, unpaged, no total headers. */
function list(ctx: Ctx): Result {
  validateParams(ctx.params, SHIPPING_METHOD_VIEW);
  requireCap(ctx, 'list');
  return { status: 200, body: SHIPPING_METHODS.map((m) => presentShippingMethod(ctx.store, m)) };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, SHIPPING_METHOD_VIEW);
  requireCap(ctx, 'view');
  const method = findMethod(ctx.urlParams.id ?? '');
  if (!method) {
    throw new RestError(404, 'woocommerce_rest_shipping_method_invalid', 'Resource does not exist.');
  }
  return { status: 200, body: presentShippingMethod(ctx.store, method) };
}

export function registerShippingMethods(router: Router): void {
  router.add('/wc/v3/shipping_methods', READABLE, list);
  router.add('/wc/v3/shipping_methods/(?P<id>[\\w-]+)', READABLE, get);
}
