import { blankProduct } from '../catalog/products.js';
import { syncStockStatus } from '../catalog/stock.js';
import { blankVariation } from '../catalog/variations.js';
import type { CustomerRec, TermRec } from '../data/rows.js';
import type { Store } from '../data/store.js';
import { ADMIN_USER_ID, nextId } from '../data/tables.js';
import { blankOrder, writeOrder } from '../orders/orders.js';
import { blankCoupon } from '../pricing/coupons.js';
import { slugify } from '../runtime/formatting.js';

const BASE = Date.UTC(2024, 0, 15, 9, 0, 0);
const HOUR = 3_600_000;

const CATEGORIES = ['Clothing', 'Accessories', 'Music', 'Decor', 'Kitchen'];
const TAGS = ['new', 'sale', 'gift', 'organic', 'limited'];

const SIMPLE: [name: string, price: string, category: string][] = [
  ['Beanie', '20', 'Accessories'],
  ['Belt', '65', 'Accessories'],
  ['Cap', '18', 'Accessories'],
  ['Sunglasses', '90', 'Accessories'],
  ['Wool Scarf', '35', 'Accessories'],
  ['Leather Wallet', '55', 'Accessories'],
  ['Album', '15', 'Music'],
  ['Single', '3', 'Music'],
  ['Vinyl Record', '28', 'Music'],
  ['Concert Poster', '12', 'Decor'],
  ['Ceramic Vase', '42', 'Decor'],
  ['Wall Clock', '38', 'Decor'],
  ['Throw Pillow', '24', 'Decor'],
  ['Scented Candle', '16', 'Decor'],
  ['Polo', '20', 'Clothing'],
  ['Long Sleeve Tee', '25', 'Clothing'],
  ['Hoodie with Logo', '45', 'Clothing'],
  ['Hoodie with Zipper', '45', 'Clothing'],
  ['Denim Jacket', '89', 'Clothing'],
  ['Rain Coat', '120', 'Clothing'],
  ['Chef Knife', '79', 'Kitchen'],
  ['Cutting Board', '32', 'Kitchen'],
  ['Espresso Cup Set', '27', 'Kitchen'],
  ['French Press', '36', 'Kitchen'],
  ['Tea Towel', '9', 'Kitchen'],
  ['Gift Card', '50', 'Accessories'],
];

const VARIABLE: [name: string, category: string, attr: string, options: string[], price: number][] = [
  ['T-Shirt', 'Clothing', 'Size', ['Small', 'Medium', 'Large'], 18],
  ['Hoodie', 'Clothing', 'Color', ['Red', 'Green', 'Blue'], 42],
  ['Sneakers', 'Clothing', 'Size', ['40', '41', '42', '43'], 75],
  ['Mug', 'Kitchen', 'Color', ['White', 'Black'], 12],
];

const PEOPLE: [first: string, last: string, city: string, country: string][] = [
  ['John', 'Doe', 'San Francisco', 'US'],
  ['Jane', 'Smith', 'Austin', 'US'],
  ['Ana', 'García', 'Madrid', 'ES'],
  ['Luca', 'Rossi', 'Milano', 'IT'],
  ['Mia', 'Müller', 'Berlin', 'DE'],
  ['Kenji', 'Sato', 'Osaka', 'JP'],
  ['Amara', 'Okafor', 'Lagos', 'NG'],
  ['Chloé', 'Martin', 'Lyon', 'FR'],
];

const ORDER_STATUSES = [
  'completed',
  'processing',
  'pending',
  'on-hold',
  'completed',
  'cancelled',
  'processing',
  'failed',
  'completed',
  'refunded',
  'processing',
  'pending',
  'completed',
  'on-hold',
];

