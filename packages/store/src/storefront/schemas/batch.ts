import * as z from 'zod/mini';

const METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * One request of `POST batch` (StoreApi/Routes/V1/Batch.php get_args()): an updating method, the route under
 * `/wc/store/v1` (`cart/add-item`, or the full `/wc/store/v1/cart/add-item`), its body and headers. Only the
 * cart and checkout routes may be batched.
 */
const batchRequestShape = z.strictObject({
  method: z.enum(METHODS),
  path: z.string().check(z.regex(/^\/?[^\s]+$/, 'expected a Store API route such as cart/add-item')),
  body: z.optional(z.record(z.string(), z.unknown())),
  headers: z.optional(z.record(z.string(), z.string())),
});
export interface BatchRequest extends z.input<typeof batchRequestShape> {}
/** At most 25 (Batch.php's `maxItems`). */
export const batchRequestsSchema = z.array(batchRequestShape).check(z.minLength(1), z.maxLength(25));

/** WP_REST_Response::get_headers() of a sub-request: an empty PHP array encodes as `[]`. */
const envelopeShape = z.looseObject({
  body: z.unknown(),
  status: z.number(),
  headers: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
});
export interface BatchEnvelope extends z.infer<typeof envelopeShape> {}

/**
 * The `207` answer: one envelope per request, in order. With `validation: 'require-all-validate'` and a
 * request that did not validate, `failed` is `'validation'`, nothing ran and the valid requests answer null.
 */
const batchResponseShape = z.looseObject({
  failed: z.optional(z.string()),
  responses: z.array(z.nullable(envelopeShape as z.ZodMiniType<BatchEnvelope>)),
});
export interface BatchResponse extends z.infer<typeof batchResponseShape> {}
export const batchResponseSchema: z.ZodMiniType<BatchResponse> = batchResponseShape;
