/**
 * Bodies of the right shape with hostile values: built from the routes' own arg specs, so most values pass
 * WordPress's type checks and reach the model (order totals, coupons, refunds, stock, settings), where a random
 * body stops at `rest_invalid_param`. Values are still extreme: ids of other records, huge and negative numbers,
 * numeric strings PHP reads differently, `__proto__` as a meta key or an attribute name.
 */
import fc from 'fast-check';
import { Store } from '../../src/store/data/store.js';
import type { Spec, Specs } from '../../src/store/rest/params.js';
import { META_DATA } from '../../src/store/routes/params/common.js';
import { couponSpecs } from '../../src/store/routes/params/coupons.js';
import { customerSpecs } from '../../src/store/routes/params/customers.js';
import { NOTE_SPECS } from '../../src/store/routes/params/notes.js';
import { ORDER_SPECS } from '../../src/store/routes/params/orders.js';
import { PRODUCT_SPECS } from '../../src/store/routes/params/products.js';
import { REFUND_SPECS } from '../../src/store/routes/params/refunds.js';
import { REVIEW_CREATE_SPECS } from '../../src/store/routes/params/reviews.js';
import {
  LOCATION_SPECS,
  METHOD_CREATE_SPECS,
  ZONE_SPECS,
} from '../../src/store/routes/params/shipping-zones.js';
import { TAX_CLASS_CREATE_SPECS, taxRateSpecs } from '../../src/store/routes/params/taxes.js';
import { VARIATION_SPECS } from '../../src/store/routes/params/variations.js';
import { WEBHOOK_CREATE_SPECS } from '../../src/store/routes/params/webhooks.js';
import { type JsonTree, jsonText, jsonTree, PROTO_KEYS } from './store-arbitraries.js';
import type { FuzzStore } from './store-harness.js';

const TERM: Specs = {
  name: { type: 'string' },
  slug: { type: 'string' },
  parent: { type: 'integer' },
  description: { type: 'string' },
  menu_order: { type: 'integer' },
  display: { type: 'string' },
};
const ATTRIBUTE: Specs = {
  name: { type: 'string' },
  slug: { type: 'string' },
  type: { type: 'string' },
  order_by: { type: 'string' },
  has_archives: { type: 'boolean' },
};
const GATEWAY: Specs = {
  enabled: { type: 'boolean' },
  title: { type: 'string' },
  description: { type: 'string' },
  order: { type: 'integer' },
  settings: { type: 'object' },
};
const SETTING: Specs = { value: { type: 'mixed' } };

/** The specs of the body a write route takes, by the route template's family. */
function specsFor(route: string): Specs | 'locations' {
  const table: [RegExp, Specs | 'locations'][] = [
    [/variations/, VARIATION_SPECS],
    [/attributes\/[^/]+\/terms|categories|tags|shipping_classes/, TERM],
    [/attributes/, ATTRIBUTE],
    [/reviews/, REVIEW_CREATE_SPECS],
    [/^\/products/, PRODUCT_SPECS],
    [/notes/, NOTE_SPECS],
    [/refunds/, REFUND_SPECS],
    [/^\/orders/, ORDER_SPECS],
    [/customers/, customerSpecs(true)],
    [/coupons/, couponSpecs(true)],
    [/taxes\/classes/, TAX_CLASS_CREATE_SPECS],
    [/taxes/, taxRateSpecs(new Store({} as never, []))],
    [/webhooks/, WEBHOOK_CREATE_SPECS],
    [/locations/, 'locations'],
    [/methods/, METHOD_CREATE_SPECS],
    [/zones/, ZONE_SPECS],
    [/payment_gateways/, GATEWAY],
  ];
  return table.find(([re]) => re.test(route))?.[1] ?? SETTING;
}

const hostileString = fc.oneof(
  fc.constantFrom(
    '',
    '0',
    '-1',
    '12.50',
    '1e400',
    '-0.00',
    '9999999999999999999999',
    '0x1A',
    ' 3 ',
    '1,5',
    'abc',
  ),
  fc.constantFrom(
    '2024-02-30T25:61:00',
    '2024-01-01T00:00:00',
    '0000-00-00 00:00:00',
    'US',
    'US:CA',
    'standard',
  ),
  fc.constantFrom(
    'percent',
    'fixed_cart',
    'fixed_product',
    'completed',
    'processing',
    'variable',
    'flat_rate',
  ),
  fc.constantFrom('a@b.co', 'http://127.0.0.1:1/x', '<script>x</script>', '%', '*', '..', 'null'),
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

const hostileInt = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: -3, max: 60 }) },
  fc.constantFrom(2 ** 31, -(2 ** 31), Number.MAX_SAFE_INTEGER, 1e300, -1e300),
);

/** Every record id but the sentinels' (an id of one kind may be the sentinel's of another: posts and users). */
function poolOf(f: FuzzStore): number[] {
  const sentinels = [f.sentinel.product, f.sentinel.customer];
  return Object.values(f.ids)
    .flat()
    .filter((id) => !sentinels.includes(id));
}

/** Doubles that cannot name a record. */
const fraction = fc
  .double({ noNaN: true, noDefaultInfinity: true })
  .filter((d) => !Number.isInteger(d) || Math.abs(d) > 1e6);

