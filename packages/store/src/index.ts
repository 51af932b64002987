/**
 * `@x/store`: the WooCommerce REST API v3 client, its schemas and webhook checks.
 * Entry convention: explicit named exports, zod schemas as `<name>Schema`, all of core's `ERROR_CLASSES`.
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
export type {
  Settings,
  SettingsBatchFailure,
  SettingsBatchOptions,
  SettingsBatchResult,
} from './resources/settings.js';
export type { ShippingClasses } from './resources/shipping-classes.js';
export type { ShippingMethods } from './resources/shipping-methods.js';
export type {
  ShippingZoneLocations,
  ShippingZoneMethods,
  ShippingZones,
} from './resources/shipping-zones.js';
export type { SyncRun } from './resources/sync.js';
export type { SystemStatus, SystemStatusTools } from './resources/system-status.js';
export type { TaxClasses, Taxes } from './resources/taxes.js';
export type {
  CatchUpOptions,
  CatchUpRecord,
  WebhookHealth,
  WebhookProblem,
} from './resources/webhook-health.js';
export type { Webhooks } from './resources/webhooks.js';
export type { Address, AddressInput, BatchItemError, MetaData, MetaDataInput } from './schemas/common.js';
export {
  type Coupon,
  type CouponCreateInput,
  type CouponListParams,
  type CouponUpdateInput,
  coupon as couponSchema,
} from './schemas/coupons.js';
export {
  type Customer,
  type CustomerCreateInput,
  type CustomerListParams,
  type CustomerUpdateInput,
  customer as customerSchema,
} from './schemas/customers.js';
export {
  type Continent,
  type ContinentCountry,
  type Country,
  type Currency,
  continent as continentSchema,
  country as countrySchema,
  currency as currencySchema,
  type DataIndexEntry,
  type State,
} from './schemas/data.js';
export {
  type ManualRefundInput,
  type Order,
  type OrderCouponLine,
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
  type OrderTaxLine,
  order as orderSchema,
  orderStatus as orderStatusSchema,
  type Refund,
  type RefundInput,
  type RefundLineItemInput,
  type RefundListParams,
} from './schemas/orders.js';
export {
  type PaymentGateway,
  type PaymentGatewaySetting,
  type PaymentGatewayUpdateInput,
  paymentGateway as paymentGatewaySchema,
} from './schemas/payment-gateways.js';
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
export type {
  ReportIndexEntry,
  ReportTotal,
  SalesPeriodTotals,
  SalesReport,
  SalesReportParams,
  TopSeller,
} from './schemas/reports.js';
export {
  type DeletedReview,
  type Review,
  type ReviewCreateInput,
  type ReviewListParams,
  type ReviewUpdateInput,
  review as reviewSchema,
} from './schemas/reviews.js';
export {
  type Setting,
  type SettingAnyGroupBatchItem,
  type SettingBatchError,
  type SettingBatchItem,
  type SettingGroup,
  type SettingUpdateInput,
  setting as settingSchema,
  settingGroup as settingGroupSchema,
} from './schemas/settings.js';
export {
  type ShippingClass,
  type ShippingClassCreateInput,
  type ShippingClassListParams,
  type ShippingClassUpdateInput,
  shippingClass as shippingClassSchema,
} from './schemas/shipping-classes.js';
export type {
  ShippingMethod,
  ShippingMethodSetting,
  ShippingZone,
  ShippingZoneCreateInput,
  ShippingZoneListParams,
  ShippingZoneLocation,
  ShippingZoneLocationInput,
  ShippingZoneMethod,
  ShippingZoneMethodCreateInput,
  ShippingZoneMethodUpdateInput,
  ShippingZoneUpdateInput,
} from './schemas/shipping-zones.js';
export type {
  SystemStatus as SystemStatusReport,
  SystemStatusEnvironment,
  SystemStatusParams,
  SystemStatusSettings,
  SystemStatusTool,
} from './schemas/system-status.js';
export {
  type TaxClass,
  type TaxClassCreateInput,
  type TaxRate,
  type TaxRateInput,
  type TaxRateListParams,
  taxClass as taxClassSchema,
  taxRate as taxRateSchema,
} from './schemas/taxes.js';
export {
  type Webhook,
  type WebhookCreateInput,
  type WebhookListParams,
  type WebhookUpdateInput,
  webhook as webhookSchema,
} from './schemas/webhooks.js';
export {
  type CheckpointStore,
  type CustomerCheckpoint,
  MemoryCheckpointStore,
  type ModifiedCheckpoint,
  type SyncCheckpoint,
  type SyncOptions,
  type SyncPage,
} from './sync/checkpoint.js';
export {
  type DeliveryHandler,
  MemoryDeliveryStore,
  type ReceiveResult,
  type WebhookDeliveryEvent,
  WebhookReceiver,
  type WebhookReceiverOptions,
} from './webhook-receiver.js';
export type { Delivery as WebhookDelivery } from './webhooks.js';
export { parseWebhook, verifyWebhook, type WebhookEvent } from './webhooks.js';
