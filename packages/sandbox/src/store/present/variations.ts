import { activePrice, isOnSale, variationName } from '../catalog/prices.js';
import { effectiveStockStatus } from '../catalog/stock.js';
import type { VariationRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { slugify } from '../runtime/formatting.js';
import { wcDate } from '../runtime/values.js';
import { backorderFlags, permalink, presentImage, shippingClassId } from './sellable.js';

/** add_query_arg(): appended with `&` when the parent's link is already the plain `?post_type=product&p=` one. */
function withQuery(link: string, query: string): string {
  return query ? `${link}${link.includes('?') ? '&' : '?'}${query}` : link;
}

/** The variation's permalink is the parent's with the chosen attributes as `attribute_*` query parameters. */
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
    permalink: parent ? withQuery(permalink(store, parent), query) : '',
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
    shipping_class_id: shippingClassId(store, v.shipping_class),
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