/** A value for one spec: the right type mostly (ids from real records), a random tree sometimes. */
function valueFor(spec: Spec, f: FuzzStore, depth: number): fc.Arbitrary<JsonTree> {
  const text = (a: fc.Arbitrary<unknown>) =>
    a.map((v): JsonTree => ({ kind: 'scalar', text: JSON.stringify(v) }));
  const ids = poolOf(f);
  let typed: fc.Arbitrary<JsonTree>;
  switch (spec.type) {
    case 'integer':
    case 'number':
      typed = text(fc.oneof(hostileInt, fc.constantFrom(...ids), fraction));
      break;
    case 'string':
      typed = text(
        spec.enum
          ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...spec.enum) }, hostileString)
          : hostileString,
      );
      break;
    case 'boolean':
      typed = text(fc.oneof(fc.boolean(), fc.constantFrom('true', 'false', '1', '0', 1, 0)));
      break;
    case 'array':
      typed =
        depth > 3
          ? fc.constant({ kind: 'array', items: [] })
          : fc
              .array(valueFor(spec.items ?? { type: 'mixed' }, f, depth + 1), { maxLength: 4 })
              .map((items): JsonTree => ({ kind: 'array', items }));
      break;
    case 'object':
      typed =
        depth > 3 ? fc.constant({ kind: 'object', entries: [] }) : objectFor(spec.props ?? {}, f, depth + 1);
      break;
    default:
      typed = jsonTree;
  }
  return fc.oneof({ weight: 8, arbitrary: typed }, jsonTree);
}

/** An object with some of `specs`' fields (and, now and then, a hostile extra key). */
function objectFor(specs: Specs, f: FuzzStore, depth: number): fc.Arbitrary<JsonTree> {
  const names = Object.keys(specs);
  if (names.length === 0) return jsonTree.filter((t) => t.kind === 'object');
  return fc
    .tuple(
      fc.subarray(names, { maxLength: Math.min(8, names.length) }),
      fc.array(fc.tuple(fc.constantFrom(...PROTO_KEYS, 'meta_data', 'id'), jsonTree), { maxLength: 1 }),
    )
    .chain(([chosen, extra]) =>
      fc
        .tuple(...chosen.map((name) => valueFor(name === 'meta_data' ? metaSpec : specs[name]!, f, depth)))
        .map(
          (values): JsonTree => ({
            kind: 'object',
            entries: [...chosen.map((name, i): [string, JsonTree] => [name, values[i]!]), ...extra],
          }),
        ),
    );
}

/** meta_data entries whose keys are often an object's own property names. */
const metaSpec: Spec = META_DATA;

/** The body for a write route: the route's fields with hostile values; batches of them for `/batch`. */
export function typedBody(f: FuzzStore, route: string): fc.Arbitrary<string> {
  if (route.startsWith('/settings')) return settingsBody(f, route);
  const specs = specsFor(route);
  if (specs === 'locations') {
    return fc
      .array(objectFor(LOCATION_SPECS, f, 1), { maxLength: 4 })
      .map((items) => jsonText({ kind: 'array', items }));
  }
  const item = objectFor(specs, f, 0);
  if (!route.endsWith('/batch')) return item.map(jsonText);
  const ids = poolOf(f);
  return fc
    .record({
      create: fc.array(item, { maxLength: 3 }),
      update: fc.array(
        fc
          .tuple(fc.constantFrom(...ids), item)
          .map(
            ([id, t]): JsonTree =>
              t.kind === 'object'
                ? { ...t, entries: [['id', { kind: 'scalar', text: String(id) }], ...t.entries] }
                : t,
          ),
        { maxLength: 3 },
      ),
      delete: fc.array(fc.constantFrom(...ids), { maxLength: 3 }),
    })
    .map(({ create, update, delete: del }) =>
      jsonText({
        kind: 'object',
        entries: [
          ['create', { kind: 'array', items: create }],
          ['update', { kind: 'array', items: update }],
          [
            'delete',
            { kind: 'array', items: del.map((id): JsonTree => ({ kind: 'scalar', text: String(id) })) },
          ],
        ],
      }),
    );
}

/** A setting's `{value}`, or a settings batch: updates naming real settings (and groups), hostile values. */
function settingsBody(f: FuzzStore, route: string): fc.Arbitrary<string> {
  const value = fc.oneof(valueFor({ type: 'string' }, f, 0), jsonTree);
  if (!route.endsWith('/batch'))
    return value.map((v) => jsonText({ kind: 'object', entries: [['value', v]] }));
  const update = fc
    .record({
      id: fc.oneof(fc.constantFrom(...f.settingIds), fc.constantFrom(...PROTO_KEYS)),
      group: fc.option(fc.constantFrom(...f.settingsGroups, '__proto__'), { nil: undefined }),
      value,
    })
    .map(
      ({ id, group, value: v }): JsonTree => ({
        kind: 'object',
        entries: [
          ['id', { kind: 'scalar', text: JSON.stringify(id) }],
          ...(group === undefined
            ? []
            : [['group_id', { kind: 'scalar', text: JSON.stringify(group) }] as [string, JsonTree]]),
          ['value', v],
        ],
      }),
    );
  return fc
    .array(update, { maxLength: 4 })
    .map((items) => jsonText({ kind: 'object', entries: [['update', { kind: 'array', items }]] }));
}
