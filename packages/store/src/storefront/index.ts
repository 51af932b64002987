/**
 * `@x/store/storefront`: the WooCommerce Store API (`/wp-json/wc/store/v1`) for shoppers' pages and headless
 * storefronts. Its own entry: it takes no keys and carries none of the admin client's key or OAuth code, and
 * bundles for browsers. Entry convention: explicit named exports, zod schemas as `<name>Schema`, all of
 * core's `ERROR_CLASSES`.
 */
export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConflictError,
  ConnectionError,
  FileError,
  IdempotencyAmbiguousError,
  IdempotencyConflictError,
  IdempotencyError,
  IdempotencyPendingError,
  IdempotencyStoreError,
  InternalServerError,
  type Logger,
  type LogLevel,
  NotFoundError,
  Page,
  PagePromise,
  PaginationError,
  PermissionDeniedError,
  RateLimitError,
  type RateLimiter,
  type RateLimitOptions,
  RateLimitQueueError,
  RateLimitStoreError,
  RealtimeError,
  RedirectError,
  type RequestOptions,
  ResponseTooLargeError,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  XError,
} from '@x/core';
export type { BatchOptions } from './batch.js';
export type { StorefrontCart } from './cart.js';
export type { CartItems } from './cart-items.js';
export type { StorefrontCheckout } from './checkout.js';
export { StorefrontClient, type StorefrontClientOptions } from './client.js';
export { CartConflictError } from './errors.js';
export { type AmountField, type CurrencyFields, type Money, money } from './money.js';
export type { StorefrontOrder } from './order.js';
export type { StorefrontProducts } from './products.js';
export {
  type BatchEnvelope,
  type BatchRequest,
  type BatchResponse,
  batchRequestsSchema,
  batchResponseSchema,
} from './schemas/batch.js';
export {
  type AddItemInput,
  addItemInputSchema,
  type Cart,
  type CartCoupon,
  type CartItem,
  type CartItemPrices,
  type CartItemTotals,
  type CartTotals,
  cartCouponSchema,
  cartItemSchema,
  cartSchema,
  type SelectShippingRateInput,
  type ShippingPackage,
  type ShippingRate,
  type StoreAddress,
  type StoreAddressInput,
  selectShippingRateInputSchema,
  storeAddressInputSchema,
  storeAddressSchema,
  type UpdateCustomerInput,
  updateCustomerInputSchema,
} from './schemas/cart.js';
export {
  type CheckoutResult,
  checkoutResultSchema,
  type PlaceOrderInput,
  placeOrderInputSchema,
} from './schemas/checkout.js';
export {
  type OrderAuth,
  type OrderTotals,
  orderAuthSchema,
  type PayOrderInput,
  payOrderInputSchema,
  type StoreOrder,
  type StoreOrderItem,
  storeOrderSchema,
} from './schemas/order.js';
export {
  type ProductListParams,
  type ProductPrices,
  productListParamsSchema,
  type StorefrontProduct,
  type StoreImage,
  storefrontProductSchema,
  storeImageSchema,
} from './schemas/products.js';
export type { SessionMode } from './session.js';
export { plainText } from './text.js';
export {
  type CartTokenStore,
  MemoryCartTokenStore,
  type WebStorageLike,
  webStorageCartTokenStore,
} from './token-store.js';
