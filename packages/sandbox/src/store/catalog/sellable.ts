import { applyMeta } from '../data/meta.js';
import type { Image } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { nextId } from '../data/tables.js';
import { RestError } from '../runtime/errors.js';
import { sanitizeTitle } from '../runtime/formatting.js';
import { wcFormatDecimal } from '../runtime/numbers.js';
import { isPlainObject, parseWcDate } from '../runtime/values.js';
import type { Sellable } from './prices.js';

function findSkuOwner(store: Store, sku: string, selfId: number): number | null {
  for (const p of store.state.products.values())
    if (p.sku === sku && p.id !== selfId && p.status !== 'trash') return p.id;
  for (const v of store.state.variations.values())
    if (v.sku === sku && v.id !== selfId && v.status !== 'trash') return v.id;
  return null;
}

/** SKUs are unique across products and variations (trash aside); the error proposes the next free `sku-N`. */
function checkSku(store: Store, sku: string, selfId: number): void {
  if (sku === '') return;
  const owner = findSkuOwner(store, sku, selfId);
  if (owner === null) return;
  let n = 1;
  while (findSkuOwner(store, `${sku}-${n}`, selfId) !== null) n++;
  throw new RestError(400, 'product_invalid_sku', 'Invalid or duplicated SKU.', {
    resource_id: owner,
    unique_sku: `${sku}-${n}`,
  });
}

export function makeImage(store: Store, raw: Record<string, unknown>, now: number): Image {
  const src = typeof raw.src === 'string' ? raw.src : '';
  const id = typeof raw.id === 'number' && raw.id > 0 ? raw.id : nextId(store.state, 'post');
  const name =
    typeof raw.name === 'string' && raw.name
      ? raw.name
      : (src.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  return { id, src, name, alt: typeof raw.alt === 'string' ? raw.alt : '', created: now, modified: now };
}

/**
 * WC_REST_Products_V2_Controller::prepare_object_for_database(): the slug goes through
 * get_shipping_class_id_by_slug(), and set_shipping_class_id() takes its `false` for an unknown slug as 0, so
 * a class that does not exist clears the product's class without an error.
 */
export function shippingClassSlug(store: Store, given: string): string {
  const slug = sanitizeTitle(given.trim());
  if (slug === '') return '';
  for (const t of store.state.terms.values())
    if (t.taxonomy === 'product_shipping_class' && t.slug === slug) return t.slug;
  return '';
}

/** The fields products and variations share; `p` is already validated. */
export function applySellable(store: Store, rec: Sellable, p: Record<string, unknown>, now: number): void {
  const str = (k: keyof Sellable & string) => {
    if (typeof p[k] === 'string') (rec as unknown as Record<string, unknown>)[k] = p[k];
  };
  for (const k of ['description', 'tax_status', 'tax_class', 'stock_status', 'backorders', 'weight'] as const)
    str(k);
  if (typeof p.shipping_class === 'string') rec.shipping_class = shippingClassSlug(store, p.shipping_class);
  // WC_Product::set_regular_price() / set_sale_price() store wc_format_decimal($price): "5,00" becomes "500".
  for (const k of ['regular_price', 'sale_price'] as const)
    if (typeof p[k] === 'string') rec[k] = wcFormatDecimal(p[k]);
  if (typeof p.sku === 'string') {
    checkSku(store, p.sku.trim(), rec.id);
    rec.sku = p.sku.trim();
  }
  for (const k of ['virtual', 'downloadable'] as const)
    if (typeof p[k] === 'boolean') rec[k] = p[k] as boolean;
  for (const k of ['download_limit', 'download_expiry', 'menu_order'] as const)
    if (typeof p[k] === 'number') rec[k] = p[k] as number;
  if ('stock_quantity' in p && (typeof p.stock_quantity === 'number' || p.stock_quantity === null))
    rec.stock_quantity = p.stock_quantity as number | null;
  if ('low_stock_amount' in p && (typeof p.low_stock_amount === 'number' || p.low_stock_amount === null))
    rec.low_stock_amount = p.low_stock_amount as number | null;
  for (const k of ['date_on_sale_from', 'date_on_sale_to'] as const) {
    const v = p[k] !== undefined ? p[k] : p[`${k}_gmt`];
    if (v === null || v === '') rec[k] = null;
    else if (typeof v === 'string') rec[k] = parseWcDate(v);
  }
  if (isPlainObject(p.dimensions)) {
    const d = p.dimensions;
    rec.dimensions = {
      length: typeof d.length === 'string' ? d.length : rec.dimensions.length,
      width: typeof d.width === 'string' ? d.width : rec.dimensions.width,
      height: typeof d.height === 'string' ? d.height : rec.dimensions.height,
    };
  }
  if (Array.isArray(p.downloads)) {
    rec.downloads = p.downloads.filter(isPlainObject).map((d, i) => ({
      id: typeof d.id === 'string' && d.id ? d.id : `${rec.id}-${i}-${now}`,
      name: typeof d.name === 'string' ? d.name : '',
      file: typeof d.file === 'string' ? d.file : '',
    }));
  }
  if (p.meta_data !== undefined) rec.meta_data = applyMeta(store, rec.meta_data, p.meta_data);
}

export function blankSellable(id: number, now: number) {
  return {
    id,
    parent_id: 0,
    status: 'publish',
    description: '',
    sku: '',
    regular_price: '',
    sale_price: '',
    date_on_sale_from: null,
    date_on_sale_to: null,
    virtual: false,
    downloadable: false,
    downloads: [],
    download_limit: -1,
    download_expiry: -1,
    tax_status: 'taxable',
    tax_class: '',
    stock_quantity: null,
    stock_status: 'instock',
    backorders: 'no',
    low_stock_amount: null,
    weight: '',
    dimensions: { length: '', width: '', height: '' },
    shipping_class: '',
    menu_order: 0,
    total_sales: 0,
    meta_data: [],
    created: now,
    modified: now,
  };
}
