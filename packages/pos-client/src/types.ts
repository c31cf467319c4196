// Shapes of the Cleaver POS integration API, written to mirror the specification (section 2)
// and the project's DECISIONS (D-numbers). This package depends on nothing of the server: a POS
// vendor can copy it out of the repository and use it as it is.

/** Spec 2.1. */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  /** Always 43200 (12 hours). */
  expires_in: number;
}

/** Spec 4.2 request body. */
export interface OnboardingRequest {
  /**
   * Base address only: no path, no trailing slash; the platform appends `/v1/orderUpdate`. With
   * an `opendelivery` key, `/v1/newEvent` to a base or a path prefix, or the endpoint itself (a
   * path ending in `/v1/newEvent`); the answer then shows the address events go to.
   */
  ordersWebhookURL: string;
  /** When present, both fields are required. It cannot be removed once registered. */
  getMerchantURL?: { baseURL: string; apiKey: string };
  /** Optional; must equal the token's merchant (D21). */
  merchantId?: string;
}

/** Spec 2.2. */
export interface IntegrationConfig {
  getMerchantURL: { baseURL: string; apiKey: string } | null;
  ordersWebhookURL: string | null;
}

export type Availability = 'AVAILABLE' | 'UNAVAILABLE';
export type ProductUnit = 'KG' | 'UN';

/** KG limits of an ordered quantity (D42): kilograms with at most 3 decimals. */
export interface WeightLimits {
  min: number;
  max: number;
  /** Ordered quantities are min + a whole number of steps. */
  step: number;
}

/** A product's butcher fields (D41, D42, D44); each is updated when given and kept when absent. */
export interface ProductTradeFields {
  /** The product's code on the scale's labels: 1 to 6 digits (D41). */
  scaleCode?: string;
  weight?: WeightLimits;
  /** Least hours between intake and a scheduled order's slot, at most 2 decimals (D44). */
  leadTimeHours?: number;
}

/** Spec 4.3, entityType MERCHANT: one store with its categories, offers and items. */
export interface CatalogMerchantObject {
  /** The store id in the POS. */
  id: string;
  categories: Array<{
    id: string;
    name: string;
    index?: number;
    status?: Availability;
    itemOfferId?: string[];
  }>;
  itemOffers: Array<{
    id: string;
    itemId: string;
    /** In BRL (per kilogram for a KG item). */
    price: { value: number };
    status?: Availability;
  }>;
  items: Array<
    {
      id: string;
      name: string;
      description?: string;
      externalCode?: string;
      ean?: string;
      unit?: ProductUnit;
      serving?: number;
      nutritionalInfo?: Record<string, unknown>;
      image?: { url: string };
    } & ProductTradeFields
  >;
}

/** D18: flat ITEM entries update existing products only. */
export interface CatalogItemObject extends ProductTradeFields {
  id: string;
  ean?: string;
  externalCode?: string;
  serving?: number;
  nutritionalInfo?: Record<string, unknown>;
  image?: { url: string };
}

/** D18: flat ITEM_OFFER entries update price and/or availability of existing products. */
export interface CatalogItemOfferObject {
  itemId: string;
  /** In BRL. */
  price?: { value: number };
  status?: Availability;
}

/** Spec 4.3 request body; updatedObjects' shape follows entityType (do not mix). */
export type MerchantUpdateRequest =
  | {
      entityType: 'MERCHANT';
      merchantStatus: Availability;
      onlyAddProducts?: boolean;
      updatedObjects: CatalogMerchantObject[];
    }
  | {
      entityType: 'ITEM';
      merchantStatus?: Availability;
      onlyAddProducts?: boolean;
      updatedObjects: CatalogItemObject[];
    }
  | {
      entityType: 'ITEM_OFFER';
      merchantStatus?: Availability;
      onlyAddProducts?: boolean;
      updatedObjects: CatalogItemOfferObject[];
    };

export type SyncState = 'PROCESSING' | 'SUCCESS' | 'FAIL';

/** Spec 2.7. */
export interface SyncStatus {
  status: SyncState;
  lastRead: string;
  moreInfo: string | null;
}

/** Spec 2.4. */
export interface MerchantCategory {
  id: string;
  pdv_external_id: string | null;
  name: string;
  index: number;
  status: Availability;
  externalCode: string;
  productsId: string[];
}

