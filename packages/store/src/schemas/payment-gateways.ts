import * as z from 'zod/mini';
import { links } from './common.js';

const gatewaySettingShape = z.looseObject({
  id: z.string(),
  label: z.string(),
  description: z.string(),
  type: z.string(),
  /** '' when unset; a list for multiselects. */
  value: z.unknown(),
  default: z.unknown(),
  tip: z.string(),
  placeholder: z.string(),
  options: z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])),
});
/** One field of a gateway's settings form (enabled and description are top-level fields instead). */
export interface PaymentGatewaySetting extends z.infer<typeof gatewaySettingShape> {}

const paymentGatewayShape = z.looseObject({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** The saved sort position, '' until one is saved. */
  order: z.union([z.number(), z.string()]),
  enabled: z.boolean(),
  method_title: z.string(),
  method_description: z.string(),
  method_supports: z.optional(z.array(z.string())),
  settings: z.union([
    z.record(z.string(), gatewaySettingShape as z.ZodMiniType<PaymentGatewaySetting>),
    z.array(z.unknown()),
  ]),
  _links: links,
});
/** A payment gateway (`bacs`, `cheque`, `cod`, or a plugin's) and its settings. */
export interface PaymentGateway extends z.infer<typeof paymentGatewayShape> {}
export const paymentGateway: z.ZodMiniType<PaymentGateway> = paymentGatewayShape;

export const gatewayId = z
  .string()
  .check(z.regex(/^[\w-]+$/, 'expected a gateway id of letters, digits, "_" or "-" such as "bacs"'));

const paymentGatewayUpdateShape = z.partial(
  z.strictObject({
    title: z.string(),
    description: z.string(),
    order: z.number().check(z.int(), z.minimum(0)),
    enabled: z.boolean(),
    /** Setting id → value; the store validates each against the field's type ("yes"/"no" for checkboxes). */
    settings: z.record(z.string(), z.union([z.string(), z.array(z.string())])),
  }),
);
export interface PaymentGatewayUpdateInput extends z.input<typeof paymentGatewayUpdateShape> {}
export const paymentGatewayUpdateInput: z.ZodMiniType<PaymentGatewayUpdateInput, PaymentGatewayUpdateInput> =
  paymentGatewayUpdateShape;
