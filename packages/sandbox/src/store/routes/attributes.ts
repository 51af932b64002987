import { allAttributes, createAttribute, deleteAttribute, updateAttribute } from '../catalog/attributes.js';
import { attributeTermsDef, deleteTerm } from '../catalog/terms.js';
import type { AttributeRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { presentAttribute } from '../present/attributes.js';
import { registerCrud } from '../rest/crud.js';
import { validateParams } from '../rest/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../rest/router.js';
import { forbidden, RestError } from '../runtime/errors.js';
import {
  ATTRIBUTE_CREATE_SPECS,
  ATTRIBUTE_DELETE_SPECS,
  ATTRIBUTE_LIST_SPECS,
  ATTRIBUTE_SPECS,
} from './params/attributes.js';
import { VIEW } from './params/common.js';
import { registerTaxonomy } from './terms.js';

/**
 * get/update/delete_item_permissions_check() look the taxonomy up before the capability, so a missing
 * attribute is this 404 even for an anonymous request.
 */
function taxonomyInvalid(): RestError {
  return new RestError(404, 'woocommerce_rest_taxonomy_invalid', 'Resource does not exist.');
}

function existing(ctx: Ctx): AttributeRec {
  const a = ctx.store.state.attributes.get(idParam(ctx));
  if (!a) throw taxonomyInvalid();
  return a;
}

/** WC_REST_Product_Attributes_V1_Controller::get_items(): all of them, `X-WP-TotalPages: 1`, no Link. */
function list(ctx: Ctx): Result {
  validateParams(ctx.params, ATTRIBUTE_LIST_SPECS);
  requireCap(ctx, 'list');
  const items = allAttributes(ctx.store).map((a) => presentAttribute(ctx.store, a));
  return {
    status: 200,
    body: items,
    headers: { 'X-WP-Total': String(items.length), 'X-WP-TotalPages': '1' },
  };
}

function create(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ATTRIBUTE_CREATE_SPECS);
  // create_item_permissions_check() has its own wording.
  if (!ctx.key)
    throw forbidden(false, 'woocommerce_rest_cannot_create', 'Sorry, you cannot create new resource.');
  // create_item() never reads `id`, so a body naming one is simply created.
  const a = createAttribute(ctx.store, p);
  return {
    status: 201,
    body: presentAttribute(ctx.store, a),
    headers: { Location: ctx.store.restUrl(`/products/attributes/${a.id}`) },
  };
}

function get(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW);
  const a = existing(ctx);
  requireCap(ctx, 'view');
  return { status: 200, body: presentAttribute(ctx.store, a) };
}

function update(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ATTRIBUTE_SPECS);
  const a = existing(ctx);
  if (!ctx.key)
    throw forbidden(false, 'woocommerce_rest_cannot_update', 'Sorry, you cannot update resource.');
  return { status: 200, body: presentAttribute(ctx.store, updateAttribute(ctx.store, a, p)) };
}

/** delete_item(): `force` defaults to true; `force=false` is refused before the attribute is even looked up. */
function remove(ctx: Ctx): Result {
  const p = validateParams(ctx.params, ATTRIBUTE_DELETE_SPECS);
  const a = existing(ctx);
  requireCap(ctx, 'delete');
  if (p.force === false) {
    throw new RestError(501, 'woocommerce_rest_trash_not_supported', 'Resource does not support trashing.');
  }
  const body = presentAttribute(ctx.store, a);
  deleteAttribute(ctx.store, a, (id) => {
    const t = ctx.store.state.terms.get(id);
    if (t) deleteTerm(ctx.store, t);
  });
  return { status: 200, body };
}

/**
 * `/products/attributes` and `/products/attributes/{attribute_id}/terms` (WC_REST_Product_Attribute_Terms_Controller):
 * the terms routes answer `woocommerce_rest_taxonomy_invalid` "Taxonomy does not exist." (404) for an unknown
 * attribute, from WC_REST_Terms_Controller::check_permissions().
 */
export function registerAttributes(router: Router, store: Store): void {
  registerCrud(router, '/wc/v3/products/attributes', { list, create, get, update, delete: remove });
  registerTaxonomy(router, store, {
    route: '/products/attributes/(?P<attribute_id>[\\d]+)/terms',
    shape: attributeTermsDef(0, ''),
    resolve: (ctx) => {
      const id = idParam(ctx, 'attribute_id');
      const a = store.state.attributes.get(id);
      if (!a) throw new RestError(404, 'woocommerce_rest_taxonomy_invalid', 'Taxonomy does not exist.');
      return attributeTermsDef(a.id, a.slug);
    },
  });
}