/** Spec 2.5; the trade fields (D41, D42, D44) only when set. */
export interface MerchantProduct extends ProductTradeFields {
  id: string;
  pdv_external_id: string | null;
  name: string;
  description: string;
  price: number;
  unit: ProductUnit;
  status: Availability;
  stock: number;
  externalCode: string;
  ean: string;
  sku: string;
  media: string[];
  cuts?: Array<{ id: string; name: string; spice: { id: string; name: string } | null }>;
}

/** Spec 2.3. */
export interface MerchantRecord {
  lastUpdate: string;
  TTL: number;
  id: string;
  status: Availability;
  categories: MerchantCategory[];
  products: MerchantProduct[];
}

/** Spec 3.1. */
export const ORDER_EVENT_TYPES = [
  'CREATED',
  'CONFIRMED',
  // Open Delivery's optional progress events (POST …/preparing and …/pickedUp), both profiles.
  'PREPARING',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'PICKUP_AREA_ASSIGNED',
  'PICKED_UP',
  'DELIVERED',
  'CONCLUDED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'CANCELLED',
  'ORDER_CANCELLATION_REQUEST',
  'CANCELLED_DENIED',
  // D42: only for a key that opted in (the integration setting extraEventTypes).
  'WEIGHING_DECIDED',
] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/** Spec 4.10: the codes of requestCancellation and denyCancellation. */
export const CANCELLATION_CODES = [
  'SYSTEMIC_ISSUES',
  'DUPLICATE_APPLICATION',
  'UNAVAILABLE_ITEM',
  'RESTAURANT_WITHOUT_DELIVERY_PERSON',
  'OUTDATED_MENU',
  'ORDER_OUTSIDE_THE_DELIVERY_AREA',
  'BLOCKED_CUSTOMER',
  'OUTSIDE_DELIVERY_HOURS',
  'INTERNAL_DIFFICULTIES_OF_THE_RESTAURANT',
  'RISK_AREA',
  'DELIVERY_PROBLEM',
] as const;
export type CancellationCode = (typeof CANCELLATION_CODES)[number];

export interface Price {
  value: number;
  currency: string;
}

/** Spec 2.6.1. */
export interface OrderItem {
  id: string;
  name: string;
  externalCode?: string;
  unit: string;
  /** Once the line is weighed (D38): the weighed kilograms. */
  quantity: number;
  /** Once the line is weighed (D38): the quantity the customer ordered. */
  orderedQuantity?: number;
  /** D41: the scale label the line was weighed by. */
  scaleLabel?: string;
  specialInstructions?: string;
  unitPrice: Price;
  originalPrice?: Price;
  totalPrice: Price;
  options?: Array<{
    id: string;
    name: string;
    quantity: number;
    unitPrice: Price;
    totalPrice: Price;
    externalCode?: string;
    unit?: string;
  }>;
}

export interface Address {
  street?: string;
  number?: string;
  complement?: string;
  district?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  formattedAddress?: string;
  reference?: string;
  coordinates?: { latitude: number; longitude: number };
}

/** Spec 2.6 (with D26 for the fields the spec's table leaves out). */
export interface Order {
  id: string;
  type: 'DELIVERY' | 'TAKEOUT' | string;
  sourceAppId: string;
  virtualBrand?: string;
  displayId: string;
  salesChannel?: string;
  createdAt: string;
  lastEvent: OrderEventType;
  merchant: { id: string; name: string };
  items: OrderItem[];
  total: { itemsPrice: Price; otherFees: Price; discount: Price; orderAmount: Price };
  customer: {
    id: string;
    name: string;
    phone?: { number: string; extension: string | null };
    email?: string;
    documentNumber: string | null;
    ordersCountOnMerchant?: number;
  };
  payments: {
    prepaid: number;
    pending: number;
    methods: Array<{
      value: number;
      currency: string;
      type: 'PREPAID' | 'PENDING';
      method: string;
      brand?: string;
      methodInfo?: string;
      changeFor?: number;
    }>;
  };
  /** D38: once weighed, what the platform settles of the prepaid part (+ charge, − refund). */
  weighingAdjustment?: Price;
  /** D42: a weighing that asked the customer, and its decision. */
  weighing?: OrderWeighing;
  delivery?: {
    deliveredBy: 'MERCHANT' | string;
    deliveryAddress: Address;
    estimatedDeliveryDateTime?: string;
    deliveryDateTime?: string;
  };
  orderTiming: 'INSTANT' | 'SCHEDULED';
  schedule: { scheduledDateTimeStart: string; scheduledDateTimeEnd: string } | null;
  takeout?: { mode: string; takeoutDateTime: string };
  otherFees?: Array<{ name: string; type: string; price: Price; receivedBy?: string }>;
  discounts?: Array<{ amount: Price; target: string; sponsorshipValues?: unknown }>;
  extraInfo?: string;
  preparationStartDateTime: string | null;
  sendTracking: boolean;
  sendDelivered: boolean;
}