/** A deterministic demo catalogue: categories, tags, simple + variable products, customers, orders. */
export function seedDemo(store: Store): void {
  const rand = seededRandom(20240115);
  const state = store.state;
  const cat = new Map<string, number>();
  for (const name of CATEGORIES) {
    const id = nextId(state, 'term');
    const t: TermRec = {
      id,
      taxonomy: 'product_cat',
      name,
      slug: slugify(name),
      parent: 0,
      description: '',
      display: 'default',
      image: null,
      menu_order: 0,
    };
    state.terms.set(id, t);
    cat.set(name, id);
  }
  const tags: number[] = [];
  for (const name of TAGS) {
    const id = nextId(state, 'term');
    state.terms.set(id, {
      id,
      taxonomy: 'product_tag',
      name,
      slug: slugify(name),
      parent: 0,
      description: '',
      display: 'default',
      image: null,
      menu_order: 0,
    });
    tags.push(id);
  }

  let t = BASE;
  const productIds: number[] = [];
  SIMPLE.forEach(([name, price, category], i) => {
    t += HOUR;
    const p = blankProduct(nextId(state, 'post'), t);
    p.name = name;
    p.slug = slugify(name);
    p.sku = `woo-${slugify(name)}`;
    p.regular_price = price;
    if (i % 5 === 1) p.sale_price = String(Math.max(1, Math.round(Number(price) * 0.8)));
    p.description = `<p>${name}: demo product from the x-sandbox seed.</p>`;
    p.short_description = `<p>A ${name.toLowerCase()}.</p>`;
    p.categories = [cat.get(category)!];
    p.tags = [tags[i % tags.length]!];
    p.featured = i % 7 === 0;
    p.virtual = name === 'Gift Card';
    p.downloadable = name === 'Single' || name === 'Album';
    if (i % 3 !== 2) {
      p.manage_stock = true;
      p.stock_quantity = i % 8 === 4 ? 0 : 5 + Math.floor(rand() * 40);
    }
    if (i === 10) p.status = 'draft';
    p.images = [
      {
        id: nextId(state, 'post'),
        src: `https://picsum.photos/seed/${p.slug}/800/800`,
        name: p.slug,
        alt: '',
        created: t,
        modified: t,
      },
    ];
    p.weight = (0.1 + rand() * 2).toFixed(1);
    syncStockStatus(p);
    state.products.set(p.id, p);
    productIds.push(p.id);
  });

  const variationIds: number[] = [];
  for (const [name, category, attr, options, price] of VARIABLE) {
    t += HOUR;
    const p = blankProduct(nextId(state, 'post'), t);
    p.name = name;
    p.slug = slugify(name);
    p.type = 'variable';
    p.sku = `woo-${slugify(name)}`;
    p.categories = [cat.get(category)!];
    p.attributes = [{ id: 0, name: attr, position: 0, visible: true, variation: true, options }];
    p.description = `<p>${name} in several ${attr.toLowerCase()}s.</p>`;
    state.products.set(p.id, p);
    options.forEach((option, j) => {
      const v = blankVariation(nextId(state, 'post'), p.id, t);
      v.sku = `${p.sku}-${slugify(option)}`;
      v.regular_price = String(price + j * 2);
      if (j === 0) v.sale_price = String(price - 3);
      v.attributes = [{ id: 0, name: attr, option }];
      v.manage_stock = true;
      v.stock_quantity = 3 + Math.floor(rand() * 20);
      syncStockStatus(v);
      state.variations.set(v.id, v);
      p.variation_ids.push(v.id);
      variationIds.push(v.id);
    });
    productIds.push(p.id);
  }

  const customers: CustomerRec[] = [];
  PEOPLE.forEach(([first, last, city, country], i) => {
    t += HOUR;
    const username = slugify(`${first}.${last}`).replace(/-/g, '.');
    const email = `${slugify(first)}.${slugify(last)}@example.com`;
    const address = {
      first_name: first,
      last_name: last,
      company: '',
      address_1: `${10 + i} Demo Street`,
      address_2: '',
      city,
      state: '',
      postcode: String(10000 + i * 111),
      country,
      phone: `+1-555-01${String(i).padStart(2, '0')}`,
    };
    const c: CustomerRec = {
      id: nextId(state, 'user'),
      created: t,
      modified: t,
      email,
      first_name: first,
      last_name: last,
      role: 'customer',
      username,
      billing: { ...address, email },
      shipping: { ...address },
      is_paying_customer: false,
      meta_data: [],
    };
    state.customers.set(c.id, c);
    customers.push(c);
  });

  const sellable = productIds.filter(
    (id) => state.products.get(id)!.type === 'simple' && state.products.get(id)!.status === 'publish',
  );
  ORDER_STATUSES.forEach((status, i) => {
    t += HOUR;
    const customer = i % 4 === 3 ? undefined : customers[i % customers.length];
    const lines: Record<string, unknown>[] = [
      { product_id: sellable[(i * 3) % sellable.length], quantity: 1 + (i % 3) },
    ];
    if (i % 2 === 0) lines.push({ variation_id: variationIds[i % variationIds.length], quantity: 1 });
    const o = blankOrder(store, nextId(state, 'post'), t);
    writeOrder(
      store,
      o,
      {
        status: status === 'refunded' ? 'completed' : status,
        customer_id: customer?.id ?? 0,
        payment_method: i % 2 === 0 ? 'bacs' : 'cod',
        payment_method_title: i % 2 === 0 ? 'Direct bank transfer' : 'Cash on delivery',
        billing: customer?.billing ?? {
          first_name: 'Guest',
          last_name: `Buyer ${i}`,
          email: `guest${i}@example.com`,
          country: 'US',
        },
        shipping: customer?.shipping ?? {},
        line_items: lines,
        shipping_lines: [{ method_id: 'flat_rate', method_title: 'Flat rate', total: '5.00' }],
      },
      true,
    );
    if (status === 'refunded') o.status = 'refunded';
    o.created_via = 'checkout';
    o.order_key = `wc_order_${Math.floor(rand() * 36 ** 8)
      .toString(36)
      .padStart(8, '0')}demo`;
    o.created = t;
    o.modified = t;
    if (o.date_paid !== null) o.date_paid = t + 60_000;
    if (o.date_completed !== null) o.date_completed = t + 2 * HOUR;
    state.orders.set(o.id, o);
  });
  // Three published coupons, one of each discount type (after the orders, so no earlier id moves).
  const coupons: [code: string, type: string, amount: string, description: string][] = [
    ['welcome10', 'percent', '10', '10% off for new customers.'],
    ['save5', 'fixed_cart', '5', '5 off any cart of 25 or more.'],
    ['music2', 'fixed_product', '2', '2 off each music item.'],
  ];
  for (const [code, type, amount, description] of coupons) {
    t += HOUR;
    const c = blankCoupon(nextId(state, 'post'), t);
    Object.assign(c, { code, discount_type: type, amount, description });
    if (code === 'save5') c.minimum_amount = '25';
    if (code === 'music2') c.product_categories = [cat.get('Music')!];
    state.coupons.set(c.id, c);
  }
  // Stock moves above stamp "now"; keep the seed byte-for-byte deterministic.
  for (const p of state.products.values()) p.modified = p.created;
  for (const v of state.variations.values()) v.modified = v.created;
  void ADMIN_USER_ID;
}

/** Deterministic PRNG (mulberry32) for the demo seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
