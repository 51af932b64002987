import type { Store } from '../data/store.js';
import { type Specs, validateParams, validateValue } from '../rest/params.js';
import { type Ctx, READABLE, type Result, type Router, requireCap } from '../rest/router.js';
import { invalidParams, type ParamIssue } from '../runtime/errors.js';
import { reportRange } from '../system/report-range.js';
import {
  couponsTotals,
  customersTotals,
  ordersTotals,
  productsTotals,
  reviewsTotals,
  salesReport,
  type TotalRow,
  topSellers,
} from '../system/reports.js';

const VIEW_ONLY: Specs = { context: { type: 'string', enum: ['view'] } };

/**
 * WC_REST_Reports_Controller::get_reports() (v3 over V2 over V1): the index lists categories, tags and
 * attributes totals too, though WooCommerce registers no route for them.
 */
const REPORTS: [string, string][] = [
  ['sales', 'List of sales reports.'],
  ['top_sellers', 'List of top sellers products.'],
  ['orders/totals', 'Orders totals.'],
  ['products/totals', 'Products totals.'],
  ['customers/totals', 'Customers totals.'],
  ['coupons/totals', 'Coupons totals.'],
  ['reviews/totals', 'Reviews totals.'],
  ['categories/totals', 'Categories totals.'],
  ['tags/totals', 'Tags totals.'],
  ['attributes/totals', 'Attributes totals.'],
];

function index(ctx: Ctx): Result {
  validateParams(ctx.params, VIEW_ONLY);
  requireCap(ctx, 'list');
  return {
    status: 200,
    body: REPORTS.map(([slug, description]) => ({
      slug,
      description,
      _links: {
        self: [{ href: ctx.store.restUrl(`/reports/${slug}`) }],
        collection: [{ href: ctx.store.restUrl('/reports') }],
      },
    })),
  };
}

/**
 * WC_REST_Report_Sales_V1_Controller::get_collection_params(): `period` is an enum; `date_min`/`date_max` go
 * through wc_rest_validate_reports_request_arg(), which wants a string in `YYYY-MM-DD`. Every bad arg is
 * reported at once, as WP_REST_Request::has_valid_params() does.
 */
function rangeParams(ctx: Ctx): { period?: string; date_min?: string; date_max?: string } {
  const issues: ParamIssue[] = [];
  const p = ctx.params;
  const out: { period?: string; date_min?: string; date_max?: string } = {};
  for (const [name, spec] of Object.entries(VIEW_ONLY)) {
    if (p[name] === undefined || p[name] === null) continue;
    const r = validateValue(name, p[name], spec);
    if (!r.ok) issues.push(r.issue);
  }
  if (p.period !== undefined && p.period !== null) {
    const r = validateValue('period', p.period, {
      type: 'string',
      enum: ['week', 'month', 'last_month', 'year'],
    });
    if (r.ok) out.period = r.value as string;
    else issues.push(r.issue);
  }
  for (const name of ['date_min', 'date_max'] as const) {
    const v = p[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'string') {
      issues.push({
        param: name,
        code: 'woocommerce_rest_invalid_param',
        message: `${name} is not of type string`,
      });
    } else if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) {
      issues.push({
        param: name,
        code: 'woocommerce_rest_invalid_date',
        message: 'The date you provided is invalid.',
      });
    } else out[name] = v;
  }
  if (issues.length > 0) throw invalidParams(issues);
  return out;
}

const aboutLink = (store: Store) => ({ about: [{ href: store.restUrl('/reports') }] });

function sales(ctx: Ctx): Result {
  const p = rangeParams(ctx);
  requireCap(ctx, 'list');
  const report = salesReport(ctx.store, reportRange(p, Date.now()));
  return { status: 200, body: [{ ...report, _links: aboutLink(ctx.store) }] };
}

function sellers(ctx: Ctx): Result {
  const p = rangeParams(ctx);
  requireCap(ctx, 'list');
  const rows = topSellers(ctx.store, reportRange(p, Date.now()));
  return {
    status: 200,
    body: rows.map((r) => ({
      ...r,
      _links: {
        ...aboutLink(ctx.store),
        product: [{ href: ctx.store.restUrl(`/products/${r.product_id}`) }],
      },
    })),
  };
}

/** The totals controllers: every row of get_reports(), unpaged, without links. */
function totals(rows: (store: Store) => TotalRow[]) {
  return (ctx: Ctx): Result => {
    validateParams(ctx.params, VIEW_ONLY);
    requireCap(ctx, 'list');
    return { status: 200, body: rows(ctx.store) };
  };
}

export function registerReports(router: Router, _store: Store): void {
  router.add('/wc/v3/reports', READABLE, index);
  router.add('/wc/v3/reports/sales', READABLE, sales);
  router.add('/wc/v3/reports/top_sellers', READABLE, sellers);
  router.add('/wc/v3/reports/orders/totals', READABLE, totals(ordersTotals));
  router.add('/wc/v3/reports/products/totals', READABLE, totals(productsTotals));
  router.add('/wc/v3/reports/customers/totals', READABLE, totals(customersTotals));
  router.add('/wc/v3/reports/coupons/totals', READABLE, totals(couponsTotals));
  router.add('/wc/v3/reports/reviews/totals', READABLE, totals(reviewsTotals));
}
