import { CURRENCY_SYMBOL } from '../model/constants.js';
import {
  type Image,
  type Meta,
  nextId,
  type ProductRec,
  UNCATEGORIZED_ID,
  type VariationRec,
} from '../model/state.js';
import type { Store } from '../model/store.js';
import { isPlainObject, money, parseWcDate, slugify, toNumber, uniqueSlug, wcDate } from '../model/util.js';
import { registerCrud } from '../wp/crud.js';
import { RestError } from '../wp/errors.js';
import { filterDates, filterIncludeExclude, pagedResult, searchMatch, sortByParams } from '../wp/list.js';
import { CONTEXT, collectionSpecs, META_DATA, type Specs, validateParams } from '../wp/params.js';
import { type Ctx, idParam, type Result, type Router, requireCap } from '../wp/router.js';

const PRODUCT_TYPES = ['simple', 'grouped', 'external', 'variable'] as const;
const POST_STATUSES = ['draft', 'pending', 'private', 'publish'] as const;
const STOCK_STATUSES = ['instock', 'outofstock', 'onbackorder'] as const;

const DIMENSIONS: Specs[string] = {
  type: 'object',
  props: { length: { type: 'string' }, width: { type: 'string' }, height: { type: 'string' } },
};
const IMAGE: Specs[string] = {
  type: 'object',
  props: {
    id: { type: 'integer' },
    src: { type: 'string', format: 'uri' },
    name: { type: 'string' },
    alt: { type: 'string' },
  },
};

/** Writable fields both products and variations take. */
const SELLABLE_SPECS: Specs = {
  description: { type: 'string' },
  sku: { type: 'string' },
  regular_price: { type: 'string' },
  sale_price: { type: 'string' },
  date_on_sale_from: { type: 'string', format: 'date-time', nullable: true },
  date_on_sale_from_gmt: { type: 'string', format: 'date-time', nullable: true },
  date_on_sale_to: { type: 'string', format: 'date-time', nullable: true },
  date_on_sale_to_gmt: { type: 'string', format: 'date-time', nullable: true },
  virtual: { type: 'boolean' },
  downloadable: { type: 'boolean' },
  downloads: { type: 'array', items: { type: 'object' } },
  download_limit: { type: 'integer' },
  download_expiry: { type: 'integer' },
  tax_status: { type: 'string', enum: ['taxable', 'shipping', 'none'] },
  tax_class: { type: 'string' },
  manage_stock: { type: 'boolean' },
  stock_quantity: { type: 'integer', nullable: true },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
  backorders: { type: 'string', enum: ['no', 'notify', 'yes'] },
  low_stock_amount: { type: 'integer', nullable: true },
  weight: { type: 'string' },
  dimensions: DIMENSIONS,
  shipping_class: { type: 'string' },
  menu_order: { type: 'integer' },
  meta_data: META_DATA,
};

const PRODUCT_SPECS: Specs = {
  ...SELLABLE_SPECS,
  name: { type: 'string' },
  slug: { type: 'string' },
  type: { type: 'string', enum: PRODUCT_TYPES },
  status: { type: 'string', enum: [...POST_STATUSES, 'future', 'auto-draft', 'trash'] },
  featured: { type: 'boolean' },
  catalog_visibility: { type: 'string', enum: ['visible', 'catalog', 'search', 'hidden'] },
  short_description: { type: 'string' },
  external_url: { type: 'string', format: 'uri' },
  button_text: { type: 'string' },
  sold_individually: { type: 'boolean' },
  reviews_allowed: { type: 'boolean' },
  upsell_ids: { type: 'array', items: { type: 'integer' } },
  cross_sell_ids: { type: 'array', items: { type: 'integer' } },
  parent_id: { type: 'integer' },
  purchase_note: { type: 'string' },
  categories: { type: 'array', items: { type: 'object', props: { id: { type: 'integer' } } } },
  tags: { type: 'array', items: { type: 'object', props: { id: { type: 'integer' } } } },
  images: { type: 'array', items: IMAGE },
  attributes: {
    type: 'array',
    items: {
      type: 'object',
      props: {
        id: { type: 'integer' },
        name: { type: 'string' },
        position: { type: 'integer' },
        visible: { type: 'boolean' },
        variation: { type: 'boolean' },
        options: { type: 'array', items: { type: 'string' } },
      },
    },
  },
  default_attributes: { type: 'array', items: { type: 'object' } },
  grouped_products: { type: 'array', items: { type: 'integer' } },
};

