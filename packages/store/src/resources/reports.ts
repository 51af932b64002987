import { APIPromise, type RequestOptions, type RequestSpec } from '@x/core';
import * as z from 'zod/mini';
import {
  type ReportIndexEntry,
  type ReportTotal,
  reportIndexEntry,
  reportTotal,
  type SalesReport,
  type SalesReportParams,
  salesReport,
  salesReportParams,
  type TopSeller,
  topSeller,
} from '../schemas/reports.js';
import { checkInput } from '../schemas/validate.js';
import type { StoreContext } from './collection.js';

/**
 * `/reports`: the REST reports WooCommerce keeps from its legacy reports (sales, top sellers) and the totals
 * by status or type. They are computed on each request; none is paged.
 */
export class Reports {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** The reports the store lists. */
  list(options?: RequestOptions): APIPromise<ReportIndexEntry[]> {
    return this.#get('', z.array(reportIndexEntry), 'reports.list', options);
  }

  /** Sales in a period: the store answers a list holding one report, which this returns. */
  sales(params?: SalesReportParams, options?: RequestOptions): APIPromise<SalesReport> {
    const list = this.#context.client.request(() => ({
      method: 'GET' as const,
      path: '/reports/sales',
      query: this.#params(params, 'reports.sales params') as RequestSpec['query'],
      schema: z.tuple([salesReport]),
      what: 'reports.sales',
      options,
    }));
    return new APIPromise(list.withResponse().then((r) => ({ ...r, data: r.data[0] })));
  }

  /** The most sold products in a period (at most 12), most sold first. */
  topSellers(params?: SalesReportParams, options?: RequestOptions): APIPromise<TopSeller[]> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: '/reports/top_sellers',
      query: this.#params(params, 'reports.topSellers params') as RequestSpec['query'],
      schema: z.array(topSeller),
      what: 'reports.topSellers',
      options,
    }));
  }

  /** Orders per status (`pending`, `processing`, ...). */
  ordersTotals(options?: RequestOptions): APIPromise<ReportTotal[]> {
    return this.#get('/orders/totals', z.array(reportTotal), 'reports.ordersTotals', options);
  }

  /** Published products per type (`simple`, `variable`, ...). */
  productsTotals(options?: RequestOptions): APIPromise<ReportTotal[]> {
    return this.#get('/products/totals', z.array(reportTotal), 'reports.productsTotals', options);
  }

  /** Paying and non-paying customers. */
  customersTotals(options?: RequestOptions): APIPromise<ReportTotal[]> {
    return this.#get('/customers/totals', z.array(reportTotal), 'reports.customersTotals', options);
  }

  /** Coupons per discount type. */
  couponsTotals(options?: RequestOptions): APIPromise<ReportTotal[]> {
    return this.#get('/coupons/totals', z.array(reportTotal), 'reports.couponsTotals', options);
  }

  /** Product reviews per rating, 1 to 5. */
  reviewsTotals(options?: RequestOptions): APIPromise<ReportTotal[]> {
    return this.#get('/reviews/totals', z.array(reportTotal), 'reports.reviewsTotals', options);
  }

  #get<S extends z.ZodMiniType>(path: string, schema: S, what: string, options?: RequestOptions) {
    return this.#context.client.request({ method: 'GET', path: `/reports${path}`, schema, what, options });
  }

  #params(params: SalesReportParams | undefined, what: string): Record<string, unknown> {
    return checkInput(salesReportParams, params ?? {}, what, this.#context.allowUnknownFields) as Record<
      string,
      unknown
    >;
  }
}
