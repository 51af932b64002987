import * as z from 'zod/mini';
import { links } from './common.js';

export const reportIndexEntry = z.looseObject({
  slug: z.string(),
  description: z.string(),
  _links: links,
});
/** An entry of GET /reports. WooCommerce also lists `categories`, `tags` and `attributes` totals it does not serve. */
export interface ReportIndexEntry extends z.infer<typeof reportIndexEntry> {}

const periodTotals = z.looseObject({
  sales: z.string(),
  orders: z.number(),
  items: z.number(),
  tax: z.string(),
  shipping: z.string(),
  discount: z.string(),
  customers: z.number(),
});
/** One day's (or month's) totals in a sales report. */
export interface SalesPeriodTotals extends z.infer<typeof periodTotals> {}

export const salesReport = z.looseObject({
  total_sales: z.string(),
  net_sales: z.string(),
  average_sales: z.string(),
  total_orders: z.number(),
  total_items: z.number(),
  total_tax: z.string(),
  total_shipping: z.string(),
  /** A JSON number (WooCommerce sends the unformatted float). */
  total_refunds: z.union([z.number(), z.string()]),
  total_discount: z.union([z.string(), z.number()]),
  totals_grouped_by: z.string(),
  /** By `YYYY-MM-DD` (grouped by day) or `YYYY-MM` (by month), every period of the range. */
  totals: z.record(z.string(), periodTotals as z.ZodMiniType<SalesPeriodTotals>),
  total_customers: z.number(),
  _links: links,
});
/** Sales in a period (the legacy WooCommerce > Reports figures): gross and net sales, orders, items, refunds. */
export interface SalesReport extends z.infer<typeof salesReport> {}

export const topSeller = z.looseObject({
  name: z.string(),
  product_id: z.number(),
  quantity: z.number(),
  _links: links,
});
export interface TopSeller extends z.infer<typeof topSeller> {}

export const reportTotal = z.looseObject({
  slug: z.string(),
  name: z.string(),
  total: z.number(),
});
/** One row of a totals report: an order status, a product type, a coupon type, a rating, ... with its count. */
export interface ReportTotal extends z.infer<typeof reportTotal> {}

const ymd = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date as YYYY-MM-DD'));
const salesParamsShape = z.strictObject({
  context: z.optional(z.enum(['view'])),
  /** A period ending today; without one (and without dates), today alone. `week` is the last 7 days. */
  period: z.optional(z.enum(['week', 'month', 'last_month', 'year'])),
  /** A custom range's first day (`YYYY-MM-DD`, the store's time zone); ignored with `period`. */
  date_min: z.optional(ymd),
  /** A custom range's last day, included. */
  date_max: z.optional(ymd),
});
export interface SalesReportParams extends z.input<typeof salesParamsShape> {}
export const salesReportParams: z.ZodMiniType<SalesReportParams, SalesReportParams> = salesParamsShape;
