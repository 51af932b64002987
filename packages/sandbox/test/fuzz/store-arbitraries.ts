/**
 * fast-check arbitraries for fuzzing the store emulator's bodies: JSON texts written by hand, so `__proto__`
 * keys, 6,000-level nesting, huge arrays and out-of-range number tokens reach the server as sent. The request
 * line and headers are in store-request-arbitraries.ts.
 */
import fc from 'fast-check';

/** Keys that mean something to an object in JavaScript; a user must never be able to set them on one. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  '__defineGetter__',
  'toJSON',
  'then',
] as const;

/** Field names the wc/v3 controllers read (from the routes' arg specs), so random bodies reach the handlers. */
export const FIELD_NAMES = [
  ...'id name type status slug sku description short_description regular_price sale_price price featured'.split(
    ' ',
  ),
  ...'manage_stock stock_quantity stock_status backorders low_stock_amount sold_individually virtual downloadable'.split(
    ' ',
  ),
  ...'categories tags images attributes default_attributes variations grouped_products upsell_ids cross_sell_ids'.split(
    ' ',
  ),
  ...'dimensions length width height weight shipping_class tax_class tax_status menu_order parent parent_id'.split(
    ' ',
  ),
  ...'date_on_sale_from date_on_sale_to date_created date_expires meta_data key value options option position visible'.split(
    ' ',
  ),
  ...'line_items shipping_lines fee_lines coupon_lines tax_lines product_id variation_id quantity total subtotal'.split(
    ' ',
  ),
  ...'billing shipping first_name last_name email phone country state postcode city address_1 currency'.split(
    ' ',
  ),
  ...'customer_id customer_note payment_method payment_method_title transaction_id set_paid amount reason'.split(
    ' ',
  ),
  ...'refunded_by api_refund api_restock note customer_note added_by_user username password role'.split(' '),
  ...'code discount_type individual_use product_ids excluded_product_ids usage_limit usage_limit_per_user'.split(
    ' ',
  ),
  ...'free_shipping minimum_amount maximum_amount email_restrictions exclude_sale_items limit_usage_to_x_items'.split(
    ' ',
  ),
  ...'rate priority compound class postcodes cities order settings enabled method_id instance_id title'.split(
    ' ',
  ),
  ...'topic delivery_url secret create update delete force reassign review reviewer reviewer_email rating'.split(
    ' ',
  ),
  ...'has_archives order_by src alt external_url button_text purchase_note download_limit download_expiry'.split(
    ' ',
  ),
] as const;

/** A JSON value as a tree, so the text can say what `JSON.stringify` cannot (`__proto__` keys, `1e400`). */
export type JsonTree =
  | { kind: 'scalar'; text: string }
  | { kind: 'array'; items: JsonTree[] }
  | { kind: 'repeat'; count: number; item: JsonTree }
  | { kind: 'object'; entries: [string, JsonTree][] };

/** Number tokens PHP and JavaScript read differently, or not at all as a safe integer. */
const NUMBER_TOKENS = [
  '1e400',
  '-1e400',
  '1e308',
  '-0',
  '0.1e-999',
  '9007199254740993',
  '18446744073709551616',
  '1.5',
];

const scalar: fc.Arbitrary<JsonTree> = fc
  .oneof(
    { weight: 3, arbitrary: fc.integer({ min: -5, max: 60 }).map(String) },
    fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
    fc.constantFrom(...NUMBER_TOKENS),
    fc.constantFrom('true', 'false', 'null'),
    { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 24 }).map((s) => JSON.stringify(s)) },
    fc
      .constantFrom(
        '',
        '0',
        '1',
        'yes',
        'publish',
        'variable',
        'simple',
        'completed',
        'US',
        'CA',
        '*',
        'percent',
      )
      .map((s) => JSON.stringify(s)),
    fc.constantFrom(...PROTO_KEYS).map((s) => JSON.stringify(s)),
  )
  .map((text) => ({ kind: 'scalar', text }));

const key: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) },
  { weight: 2, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.nat(40).map(String),
);

