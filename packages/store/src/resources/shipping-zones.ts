import { type APIPromise, type PagePromise, parseInput, type RequestOptions } from '@x/core';
import * as z from 'zod/mini';
import {
  type ShippingZone,
  type ShippingZoneCreateInput,
  type ShippingZoneListParams,
  type ShippingZoneLocation,
  type ShippingZoneLocationInput,
  type ShippingZoneMethod,
  type ShippingZoneMethodCreateInput,
  type ShippingZoneMethodUpdateInput,
  type ShippingZoneUpdateInput,
  shippingZone,
  shippingZoneCreateInput,
  shippingZoneListParams,
  shippingZoneLocation,
  shippingZoneLocationsInput,
  shippingZoneMethod,
  shippingZoneMethodCreateInput,
  shippingZoneMethodUpdateInput,
  shippingZoneUpdateInput,
  zoneId,
} from '../schemas/shipping-zones.js';
import { checkInput } from '../schemas/validate.js';
import { Collection, type Schemas, type StoreContext } from './collection.js';

/** Zone ids start at 0 (the zone for every location no other zone covers), unlike every other id. */
function checkZoneId(value: unknown, field = 'zoneId'): number {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  return parseInput(z.object({ [field]: zoneId }), { [field]: value }, field)[field] as number;
}

const zoneSchemas = {
  item: shippingZone,
  create: shippingZoneCreateInput,
  update: shippingZoneUpdateInput,
  list: shippingZoneListParams,
  name: 'shippingZones',
  trashable: false,
} satisfies Schemas;

const methodSchemas = {
  item: shippingZoneMethod,
  create: shippingZoneMethodCreateInput,
  update: shippingZoneMethodUpdateInput,
  list: z.strictObject({ context: z.optional(z.enum(['view', 'edit'])) }),
  name: 'shippingZones.methods',
  trashable: false,
} satisfies Schemas;

/**
 * `/shipping/zones`: zones, tried in `order` against a customer's address; zone 0 ("Locations not covered by
 * your other zones") always exists, cannot be edited or deleted, and can hold methods. With shipping
 * disabled in the store's settings these routes answer `404 rest_no_route` "Shipping is disabled.".
 */
export class ShippingZones {
  readonly #context: StoreContext;
  readonly #collection: Collection<typeof zoneSchemas>;
  /** `/shipping/zones/{id}/locations`: where each zone applies. */
  readonly locations: ShippingZoneLocations;
  /** `/shipping/zones/{zone_id}/methods`: the shipping methods of each zone. */
  readonly methods: ShippingZoneMethods;

  constructor(context: StoreContext) {
    this.#context = context;
    this.#collection = new Collection(context, '/shipping/zones', zoneSchemas);
    this.locations = new ShippingZoneLocations(context);
    this.methods = new ShippingZoneMethods(context);
  }

  /** `name` is required; zones are matched in ascending `order`. */
  create(input: ShippingZoneCreateInput, options?: RequestOptions): APIPromise<ShippingZone> {
    return this.#collection.create(input, options);
  }

  /** One zone; `0` is the zone for locations no other zone covers. */
  get(id: number, options?: RequestOptions): APIPromise<ShippingZone> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: `/shipping/zones/${checkZoneId(id, 'id')}`,
      schema: shippingZone,
      what: 'shippingZones.get',
      options,
    }));
  }

  /** Renames or reorders a zone; zone 0 answers `403 woocommerce_rest_shipping_zone_invalid_zone`. */
  update(id: number, input: ShippingZoneUpdateInput, options?: RequestOptions): APIPromise<ShippingZone> {
    return this.#context.client.request(() => ({
      method: 'PUT' as const,
      path: `/shipping/zones/${checkZoneId(id, 'id')}`,
      body: checkInput(shippingZoneUpdateInput, input, 'shippingZones.update input', this.#allowUnknown),
      schema: shippingZone,
      what: 'shippingZones.update',
      options,
    }));
  }

  /** Zones cannot be trashed, so this always deletes for good (`force=true`), with its locations and methods. */
  delete(id: number, options?: RequestOptions): APIPromise<ShippingZone> {
    return this.#context.client.request(() => ({
      method: 'DELETE' as const,
      path: `/shipping/zones/${checkZoneId(id, 'id')}`,
      query: { force: true },
      schema: shippingZone,
      what: 'shippingZones.delete',
      options,
    }));
  }

  /** Every zone, zone 0 first; the store sends them all in one response (a single page). */
  list(params?: ShippingZoneListParams, options?: RequestOptions): PagePromise<ShippingZone> {
    return this.#collection.listOnePage(params, options);
  }

  get #allowUnknown(): boolean {
    return this.#context.allowUnknownFields;
  }
}

