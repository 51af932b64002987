/** A row of woocommerce_tax_rates with its postcode and city locations. */
export interface TaxRateRec {
  id: number;
  country: string;
  state: string;
  postcodes: string[];
  cities: string[];
  /** A decimal string, e.g. "20.0000". */
  rate: string;
  name: string;
  priority: number;
  compound: boolean;
  shipping: boolean;
  order: number;
  /** The tax class slug; '' is the standard class. */
  class: string;
}

/** A row of wc_tax_rate_classes; the standard class ('') has no row. */
export interface TaxClassRec {
  id: number;
  slug: string;
  name: string;
}