const VARIATION_SPECS: Specs = {
  ...SELLABLE_SPECS,
  status: { type: 'string', enum: POST_STATUSES },
  image: { ...IMAGE, nullable: true },
  attributes: {
    type: 'array',
    items: {
      type: 'object',
      props: { id: { type: 'integer' }, name: { type: 'string' }, option: { type: 'string' } },
    },
  },
};

const LIST_SPECS: Specs = {
  ...collectionSpecs([
    'date',
    'id',
    'include',
    'title',
    'slug',
    'modified',
    'menu_order',
    'price',
    'popularity',
    'rating',
  ]),
  slug: { type: 'string' },
  status: { type: 'string', enum: ['any', 'future', 'trash', ...POST_STATUSES] },
  type: { type: 'string', enum: PRODUCT_TYPES },
  sku: { type: 'string' },
  featured: { type: 'boolean' },
  category: { type: 'string' },
  tag: { type: 'string' },
  shipping_class: { type: 'string' },
  attribute: { type: 'string' },
  attribute_term: { type: 'string' },
  tax_class: { type: 'string' },
  on_sale: { type: 'boolean' },
  min_price: { type: 'string' },
  max_price: { type: 'string' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
  virtual: { type: 'boolean' },
  downloadable: { type: 'boolean' },
};

const VARIATION_LIST_SPECS: Specs = {
  ...collectionSpecs(['date', 'id', 'include', 'title', 'slug', 'modified', 'menu_order']),
  slug: { type: 'string' },
  status: { type: 'string', enum: ['any', 'future', 'trash', ...POST_STATUSES] },
  sku: { type: 'string' },
  tax_class: { type: 'string' },
  on_sale: { type: 'boolean' },
  min_price: { type: 'string' },
  max_price: { type: 'string' },
  stock_status: { type: 'string', enum: STOCK_STATUSES },
};

// ---- pricing & stock ---------------------------------------------------------------------------------------

type Sellable = ProductRec | VariationRec;

export function isOnSale(p: Sellable, now = Date.now()): boolean {
  if (p.sale_price === '' || p.regular_price === '') return false;
  if (toNumber(p.sale_price) >= toNumber(p.regular_price)) return false;
  if (p.date_on_sale_from !== null && p.date_on_sale_from > now) return false;
  if (p.date_on_sale_to !== null && p.date_on_sale_to < now) return false;
  return true;
}

export function activePrice(p: Sellable): string {
  return isOnSale(p) ? p.sale_price : p.regular_price;
}

function variationsOf(store: Store, p: ProductRec): VariationRec[] {
  return p.variation_ids
    .map((id) => store.state.variations.get(id))
    .filter((v): v is VariationRec => v !== undefined && v.status !== 'trash');
}

export function productPrice(store: Store, p: ProductRec): string {
  if (p.type !== 'variable') return activePrice(p);
  const prices = variationsOf(store, p)
    .filter((v) => v.status === 'publish')
    .map(activePrice)
    .filter((x) => x !== '')
    .map(Number);
  return prices.length > 0 ? String(Math.min(...prices)) : '';
}

/** WC_Product_Data_Store validate_props(): a managed stock level decides the stock status. */
export function syncStockStatus(p: {
  manage_stock: boolean | 'parent';
  stock_quantity: number | null;
  backorders: string;
  stock_status: string;
}): void {
  if (p.manage_stock !== true) return;
  const qty = p.stock_quantity ?? 0;
  if (qty > 0) p.stock_status = 'instock';
  else p.stock_status = p.backorders === 'no' ? 'outofstock' : 'onbackorder';
}

function productStockStatus(store: Store, p: ProductRec): string {
  if (p.type !== 'variable') return p.stock_status;
  const vs = variationsOf(store, p).filter((v) => v.status === 'publish');
  if (vs.some((v) => effectiveStockStatus(store, v) === 'instock')) return 'instock';
  if (vs.some((v) => effectiveStockStatus(store, v) === 'onbackorder')) return 'onbackorder';
  return vs.length > 0 ? 'outofstock' : p.stock_status;
}

function effectiveStockStatus(store: Store, v: VariationRec): string {
  if (v.manage_stock === 'parent')
    return store.state.products.get(v.parent_id)?.stock_status ?? v.stock_status;
  return v.stock_status;
}

function priceHtml(price: string, regular: string, onSale: boolean): string {
  if (price === '') return '';
  const amount = (v: string) =>
    `<span class="woocommerce-Price-amount amount"><bdi><span class="woocommerce-Price-currencySymbol">&#36;</span>${money(
      toNumber(v),
    )}</bdi></span>`;
  if (!onSale) return amount(price);
  return `<del aria-hidden="true">${amount(regular)}</del> <span class="screen-reader-text">Original price was: ${CURRENCY_SYMBOL}${money(
    toNumber(regular),
  )}.</span><ins aria-hidden="true">${amount(price)}</ins><span class="screen-reader-text">Current price is: ${CURRENCY_SYMBOL}${money(
    toNumber(price),
  )}.</span>`;
}

// ---- presentation ------------------------------------------------------------------------------------------

function presentImage(img: Image): Record<string, unknown> {
  return {
    id: img.id,
    date_created: wcDate(img.created),
    date_created_gmt: wcDate(img.created),
    date_modified: wcDate(img.modified),
    date_modified_gmt: wcDate(img.modified),
    src: img.src,
    name: img.name,
    alt: img.alt,
  };
}

function backorderFlags(p: Sellable) {
  return {
    backorders_allowed: p.backorders !== 'no',
    backordered: p.manage_stock === true && (p.stock_quantity ?? 0) < 0 && p.backorders !== 'no',
  };
}

export function permalink(store: Store, p: ProductRec): string {
  return `${store.homeUrl}/product/${p.slug}/`;
}

export function presentProduct(store: Store, p: ProductRec): Record<string, unknown> {
  const price = productPrice(store, p);
  const variable = p.type === 'variable';
  const onSale = variable ? variationsOf(store, p).some((v) => isOnSale(v)) : isOnSale(p);
  const terms = (ids: number[], taxonomy: 'product_cat' | 'product_tag') =>
    ids
      .map((id) => store.state.terms.get(id))
      .filter((t) => t !== undefined && t.taxonomy === taxonomy)
      .map((t) => ({ id: t!.id, name: t!.name, slug: t!.slug }));
  const links: Record<string, unknown> = {
    self: [{ href: store.restUrl(`/products/${p.id}`) }],
    collection: [{ href: store.restUrl('/products') }],
  };
  if (p.parent_id) links.up = [{ href: store.restUrl(`/products/${p.parent_id}`) }];
  return {
    id: p.id,
    name: p.name,
    slug: p.slug,
    permalink: permalink(store, p),
    date_created: wcDate(p.created),
    date_created_gmt: wcDate(p.created),
    date_modified: wcDate(p.modified),
    date_modified_gmt: wcDate(p.modified),
    type: p.type,
    status: p.status,
    featured: p.featured,
    catalog_visibility: p.catalog_visibility,
    description: p.description,
    short_description: p.short_description,
    sku: p.sku,
    price,
    regular_price: variable ? '' : p.regular_price,
    sale_price: variable ? '' : p.sale_price,
    date_on_sale_from: wcDate(p.date_on_sale_from),
    date_on_sale_from_gmt: wcDate(p.date_on_sale_from),
    date_on_sale_to: wcDate(p.date_on_sale_to),
    date_on_sale_to_gmt: wcDate(p.date_on_sale_to),
    on_sale: onSale,
    purchasable: price !== '' && p.status === 'publish',
    total_sales: p.total_sales,
    virtual: p.virtual,
    downloadable: p.downloadable,
    downloads: p.downloads,
    download_limit: p.download_limit,
    download_expiry: p.download_expiry,
    external_url: p.external_url,
    button_text: p.button_text,
    tax_status: p.tax_status,
    tax_class: p.tax_class,
    manage_stock: p.manage_stock,
    stock_quantity: p.manage_stock ? p.stock_quantity : null,
    backorders: p.backorders,
    ...backorderFlags(p),
    low_stock_amount: p.low_stock_amount,
    sold_individually: p.sold_individually,
    weight: p.weight,
    dimensions: p.dimensions,
    shipping_required: !p.virtual,
    shipping_taxable: !p.virtual && (p.tax_status === 'taxable' || p.tax_status === 'shipping'),
    shipping_class: p.shipping_class,
    shipping_class_id: 0,
    reviews_allowed: p.reviews_allowed,
    average_rating: '0.00',
    rating_count: 0,
    upsell_ids: p.upsell_ids,
    cross_sell_ids: p.cross_sell_ids,
    parent_id: p.parent_id,
    purchase_note: p.purchase_note,
    categories: terms(p.categories, 'product_cat'),
    tags: terms(p.tags, 'product_tag'),
    images: p.images.map(presentImage),
    attributes: p.attributes.map(({ id, name, slug, position, visible, variation, options }) => ({
      id,
      name,
      slug: slug ?? (id ? `pa_${slugify(name)}` : slugify(name)),
      position,
      visible,
      variation,
      options,
    })),
    default_attributes: p.default_attributes,
    variations: variable ? variationsOf(store, p).map((v) => v.id) : [],
    grouped_products: p.grouped_products,
    menu_order: p.menu_order,
    price_html: priceHtml(price, p.regular_price, onSale && !variable),
    related_ids: [],
    meta_data: p.meta_data,
    stock_status: productStockStatus(store, p),
    has_options: variable,
    post_password: '',
    global_unique_id: '',
    _links: links,
  };
}

export function variationName(store: Store, v: VariationRec): string {
  const parent = store.state.products.get(v.parent_id);
  const opts = v.attributes.map((a) => a.option).filter((o) => o !== '');
  return opts.length > 0 ? `${parent?.name ?? ''} - ${opts.join(', ')}` : (parent?.name ?? '');
}

export function presentVariation(store: Store, v: VariationRec): Record<string, unknown> {
  const parent = store.state.products.get(v.parent_id);
  const onSale = isOnSale(v);
  const price = activePrice(v);
  const query = v.attributes
    .filter((a) => a.option !== '')
    .map((a) => `attribute_${a.id ? `pa_${slugify(a.name)}` : slugify(a.name)}=${slugify(a.option)}`)
    .join('&');
  const managesOwn = v.manage_stock === true;
  return {
    id: v.id,
    date_created: wcDate(v.created),
    date_created_gmt: wcDate(v.created),
    date_modified: wcDate(v.modified),
    date_modified_gmt: wcDate(v.modified),
    description: v.description,
    permalink: parent ? `${permalink(store, parent)}${query ? `?${query}` : ''}` : '',
    sku: v.sku,
    global_unique_id: '',
    price,
    regular_price: v.regular_price,
    sale_price: v.sale_price,
    date_on_sale_from: wcDate(v.date_on_sale_from),
    date_on_sale_from_gmt: wcDate(v.date_on_sale_from),
    date_on_sale_to: wcDate(v.date_on_sale_to),
    date_on_sale_to_gmt: wcDate(v.date_on_sale_to),
    on_sale: onSale,
    status: v.status,
    purchasable: price !== '' && v.status === 'publish',
    virtual: v.virtual,
    downloadable: v.downloadable,
    downloads: v.downloads,
    download_limit: v.download_limit,
    download_expiry: v.download_expiry,
    tax_status: v.tax_status,
    tax_class: v.tax_class,
    manage_stock: v.manage_stock,
    stock_quantity: managesOwn
      ? v.stock_quantity
      : v.manage_stock === 'parent'
        ? (parent?.stock_quantity ?? null)
        : null,
    stock_status: effectiveStockStatus(store, v),
    backorders: v.backorders,
    ...backorderFlags(v),
    low_stock_amount: v.low_stock_amount,
    weight: v.weight,
    dimensions: v.dimensions,
    shipping_class: v.shipping_class,
    shipping_class_id: 0,
    image: v.image ? presentImage(v.image) : null,
    attributes: v.attributes,
    menu_order: v.menu_order,
    meta_data: v.meta_data,
    name: variationName(store, v),
    type: 'variation',
    parent_id: v.parent_id,
    _links: {
      self: [{ href: store.restUrl(`/products/${v.parent_id}/variations/${v.id}`) }],
      collection: [{ href: store.restUrl(`/products/${v.parent_id}/variations`) }],
      up: [{ href: store.restUrl(`/products/${v.parent_id}`) }],
    },
  };
}

// ---- writes ------------------------------------------------------------------------------------------------

export function applyMeta(store: Store, existing: Meta[], incoming: unknown): Meta[] {
  if (!Array.isArray(incoming)) return existing;
  const out = [...existing];
  for (const m of incoming) {
    if (!isPlainObject(m) || typeof m.key !== 'string') continue;
    const byId = typeof m.id === 'number' ? out.findIndex((x) => x.id === m.id) : -1;
    const idx = byId >= 0 ? byId : out.findIndex((x) => x.key === m.key);
    if (m.value === null || m.value === undefined) {
      if (idx >= 0 && m.value === null) out.splice(idx, 1);
      continue;
    }
    if (idx >= 0) out[idx] = { ...out[idx]!, key: m.key, value: m.value };
    else out.push({ id: nextId(store.state, 'meta'), key: m.key, value: m.value });
  }
  return out;
}

function findSkuOwner(store: Store, sku: string, selfId: number): number | null {
  for (const p of store.state.products.values())
    if (p.sku === sku && p.id !== selfId && p.status !== 'trash') return p.id;
  for (const v of store.state.variations.values())
    if (v.sku === sku && v.id !== selfId && v.status !== 'trash') return v.id;
  return null;
}

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

function makeImage(store: Store, raw: Record<string, unknown>, now: number): Image {
  const src = typeof raw.src === 'string' ? raw.src : '';
  const id = typeof raw.id === 'number' && raw.id > 0 ? raw.id : nextId(store.state, 'post');
  const name =
    typeof raw.name === 'string' && raw.name
      ? raw.name
      : (src.split('/').pop() ?? '').replace(/\.[a-z0-9]+$/i, '');
  return { id, src, name, alt: typeof raw.alt === 'string' ? raw.alt : '', created: now, modified: now };
}

function applySellable(store: Store, rec: Sellable, p: Record<string, unknown>, now: number): void {
  const str = (k: keyof Sellable & string) => {
    if (typeof p[k] === 'string') (rec as unknown as Record<string, unknown>)[k] = p[k];
  };
  for (const k of [
    'description',
    'regular_price',
    'sale_price',
    'tax_status',
    'tax_class',
    'stock_status',
    'backorders',
    'weight',
    'shipping_class',
  ] as const)
    str(k);
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

function blankSellable(id: number, now: number) {
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

export function blankProduct(id: number, now: number): ProductRec {
  return {
    ...blankSellable(id, now),
    name: '',
    slug: '',
    type: 'simple',
    featured: false,
    catalog_visibility: 'visible',
    short_description: '',
    external_url: '',
    button_text: '',
    manage_stock: false,
    sold_individually: false,
    reviews_allowed: true,
    upsell_ids: [],
    cross_sell_ids: [],
    purchase_note: '',
    categories: [],
    tags: [],
    images: [],
    attributes: [],
    default_attributes: [],
    grouped_products: [],
    variation_ids: [],
  };
}

export function blankVariation(id: number, parentId: number, now: number): VariationRec {
  return { ...blankSellable(id, now), parent_id: parentId, manage_stock: false, image: null, attributes: [] };
}

/** Validates and applies a product create/update body. Throws RestError. */
export function writeProduct(
  store: Store,
  rec: ProductRec,
  body: Record<string, unknown>,
  creating: boolean,
): void {
  const p = validateParams(body, PRODUCT_SPECS);
  const now = store.now();
  applySellable(store, rec, p, now);
  for (const k of [
    'name',
    'type',
    'catalog_visibility',
    'short_description',
    'external_url',
    'button_text',
    'purchase_note',
  ] as const) {
    if (typeof p[k] === 'string') rec[k] = p[k] as string;
  }
  if (typeof p.status === 'string') rec.status = p.status;
  for (const k of ['featured', 'sold_individually', 'reviews_allowed', 'manage_stock'] as const) {
    if (typeof p[k] === 'boolean') rec[k] = p[k] as boolean;
  }
  if (typeof p.parent_id === 'number') rec.parent_id = p.parent_id;
  for (const k of ['upsell_ids', 'cross_sell_ids', 'grouped_products'] as const) {
    if (Array.isArray(p[k])) rec[k] = p[k] as number[];
  }
  const termIds = (v: unknown, taxonomy: 'product_cat' | 'product_tag') =>
    (v as Record<string, unknown>[])
      .map((t) => t.id)
      .filter(
        (id): id is number => typeof id === 'number' && store.state.terms.get(id)?.taxonomy === taxonomy,
      );
  if (Array.isArray(p.categories)) rec.categories = termIds(p.categories, 'product_cat');
  if (Array.isArray(p.tags)) rec.tags = termIds(p.tags, 'product_tag');
  if (Array.isArray(p.images))
    rec.images = (p.images as Record<string, unknown>[]).map((img) => makeImage(store, img, now));
  if (Array.isArray(p.attributes)) {
    rec.attributes = (p.attributes as Record<string, unknown>[])
      .filter((a) => typeof a.name === 'string' || typeof a.id === 'number')
      .map((a, i) => ({
        id: typeof a.id === 'number' ? a.id : 0,
        name: typeof a.name === 'string' ? a.name : '',
        position: typeof a.position === 'number' ? a.position : i,
        visible: a.visible === true,
        variation: a.variation === true,
        options: Array.isArray(a.options) ? (a.options as string[]) : [],
      }));
  }
  if (Array.isArray(p.default_attributes)) {
    rec.default_attributes = (p.default_attributes as Record<string, unknown>[]).map((a) => ({
      id: typeof a.id === 'number' ? a.id : 0,
      name: typeof a.name === 'string' ? a.name : '',
      option: typeof a.option === 'string' ? a.option : '',
    }));
  }
  if (typeof p.slug === 'string' && p.slug !== '') {
    rec.slug = uniqueSlug(slugify(p.slug), (s) =>
      [...store.state.products.values()].some((x) => x.slug === s && x.id !== rec.id),
    );
  } else if (creating || (typeof p.name === 'string' && rec.slug === '')) {
    const base = (rec.name ? slugify(rec.name) : '') || `product-${rec.id}`;
    rec.slug = uniqueSlug(base, (s) =>
      [...store.state.products.values()].some((x) => x.slug === s && x.id !== rec.id),
    );
  }
  if (rec.categories.length === 0) rec.categories = [UNCATEGORIZED_ID];
  syncStockStatus(rec);
  rec.modified = now;
}

export function writeVariation(store: Store, rec: VariationRec, body: Record<string, unknown>): void {
  const p = validateParams(body, VARIATION_SPECS);
  const now = store.now();
  applySellable(store, rec, p, now);
  if (typeof p.status === 'string') rec.status = p.status;
  if (typeof p.manage_stock === 'boolean') rec.manage_stock = p.manage_stock;
  if (p.image === null) rec.image = null;
  else if (isPlainObject(p.image)) rec.image = makeImage(store, p.image, now);
  if (Array.isArray(p.attributes)) {
    rec.attributes = (p.attributes as Record<string, unknown>[]).map((a) => ({
      id: typeof a.id === 'number' ? a.id : 0,
      name: typeof a.name === 'string' ? a.name : '',
      option: typeof a.option === 'string' ? a.option : '',
    }));
  }
  syncStockStatus(rec);
  rec.modified = now;
}

// ---- handlers ----------------------------------------------------------------------------------------------

function getProductOr(store: Store, id: number, status: number): ProductRec {
  const p = store.state.products.get(id);
  if (!p) throw new RestError(status, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
  return p;
}

function listProducts(ctx: Ctx): Result {
  const p = validateParams(ctx.params, LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  let items = [...store.state.products.values()];
  const status = (p.status as string | undefined) ?? 'any';
  items = items.filter((x) => (status === 'any' ? x.status !== 'trash' : x.status === status));
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.type === 'string') items = items.filter((x) => x.type === p.type);
  if (typeof p.slug === 'string') {
    const slugs = p.slug.split(',').map((s) => s.trim());
    items = items.filter((x) => slugs.includes(x.slug));
  }
  if (typeof p.sku === 'string') {
    const skus = p.sku.split(',').map((s) => s.trim());
    items = items.filter((x) => skus.includes(x.sku));
  }
  if (typeof p.featured === 'boolean') items = items.filter((x) => x.featured === p.featured);
  if (typeof p.category === 'string' && p.category !== '') {
    const ids = p.category.split(',').map(Number);
    items = items.filter((x) => x.categories.some((c) => ids.includes(c)));
  }
  if (typeof p.tag === 'string' && p.tag !== '') {
    const ids = p.tag.split(',').map(Number);
    items = items.filter((x) => x.tags.some((c) => ids.includes(c)));
  }
  if (typeof p.tax_class === 'string')
    items = items.filter((x) => x.tax_class === (p.tax_class === 'standard' ? '' : p.tax_class));
  if (typeof p.shipping_class === 'string')
    items = items.filter((x) => x.shipping_class === p.shipping_class);
  if (typeof p.virtual === 'boolean') items = items.filter((x) => x.virtual === p.virtual);
  if (typeof p.downloadable === 'boolean') items = items.filter((x) => x.downloadable === p.downloadable);
  if (typeof p.on_sale === 'boolean') {
    items = items.filter((x) => {
      const sale = x.type === 'variable' ? variationsOf(store, x).some((v) => isOnSale(v)) : isOnSale(x);
      return sale === p.on_sale;
    });
  }
  if (typeof p.stock_status === 'string')
    items = items.filter((x) => productStockStatus(store, x) === p.stock_status);
  if (typeof p.min_price === 'string' && p.min_price !== '') {
    const min = toNumber(p.min_price);
    items = items.filter((x) => productPrice(store, x) !== '' && toNumber(productPrice(store, x)) >= min);
  }
  if (typeof p.max_price === 'string' && p.max_price !== '') {
    const max = toNumber(p.max_price);
    items = items.filter((x) => productPrice(store, x) !== '' && toNumber(productPrice(store, x)) <= max);
  }
  if (Array.isArray(p.parent) && p.parent.length > 0)
    items = items.filter((x) => (p.parent as number[]).includes(x.parent_id));
  if (Array.isArray(p.parent_exclude) && p.parent_exclude.length > 0) {
    items = items.filter((x) => !(p.parent_exclude as number[]).includes(x.parent_id));
  }
  if (typeof p.search === 'string' && p.search !== '') {
    items = items.filter((x) => searchMatch(p.search, x.name, x.description, x.short_description));
  }
  const keyFns: Record<string, (x: ProductRec) => string | number> = {
    date: (x) => x.created,
    id: (x) => x.id,
    title: (x) => x.name,
    slug: (x) => x.slug,
    modified: (x) => x.modified,
    menu_order: (x) => x.menu_order,
    price: (x) => toNumber(productPrice(store, x)),
    popularity: (x) => x.total_sales,
    rating: () => 0,
  };
  items = sortByParams(items, p, keyFns, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, (x) => presentProduct(store, x));
}

function createProduct(ctx: Ctx): Result {
  validateParams(ctx.params, PRODUCT_SPECS);
  requireCap(ctx, 'create');
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(400, 'woocommerce_rest_product_exists', 'Cannot create existing product.');
  }
  const store = ctx.store;
  const id = store.state.seq.post + 1;
  const rec = blankProduct(id, store.now());
  writeProduct(store, rec, ctx.params, true);
  nextId(store.state, 'post');
  store.state.products.set(id, rec);
  store.changed();
  store.emit('product', 'created', id);
  return {
    status: 201,
    body: presentProduct(store, rec),
    headers: { Location: store.restUrl(`/products/${id}`) },
  };
}

function getProduct(ctx: Ctx): Result {
  validateParams(ctx.params, { context: CONTEXT });
  const store = ctx.store;
  const p = store.state.products.get(idParam(ctx));
  if (p) requireCap(ctx, 'view');
  if (!p) throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
  return { status: 200, body: presentProduct(store, p) };
}

function updateProduct(ctx: Ctx): Result {
  const store = ctx.store;
  validateParams(ctx.params, PRODUCT_SPECS);
  const existing = store.state.products.get(idParam(ctx));
  if (existing) requireCap(ctx, 'edit');
  const rec = getProductOr(store, idParam(ctx), 400);
  const draft = structuredClone(rec);
  const wasTrash = rec.status === 'trash';
  writeProduct(store, draft, ctx.params, false);
  store.state.products.set(rec.id, draft);
  store.changed();
  if (wasTrash && draft.status !== 'trash') store.emit('product', 'restored', rec.id);
  store.emit('product', 'updated', rec.id);
  return { status: 200, body: presentProduct(store, draft) };
}

function deleteProduct(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  const store = ctx.store;
  const rec = store.state.products.get(idParam(ctx));
  if (rec) requireCap(ctx, 'delete');
  if (!rec) throw new RestError(404, 'woocommerce_rest_product_invalid_id', 'Invalid ID.');
  const body = presentProduct(store, rec);
  if (p.force === true) {
    for (const vid of rec.variation_ids) store.state.variations.delete(vid);
    store.state.products.delete(rec.id);
  } else {
    if (rec.status === 'trash') {
      throw new RestError(410, 'woocommerce_rest_already_trashed', 'The product has already been deleted.');
    }
    rec.pre_trash_status = rec.status;
    rec.status = 'trash';
    rec.modified = store.now();
  }
  store.changed();
  store.emit('product', 'deleted', rec.id);
  return { status: 200, body };
}

// variations

function parentFor(ctx: Ctx): ProductRec | undefined {
  return ctx.store.state.products.get(idParam(ctx, 'product_id'));
}

function getVariationOr(ctx: Ctx, status: number): VariationRec {
  const v = ctx.store.state.variations.get(idParam(ctx));
  if (!v || v.parent_id !== idParam(ctx, 'product_id')) {
    throw new RestError(status, 'woocommerce_rest_product_variation_invalid_id', 'Invalid ID.');
  }
  return v;
}

function listVariations(ctx: Ctx): Result {
  const p = validateParams(ctx.params, VARIATION_LIST_SPECS);
  ctx.params = p;
  requireCap(ctx, 'list');
  const store = ctx.store;
  const parent = parentFor(ctx);
  let items = parent
    ? parent.variation_ids
        .map((id) => store.state.variations.get(id))
        .filter((v): v is VariationRec => v !== undefined)
    : [];
  const status = (p.status as string | undefined) ?? 'any';
  items = items.filter((x) => (status === 'any' ? x.status !== 'trash' : x.status === status));
  items = filterIncludeExclude(filterDates(items, p), p);
  if (typeof p.sku === 'string') {
    const skus = p.sku.split(',').map((s) => s.trim());
    items = items.filter((x) => skus.includes(x.sku));
  }
  if (typeof p.on_sale === 'boolean') items = items.filter((x) => isOnSale(x) === p.on_sale);
  if (typeof p.stock_status === 'string')
    items = items.filter((x) => effectiveStockStatus(store, x) === p.stock_status);
  if (typeof p.min_price === 'string' && p.min_price !== '')
    items = items.filter((x) => toNumber(activePrice(x)) >= toNumber(p.min_price));
  if (typeof p.max_price === 'string' && p.max_price !== '')
    items = items.filter((x) => toNumber(activePrice(x)) <= toNumber(p.max_price));
  if (typeof p.search === 'string' && p.search !== '')
    items = items.filter((x) => searchMatch(p.search, variationName(store, x), x.description));
  const keyFns: Record<string, (x: VariationRec) => string | number> = {
    date: (x) => x.created,
    id: (x) => x.id,
    title: (x) => variationName(store, x),
    slug: (x) => variationName(store, x),
    modified: (x) => x.modified,
    menu_order: (x) => x.menu_order,
  };
  items = sortByParams(items, p, keyFns, { orderby: 'date', order: 'desc' });
  return pagedResult(ctx, items, (x) => presentVariation(store, x));
}

function createVariation(ctx: Ctx): Result {
  validateParams(ctx.params, VARIATION_SPECS);
  requireCap(ctx, 'create');
  const store = ctx.store;
  if (ctx.params.id !== undefined && ctx.params.id !== null && ctx.params.id !== 0 && ctx.params.id !== '') {
    throw new RestError(
      400,
      'woocommerce_rest_product_variation_exists',
      'Cannot create existing product_variation.',
    );
  }
  const parent = parentFor(ctx);
  if (!parent) {
    throw new RestError(
      404,
      'woocommerce_rest_product_variation_invalid_parent',
      'Cannot set attributes due to invalid parent product.',
    );
  }
  const id = store.state.seq.post + 1;
  const rec = blankVariation(id, parent.id, store.now());
  writeVariation(store, rec, ctx.params);
  nextId(store.state, 'post');
  store.state.variations.set(id, rec);
  parent.variation_ids.push(id);
  store.changed();
  return {
    status: 201,
    body: presentVariation(store, rec),
    headers: { Location: store.restUrl(`/products/${parent.id}/variations/${id}`) },
  };
}

function getVariation(ctx: Ctx): Result {
  validateParams(ctx.params, { context: CONTEXT });
  if (ctx.store.state.variations.has(idParam(ctx))) requireCap(ctx, 'view');
  return { status: 200, body: presentVariation(ctx.store, getVariationOr(ctx, 404)) };
}

function updateVariation(ctx: Ctx): Result {
  if (ctx.store.state.variations.has(idParam(ctx))) requireCap(ctx, 'edit');
  const rec = getVariationOr(ctx, 400);
  const draft = structuredClone(rec);
  writeVariation(ctx.store, draft, ctx.params);
  ctx.store.state.variations.set(rec.id, draft);
  ctx.store.changed();
  return { status: 200, body: presentVariation(ctx.store, draft) };
}

function deleteVariation(ctx: Ctx): Result {
  const p = validateParams(ctx.params, { force: { type: 'boolean' } });
  const store = ctx.store;
  if (store.state.variations.has(idParam(ctx))) requireCap(ctx, 'delete');
  const rec = getVariationOr(ctx, 404);
  const body = presentVariation(store, rec);
  if (p.force === true) {
    store.state.variations.delete(rec.id);
    const parent = store.state.products.get(rec.parent_id);
    if (parent) parent.variation_ids = parent.variation_ids.filter((x) => x !== rec.id);
  } else {
    if (rec.status === 'trash') {
      throw new RestError(
        410,
        'woocommerce_rest_already_trashed',
        'The product_variation has already been deleted.',
      );
    }
    rec.status = 'trash';
  }
  store.changed();
  return { status: 200, body };
}

export function registerProducts(router: Router, store: Store): void {
  store.presenters.product = (id) => {
    const p = store.state.products.get(id);
    return p ? presentProduct(store, p) : null;
  };
  registerCrud(router, '/wc/v3/products', {
    list: listProducts,
    create: createProduct,
    get: getProduct,
    update: updateProduct,
    delete: deleteProduct,
  });
  registerCrud(router, '/wc/v3/products/(?P<product_id>[\\d]+)/variations', {
    list: listVariations,
    create: createVariation,
    get: getVariation,
    update: updateVariation,
    delete: deleteVariation,
  });
}