/** `/shipping/zones/{id}/locations`: read and replaced as a whole list. */
export class ShippingZoneLocations {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** The zone's locations (zone 0 has none). */
  get(zoneId: number, options?: RequestOptions): APIPromise<ShippingZoneLocation[]> {
    return this.#context.client.request(() => ({
      method: 'GET' as const,
      path: `/shipping/zones/${checkZoneId(zoneId)}/locations`,
      schema: z.array(shippingZoneLocation),
      what: 'shippingZones.locations.get',
      options,
    }));
  }

  /** Replaces every location of the zone with these (an empty list clears them). */
  update(
    zoneId: number,
    locations: ShippingZoneLocationInput[],
    options?: RequestOptions,
  ): APIPromise<ShippingZoneLocation[]> {
    return this.#context.client.request(() => ({
      method: 'PUT' as const,
      path: `/shipping/zones/${checkZoneId(zoneId)}/locations`,
      body: checkInput(
        shippingZoneLocationsInput,
        locations,
        'shippingZones.locations.update input',
        this.#context.allowUnknownFields,
      ),
      schema: z.array(shippingZoneLocation),
      what: 'shippingZones.locations.update',
      options,
    }));
  }
}

/** `/shipping/zones/{zone_id}/methods`: method instances, addressed by `instance_id`. */
export class ShippingZoneMethods {
  readonly #context: StoreContext;

  constructor(context: StoreContext) {
    this.#context = context;
  }

  /** Adds a method (enabled, after the zone's others); `settings` sets its instance settings at once. */
  create(
    zoneId: number,
    input: ShippingZoneMethodCreateInput,
    options?: RequestOptions,
  ): APIPromise<ShippingZoneMethod> {
    return this.#collection(zoneId).create(input, options);
  }

  /** One method instance of the zone. */
  get(zoneId: number, instanceId: number, options?: RequestOptions): APIPromise<ShippingZoneMethod> {
    return this.#collection(zoneId).get(instanceId, undefined, options);
  }

  /** Only the settings you pass change; a value a select setting does not offer is `400 rest_setting_value_invalid`. */
  update(
    zoneId: number,
    instanceId: number,
    input: ShippingZoneMethodUpdateInput,
    options?: RequestOptions,
  ): APIPromise<ShippingZoneMethod> {
    return this.#collection(zoneId).update(instanceId, input, options);
  }

  /** Methods cannot be trashed, so this always deletes for good (`force=true`). */
  delete(zoneId: number, instanceId: number, options?: RequestOptions): APIPromise<ShippingZoneMethod> {
    return this.#collection(zoneId).delete(instanceId, {}, options);
  }

  /** Every method of the zone in its `order`, in one response (a single page). */
  list(zoneId: number, options?: RequestOptions): PagePromise<ShippingZoneMethod> {
    return this.#collection(zoneId).listOnePage({}, options);
  }

  #collection(zoneId: number): Collection<typeof methodSchemas> {
    return new Collection(
      this.#context,
      () => `/shipping/zones/${checkZoneId(zoneId)}/methods`,
      methodSchemas,
    );
  }
}
