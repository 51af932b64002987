/** A shipping method instance in a zone (a row of woocommerce_shipping_zone_methods plus its settings option). */
export interface ZoneMethodRec {
  /** The instance id. */
  id: number;
  method_id: string;
  order: number;
  enabled: boolean;
  settings: Record<string, string>;
}

/** A row of woocommerce_shipping_zones with its locations and method instances. */
export interface ZoneRec {
  id: number;
  name: string;
  order: number;
  locations: { code: string; type: string }[];
  methods: ZoneMethodRec[];
}