/** Random JSON trees of modest depth: objects keyed mostly by real field names, any value type anywhere. */
export const jsonTree: fc.Arbitrary<JsonTree> = fc.letrec<{ tree: JsonTree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('tree'), { maxLength: 5 }).map((items): JsonTree => ({ kind: 'array', items })),
    fc
      .array(fc.tuple(key, tie('tree')), { maxLength: 6 })
      .map((entries): JsonTree => ({ kind: 'object', entries })),
    fc
      .record({ count: fc.integer({ min: 100, max: 20_000 }), item: scalar })
      .map(({ count, item }): JsonTree => ({ kind: 'repeat', count, item })),
  ),
})).tree;

export function jsonText(tree: JsonTree): string {
  switch (tree.kind) {
    case 'scalar':
      return tree.text;
    case 'array':
      return `[${tree.items.map(jsonText).join(',')}]`;
    case 'repeat': {
      const item = jsonText(tree.item);
      return `[${new Array<string>(tree.count).fill(item).join(',')}]`;
    }
    case 'object':
      return `{${tree.entries.map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`).join(',')}}`;
  }
}

/** A tree nested `depth` levels deep in arrays or single-key objects (PHP's json_decode() stops at 512). */
function nest(depth: number, inner: string, asObject: boolean, keyName: string): string {
  const open = asObject ? `{${JSON.stringify(keyName)}:` : '[';
  const close = asObject ? '}' : ']';
  return `${open.repeat(depth)}${inner}${close.repeat(depth)}`;
}

/** The text of a request body that claims to be JSON: mostly objects of real fields, sometimes anything. */
export const jsonBody: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .array(fc.tuple(key, jsonTree), { maxLength: 8 })
      .map((entries) => jsonText({ kind: 'object', entries })),
  },
  { weight: 2, arbitrary: jsonTree.map(jsonText) },
  fc
    .record({
      depth: fc.oneof(fc.integer({ min: 400, max: 600 }), fc.integer({ min: 1_000, max: 6_000 })),
      asObject: fc.boolean(),
      field: key,
      inner: jsonTree.map(jsonText),
      wrap: fc.option(fc.constantFrom(...FIELD_NAMES), { nil: undefined }),
    })
    .map(({ depth, asObject, field, inner, wrap }) => {
      const deep = nest(depth, inner, asObject, field);
      return wrap ? `{${JSON.stringify(wrap)}:${deep}}` : deep;
    }),
  // Not JSON at all, or JSON cut short.
  fc.string({ unit: 'binary', maxLength: 64 }),
  jsonTree.chain((t) => {
    const text = jsonText(t);
    return fc.nat(text.length).map((n) => text.slice(0, n));
  }),
);

/** The `batch` endpoints' body: create/update/delete lists of random items (update items carry ids). */
export const batchBody: fc.Arbitrary<string> = fc
  .record({
    create: fc.option(fc.array(jsonTree, { maxLength: 4 }), { nil: undefined }),
    update: fc.option(
      fc.array(
        fc.tuple(fc.oneof(fc.integer({ min: -2, max: 60 }), fc.constantFrom(1e300, -0, 0.5)), jsonTree),
        { maxLength: 4 },
      ),
      { nil: undefined },
    ),
    delete: fc.option(fc.oneof(fc.array(scalar, { maxLength: 4 }), scalar), { nil: undefined }),
  })
  .map(({ create, update, delete: del }) => {
    const entries: [string, JsonTree][] = [];
    if (create) entries.push(['create', { kind: 'array', items: create }]);
    if (update)
      entries.push([
        'update',
        {
          kind: 'array',
          items: update.map(([id, t]) =>
            t.kind === 'object'
              ? {
                  kind: 'object',
                  entries: [['id', { kind: 'scalar', text: JSON.stringify(id) }], ...t.entries],
                }
              : t,
          ),
        },
      ]);
    if (del) entries.push(['delete', Array.isArray(del) ? { kind: 'array', items: del } : del]);
    return jsonText({ kind: 'object', entries });
  });