/** D2: one polled event (and the body of a webhook notification, D10). */
export interface EventRecord {
  /** Identifies the event TYPE (UUIDv5 of eventType, D1), not the occurrence. */
  eventId: string;
  eventType: OrderEventType;
  orderId: string;
  orderURL: string;
  /** When this occurrence happened; a re-opened event (D1) has a new createdAt. */
  createdAt: string;
  sourceAppId: string;
  metadata?: Record<string, unknown>;
}

/** Spec 4.13: one element of the acknowledgment body. */
export interface Acknowledgment {
  id: string;
  orderId: string;
  eventType: OrderEventType;
}

/** Spec 4.7. */
export interface ConfirmRequest {
  createdAt: string;
  orderExternalCode: string;
  reason?: string;
  preparationTime?: number;
}

/** Spec 4.8. */
export interface RequestCancellationRequest {
  reason: string;
  code: CancellationCode;
  mode: 'AUTO' | 'MANUAL';
  outOfStockItems?: string[];
  invalidItems?: string[];
}

/** Spec 4.10. */
export interface DenyCancellationRequest {
  reason: string;
  code: CancellationCode;
}

/** Spec 4.12. */
export interface DeliveryTrackingInfo {
  event?: { type?: string; message?: string; datetime?: string };
  problem?: { reason?: string; message?: string; datetime?: string };
  vehicle?: { type?: string[]; licencePlate?: string };
  eta?: {
    pickupEtaInMinutes?: number;
    pickupEtaDatetime?: string;
    deliveryEtaInMinutes?: number;
    deliveryEtaDatetime?: string;
    maxDeliveryTime?: string;
  };
  deliveryPerson?: { id?: string; name?: string; pictureURL?: string };
  geoLocalization?: { latitude?: number; longitude?: number; lastAddress?: Record<string, unknown> };
}

/** D38: the tolerance of a merchant for which the platform set none (± % of the ordered quantity). */
export const DEFAULT_WEIGHING_TOLERANCE_PERCENT = 20;
/** D38: a weight has at most this many decimals (grams). */
export const WEIGHT_DECIMALS = 3;

/** D38: one weighed line: its index in the order's items and the weighed kilograms. */
/** D38: a line by its weighed kilograms; D41: or by the scale's EAN-13 label of the pack. */
export type WeighedLine = { index: number; quantity: number } | { index: number; label: string };

/** D38, D42: the weighing's answer: applied at once, or waiting for the customer's decision. */
export interface WeighingAnswer {
  weighingId: string;
  state: 'APPLIED' | 'PENDING_APPROVAL';
  /** PENDING_APPROVAL: when the merchant's default decision applies if none came. */
  deadline?: string;
}

/** D42: the order's last weighing that asked the customer, and the decision once it came. */
export interface OrderWeighing {
  weighingId: string;
  state: 'PENDING_APPROVAL' | 'ACCEPTED' | 'REJECTED' | 'LINES_REMOVED';
  deadline: string;
  lines: Array<{
    index: number;
    name: string;
    orderedQuantity: number;
    quantityBefore: number;
    quantity: number;
    totalPriceBefore: Price;
    totalPriceAfter: Price;
    outOfTolerance: boolean;
    scaleLabel?: string;
  }>;
  itemsPriceBefore: Price;
  itemsPriceAfter: Price;
  decision?: 'ACCEPT' | 'REJECT' | 'REMOVE_LINES';
  by?: 'platform' | 'deadline';
  decidedAt?: string;
  removedLines?: number[];
}

/** D41: how the shop's scales lay out their labels. */
export interface ScaleLabelLayout {
  prefix: string;
  codeDigits: number;
  value: 'WEIGHT' | 'PRICE';
  valueDigits: number;
  decimals: number;
}

/** D38: `POST /v1/orders/{orderId}/weighing`. */
export interface WeighingRequest {
  items: WeighedLine[];
}

/** Spec 4.11 / 4.15 answer. */
export interface ValidatedCode {
  orderId: string;
  deliveryCode: string;
}

