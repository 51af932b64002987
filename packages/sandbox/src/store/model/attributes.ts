/** A row of woocommerce_attribute_taxonomies; its terms live in the `pa_<slug>` taxonomy. */
export interface AttributeRec {
  id: number;
  name: string;
  /** Without the `pa_` prefix. */
  slug: string;
  type: string;
  order_by: string;
  has_archives: boolean;
}
