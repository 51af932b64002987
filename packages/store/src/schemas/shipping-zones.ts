import { openEnum } from '@x/core';
import * as z from 'zod/mini';
import { links } from './common.js';

/** A zone id: 0 is "Locations not covered by your other zones", which always exists. */
export const zoneId = z.number().check(z.int(), z.nonnegative());

export const shippingZone = z.looseObject({
  id: z.number(),
  name: z.string(),
  order: z.number(),
  _links: links,
});
/** A shipping zone (`/shipping/zones`): its locations and methods are read through their own routes. */
export interface ShippingZone extends z.infer<typeof shippingZone> {}

const zoneFields = {
  name: z.string(),
  order: z.number().check(z.int(), z.nonnegative()),
};
const zoneCreateShape = z.strictObject({ ...zoneFields, order: z.optional(zoneFields.order) });
export interface ShippingZoneCreateInput extends z.input<typeof zoneCreateShape> {}
export const shippingZoneCreateInput: z.ZodMiniType<ShippingZoneCreateInput, ShippingZoneCreateInput> =
  zoneCreateShape;
const zoneUpdateShape = z.partial(z.strictObject(zoneFields));
export interface ShippingZoneUpdateInput extends z.input<typeof zoneUpdateShape> {}
export const shippingZoneUpdateInput: z.ZodMiniType<ShippingZoneUpdateInput, ShippingZoneUpdateInput> =
  zoneUpdateShape;
/** The zones route takes no filters: every zone comes in one response. */
const zoneListShape = z.strictObject({ context: z.optional(z.enum(['view', 'edit'])) });
export interface ShippingZoneListParams extends z.input<typeof zoneListShape> {}
export const shippingZoneListParams: z.ZodMiniType<ShippingZoneListParams, ShippingZoneListParams> =
  zoneListShape;

export const locationType = openEnum(['postcode', 'state', 'country', 'continent']);

export const shippingZoneLocation = z.looseObject({
  code: z.string(),
  type: locationType,
  _links: links,
});
/** Where a zone applies: `US`, `US:CA` (state), `EU` (continent), `90210...90299` or `SW1*` (postcode). */
export interface ShippingZoneLocation extends z.infer<typeof shippingZoneLocation> {}

const locationInputShape = z.strictObject({
  code: z.string().check(z.minLength(1)),
  type: z.optional(z.enum(['postcode', 'state', 'country', 'continent'])),
});
/** A location to set; `type` defaults to `country`. */
export interface ShippingZoneLocationInput extends z.input<typeof locationInputShape> {}
export const shippingZoneLocationsInput = z.array(
  locationInputShape as z.ZodMiniType<ShippingZoneLocationInput, ShippingZoneLocationInput>,
);

const settingShape = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  type: z.string(),
  value: z.unknown(),
  default: z.unknown(),
  tip: z.string(),
  placeholder: z.string(),
  options: z.optional(z.record(z.string(), z.string())),
});
/** One instance setting of a zone method, with its form field's label, type and default. */
export interface ShippingMethodSetting extends z.infer<typeof settingShape> {}

export const shippingZoneMethod = z.looseObject({
  id: z.number(),
  instance_id: z.number(),
  title: z.string(),
  order: z.number(),
  enabled: z.boolean(),
  method_id: openEnum(['flat_rate', 'free_shipping', 'local_pickup']),
  method_title: z.string(),
  method_description: z.string(),
  settings: z.record(z.string(), settingShape as z.ZodMiniType<ShippingMethodSetting>),
  _links: links,
});
/** A shipping method instance in a zone (`instance_id`), e.g. a flat rate with its cost. */
export interface ShippingZoneMethod extends z.infer<typeof shippingZoneMethod> {}

const settingValue = z.union([z.string(), z.number(), z.boolean()]);
const methodFields = {
  order: z.number().check(z.int(), z.nonnegative()),
  enabled: z.boolean(),
  /** Values by setting id (`title`, `cost`, `tax_status`, `min_amount`, `requires`, ...). */
  settings: z.record(z.string(), settingValue),
};
const methodCreateShape = z.strictObject({
  method_id: openEnum(['flat_rate', 'free_shipping', 'local_pickup']),
  ...z.partial(z.strictObject(methodFields)).shape,
});
export interface ShippingZoneMethodCreateInput extends z.input<typeof methodCreateShape> {}
export const shippingZoneMethodCreateInput: z.ZodMiniType<
  ShippingZoneMethodCreateInput,
  ShippingZoneMethodCreateInput
> = methodCreateShape;
const methodUpdateShape = z.partial(z.strictObject(methodFields));
export interface ShippingZoneMethodUpdateInput extends z.input<typeof methodUpdateShape> {}
export const shippingZoneMethodUpdateInput: z.ZodMiniType<
  ShippingZoneMethodUpdateInput,
  ShippingZoneMethodUpdateInput
> = methodUpdateShape;

export const shippingMethod = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  _links: links,
});
/** A shipping method the store offers (`/shipping_methods`), to add to zones by its `id`. */
export interface ShippingMethod extends z.infer<typeof shippingMethod> {}