/** Spec 4.14. */
export interface DeliveryUpdateRequest {
  deliveryId: string;
  orderId: string;
  orderDisplayId: string;
  merchant: { id: string; name: string };
  event: { type: string; message: string; datetime: string; rejectionInfo?: { reason: string } };
  customerName: string;
  vehicle?: Record<string, unknown>;
  deliveryPrice?: Record<string, unknown>;
  eta?: Record<string, unknown>;
  deliveryPerson?: { id?: string; name?: string; pictureURL?: string; phone?: string };
  geoLocalization?: Record<string, unknown>;
  externalTrackingURL?: string;
  combinedOrdersIds?: string[];
}

/** Spec 4.15. */
export interface ConfirmationCodeRequest {
  orderId: string;
  deliveryCode: string;
}

/** A sandbox scenario as `GET /v1/sandbox/scenarios` lists it (sandbox only). */
export interface SandboxScenario {
  name: string;
  description: string;
  /** The events a play on a new order raises, in order. */
  events: OrderEventType[];
  /** Whether `options.orderId` may name an existing order to play the steps on. */
  appliesToExistingOrder: boolean;
  existingOrderEvents: OrderEventType[];
}

/** What a play of a sandbox scenario created (`POST /v1/sandbox/scenarios`, 201). */
export interface SandboxScenarioResult {
  scenario: string;
  merchantId: string;
  orders: Array<{
    id: string;
    displayId: string;
    type: 'DELIVERY' | 'TAKEOUT';
    orderTiming: 'INSTANT' | 'SCHEDULED';
    status: string;
    lastEvent: string;
    /** false: the existing order of options.orderId. */
    created: boolean;
    orderAmount: number;
    deliveryCode: string;
  }>;
  events: Array<{ orderId: string; eventType: OrderEventType; createdAt: string; polled: boolean }>;
}

export interface SandboxScenarioOptions {
  /** Play the steps after the order is placed on this existing order instead of a new one. */
  orderId?: string;
}

/** One graded criterion of a homologation report (sandbox only). */
export interface HomologationCriterion {
  id: string;
  title: string;
  /** The spec section or decision it comes from. */
  rule: string;
  required: boolean;
  result: 'pass' | 'fail' | 'not_observed' | 'pending';
  /** The requests and answers seen, with times from the start of the run. */
  evidence: string[];
}

/** A homologation run and, once finished, its signed report (`/v1/homologations`, sandbox only). */
export interface HomologationRun {
  id: string;
  keyId: string;
  merchantId: string;
  status: 'RUNNING' | 'PASSED' | 'FAILED' | 'CANCELLED';
  startedAt: string;
  finishedAt?: string;
  /** Milliseconds: durationMs, confirmDeadlineMs, pollMinIntervalMs… */
  timings: Record<string, number>;
  /** Present when the run is shorter than its own steps need: a failure may only reflect that. */
  warnings?: string[];
  /** The orders the run placed, with the code the customer tells the courier (validateCode). */
  orders: Array<{ orderId: string; scenario: string; deliveryCode: string }>;
  criteria: HomologationCriterion[];
  /** Ed25519 (base64) over the canonical JSON of the report without `signature`. */
  signature?: string;
}

/** A webhook handed to `cleaver listen` instead of the registered URL (`POST /v1/sandbox/listen`). */
export interface ForwardedWebhook {
  deliveryId: string;
  /** Sent back with the report; proves the listener still holds the delivery. */
  leaseToken: string;
  attemptNo: number;
  webhookId: string;
  eventType: string;
  orderId: string;
  profile: 'cleaver' | 'opendelivery';
  /** Exactly the headers the service would send, signatures included. */
  headers: Record<string, string>;
  /** The exact signed body. */
  body: string;
}

export interface ListenAnswer {
  deliveries: ForwardedWebhook[];
  /** How long to wait for the local endpoint. */
  timeoutMs: number;
  sessionUntil: string;
}

/** The local endpoint's answer to a forwarded webhook, recorded as the delivery attempt. */
export interface ForwardedAttemptReport {
  leaseToken: string;
  statusCode: number | null;
  durationMs: number;
  responseSnippet?: string | null;
  error?: string | null;
  retryAfter?: string;
}

export interface ForwardedAttemptRecorded {
  deliveryId: string;
  attemptNo: number;
  status: 'PENDING' | 'DELIVERED' | 'FAILED';
  nextAttemptAt: string | null;
}

/** One request of the calling key in its request log (`GET /v1/developer/requests`). */
export interface RequestLogEntry {
  /** The X-Request-Id its answer carried. */
  requestId: string;
  at: string;
  method: string;
  /** Path and query string as sent. */
  path: string;
  status: number;
  durationMs: number;
  /** The error answer's title, or null. */
  errorTitle: string | null;
  /** Failed requests only: the body, at most 2 KB, secrets redacted. */
  requestBody: string | null;
  requestBodyTruncated: boolean;
  /**
   * What the service forgave in the request and you should fix, or null: an acknowledgment
   * naming another eventType than the event its eventId names.
   */
  warning: string | null;
}

