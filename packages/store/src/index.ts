export {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  BatchError,
  ConflictError,
  ConnectionError,
  InternalServerError,
  type Logger,
  type LogLevel,
  NotFoundError,
  Page,
  PagePromise,
  PermissionDeniedError,
  RateLimitError,
  type RateLimiter,
  type RateLimitOptions,
  RateLimitQueueError,
  type RequestOptions,
  ResponseValidationError,
  TimeoutError,
  UnprocessableEntityError,
  ValidationError,
  XError,
} from '@x/core';
export { StoreClient, type StoreClientOptions } from './client.js';
export { type OAuthSignatureMethod, oauthBaseString } from './oauth.js';
export type {
  BatchFailure,
  BatchInput,
  BatchOptions,
  BatchResult,
  DeleteParams,
  GetParams,
  ListOptions,
} from './resources/collection.js';
export type { Coupons } from './resources/coupons.js';
export type { Customers } from './resources/customers.js';
export type { Data } from './resources/data.js';
export type { OrderNotes, OrderRefunds, Orders } from './resources/orders.js';
export type { PaymentGateways } from './resources/payment-gateways.js';
export type { AttributeTerms, ProductAttributes } from './resources/product-attributes.js';
export type { Products, ProductTerms, Variations } from './resources/products.js';
export type { Reports } from './resources/reports.js';
export type { Reviews } from './resources/reviews.js';
export type { Settings } from './resources/settings.js';
export type { ShippingClasses } from './resources/shipping-classes.js';
export type { ShippingMethods } from './resources/shipping-methods.js';
export type { ShippingZones } from './resources/shipping-zones.js';
export type { SystemStatus } from './resources/system-status.js';
export type { Taxes } from './resources/taxes.js';
export type { Webhooks } from './resources/webhooks.js';
export type { Address, AddressInput, BatchItemError, MetaData, MetaDataInput } from './schemas/common.js';
export {
  type Customer,
  type CustomerCreateInput,
  type CustomerListParams,
  type CustomerUpdateInput,
  customer as customerSchema,
} from './schemas/customers.js';
export {
  type ManualRefundInput,
  type Order,
  type OrderCouponLineInput,
  type OrderFeeLineInput,
  type OrderInput,
  type OrderLineItem,
  type OrderLineItemInput,
  type OrderListParams,
  type OrderNote,
  type OrderNoteInput,
  type OrderNoteListParams,
  type OrderShippingLineInput,
  type OrderStatus,
  order as orderSchema,
  type Refund,
  type RefundInput,
  type RefundLineItemInput,
  type RefundListParams,
} from './schemas/orders.js';
export {
  type AttributeTerm,
  type AttributeTermCreateInput,
  type AttributeTermListParams,
  type AttributeTermUpdateInput,
  type ProductAttribute,
  type ProductAttributeCreateInput,
  type ProductAttributeListParams,
  type ProductAttributeUpdateInput,
  productAttribute as productAttributeSchema,
} from './schemas/product-attributes.js';
export {
  type Product,
  type ProductInput,
  type ProductListParams,
  product as productSchema,
  type Term,
  type TermInput,
  type TermListParams,
  type Variation,
  type VariationInput,
  type VariationListParams,
} from './schemas/products.js';
export {
  type DeletedReview,
  type Review,
  type ReviewCreateInput,
  type ReviewListParams,
  type ReviewUpdateInput,
  review as reviewSchema,
} from './schemas/reviews.js';
export {
  type ShippingClass,
  type ShippingClassCreateInput,
  type ShippingClassListParams,
  type ShippingClassUpdateInput,
  shippingClass as shippingClassSchema,
} from './schemas/shipping-classes.js';
export {
  type Webhook,
  type WebhookCreateInput,
  type WebhookListParams,
  type WebhookUpdateInput,
  webhook as webhookSchema,
} from './schemas/webhooks.js';
export { parseWebhook, verifyWebhook, type WebhookEvent } from './webhooks.js';