/** Which requests of the log to read: newest first, `limit` at a time before `before`. */
export interface RequestLogQuery {
  /** 1–1000 (default 50). */
  limit?: number;
  /** Only requests answered with an error (status ≥ 400). */
  failed?: boolean;
  /** Only requests answered with this status. */
  status?: number;
  /** The `next` of the previous page. */
  before?: string;
}

export interface RequestLogPage {
  items: RequestLogEntry[];
  /** The `before` of the next (older) page, or null. */
  next: string | null;
}

/** The merchant's webhook endpoint and its latest attempts (`GET /v1/developer/webhooks`). */
export interface WebhookEndpointReport {
  endpoint: {
    merchantId: string;
    url: string | null;
    state: 'healthy' | 'failing' | 'disabled' | 'unknown';
    failingSince: string | null;
    lastError: string | null;
    lastSuccessAt: string | null;
    lastAttemptAt: string | null;
    disabledAt: string | null;
    disabledReason: string | null;
  };
  attempts: Array<{
    deliveryId: string;
    webhookId: string;
    orderId: string;
    eventType: string;
    deliveryStatus: 'PENDING' | 'DELIVERED' | 'FAILED';
    attemptNo: number;
    at: string;
    statusCode: number | null;
    error: string | null;
    durationMs: number;
    target: string | null;
    responseSnippet: string | null;
  }>;
}

/** A statement's totals in BRL (D45): net = gross + weighingAdjustments − cancellations − commission − collectedByMerchant + adjustments. */
export interface StatementTotals {
  gross: number;
  weighingAdjustments: number;
  cancellations: number;
  commission: number;
  collectedByMerchant: number;
  adjustments: number;
  net: number;
}

/** One period of the merchant's money (`GET /v1/financial/statements/{id}`, D45). */
export interface Statement {
  id: string;
  merchantId: string;
  periodStart: string;
  periodEnd: string;
  /** OPEN while the period runs; CLOSED once it ended (never changes again); PAID. */
  state: 'OPEN' | 'CLOSED' | 'PAID';
  totals: StatementTotals;
  currency: 'BRL';
  closedAt: string | null;
  paidAt: string | null;
  paidReference: string | null;
}

/** One line counted in a statement (D45). */
export interface StatementLine {
  id: string;
  statementId: string;
  kind: 'ORDER' | 'WEIGHING_ADJUSTMENT' | 'CANCELLATION' | 'COMMISSION' | 'COLLECTED_BY_MERCHANT' | 'ADJUSTMENT';
  value: number;
  /** What the line does to net: the value with its kind's sign. */
  netEffect: number;
  orderId: string | null;
  reason: string | null;
  occurredAt: string;
}

/** Which statements to list, newest period first. */
export interface StatementQuery {
  state?: Statement['state'];
  /** Only periods that end after this instant (ISO 8601). */
  from?: string;
  /** Only periods that start before this instant (ISO 8601). */
  to?: string;
  /** The `next` of the previous page. */
  cursor?: string;
  /** 1–1000 (default 100). */
  limit?: number;
}

export interface StatementPage {
  items: Statement[];
  /** The cursor of the next page, or null. */
  next: string | null;
}

/** D43: one product in POST /v1/merchant/availability, named by productId or pdvId. */
export interface AvailabilityItem {
  productId?: string;
  pdvId?: string;
  available: boolean;
  reason?: 'OUT_OF_STOCK' | 'QUALITY' | 'NOT_TODAY' | 'OTHER';
  /** ISO date-time at which a paused product comes back by itself. */
  until?: string;
  /** Kilograms (up to 3 decimals) for KG, whole units for UN. */
  stock?: { quantity: number };
}

/** D43: a product's availability as the service shows it. */
export interface ItemAvailability {
  productId: string;
  pdvId: string | null;
  available: boolean;
  reason: 'OUT_OF_STOCK' | 'QUALITY' | 'NOT_TODAY' | 'OTHER' | null;
  until: string | null;
  stock: { quantity: number } | null;
}

/** D43: the store's status and its timed pause while it holds. */
export interface StorePauseStatus {
  status: 'AVAILABLE' | 'UNAVAILABLE';
  pause: { reason: string; until: string } | null;
}
