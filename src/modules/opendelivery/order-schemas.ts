// Open Delivery v1.7.0, orders (D28, D29): the `Order` that `GET /v1/orders/{orderId}` returns to
// a key with the opendelivery profile, and the bodies of the order actions. Written from the
// standard's descriptions. The standard has no nullable field: a value it lacks is left out, and
// a POS validating against it rejects `null` where a string is expected.
import { Type } from 'typebox';
import { OD_DENY_CANCELLATION_CODES, OdEventTypeEnum } from './event-schemas.js';
import { odStreetAddress } from './merchant-schemas.js';

const Uuid = () => Type.String({ format: 'uuid' });
const DateTime = () => Type.String({ format: 'date-time' });
const Opt = Type.Optional;

export const OdOrderPrice = Type.Object({
  value: Type.Number({ description: 'At most 4 decimal places' }),
  currency: Type.String({ description: 'The currency: BRL.', pattern: '^[A-Z]{3}$' }),
});

const OdUnit = Type.Enum(['UN', 'KG', 'L', 'OZ', 'LB', 'GAL']);

export const OdOrderOption = Type.Object({
  index: Opt(Type.Integer()),
  id: Uuid(),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String(),
  unit: OdUnit,
  ean: Opt(Type.String()),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  unitPrice: OdOrderPrice,
  originalPrice: Opt(OdOrderPrice),
  subtotalPrice: Opt(OdOrderPrice),
  totalPrice: OdOrderPrice,
  specialInstructions: Opt(Type.String()),
});

export const OdOrderItem = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The internal product uuid (D28)' }),
  index: Opt(Type.Integer()),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String({ description: 'The POS code of the product (D28)' }),
  unit: OdUnit,
  ean: Opt(Type.String()),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  orderedQuantity: Opt(
    Type.Number({ description: 'Not in Open Delivery (D38): once the line is weighed, the quantity ordered' }),
  ),
  specialInstructions: Opt(Type.String()),
  unitPrice: OdOrderPrice,
  originalPrice: Opt(OdOrderPrice),
  scalePriceApplied: Opt(Type.Boolean()),
  optionsPrice: Opt(OdOrderPrice),
  subtotalPrice: Opt(OdOrderPrice),
  totalPrice: OdOrderPrice,
  options: Opt(Type.Array(OdOrderOption)),
});

/** Open Delivery's payment methods; the spec's too (D26). */
export const OD_PAYMENT_METHODS = [
  'CREDIT',
  'DEBIT',
  'MEAL_VOUCHER',
  'FOOD_VOUCHER',
  'DIGITAL_WALLET',
  'PIX',
  'CASH',
  'CREDIT_DEBIT',
  'COUPON',
  'REDEEM',
  'PREPAID_REDEEM',
  'OTHER',
] as const;
export const OdPaymentMethodEnum = Type.Enum(OD_PAYMENT_METHODS);

const OdPaymentMethod = Type.Object({
  value: Type.Number({ description: 'The amount.' }),
  currency: Type.String({ description: 'The currency: BRL.', pattern: '^[A-Z]{3}$' }),
  type: Type.Enum(['PREPAID', 'PENDING']),
  method: OdPaymentMethodEnum,
  brand: Opt(Type.String()),
  methodInfo: Opt(Type.String()),
  transaction: Opt(Type.Object({ authorizationCode: Opt(Type.String()), acquirerDocument: Opt(Type.String()) })),
  changeFor: Opt(Type.Number()),
});

export const OdDeliveryAddress = Type.Object({
  ...odStreetAddress,
  complement: Opt(Type.String()),
  reference: Opt(Type.String()),
  formattedAddress: Type.String({ description: 'The whole address on one line.' }),
  postalCode: Type.String({ description: 'CEP.' }),
  coordinates: Type.Object(
    {
      latitude: Type.Number({ description: 'Latitude in degrees.', minimum: -90, maximum: 90 }),
      longitude: Type.Number({ description: 'Longitude in degrees.', minimum: -180, maximum: 180 }),
    },
    { description: 'Where the address is.' },
  ),
});

export const OdOrder = Type.Object(
  {
    id: Uuid(),
    type: Type.Enum(['DELIVERY', 'TAKEOUT', 'INDOOR']),
    displayId: Type.String({ description: 'The short number people use for the order (4 digits).' }),
    sourceAppId: Opt(Uuid()),
    salesChannel: Opt(Type.String()),
    virtualBrand: Opt(Type.String()),
    category: Opt(Type.Enum(['FOOD', 'GROCERY', 'DRUGSTORE', 'PETSTORE'])),
    createdAt: DateTime(),
    lastEvent: Opt(OdEventTypeEnum),
    orderTiming: Type.Enum(['INSTANT', 'SCHEDULED', 'ONDEMAND'], {
      description: 'INSTANT (prepare now) or SCHEDULED (see schedule).',
    }),
    preparationStartDateTime: DateTime(),
    merchant: Type.Object(
      {
        id: Type.String({ description: 'The record’s unique id.', minLength: 36, maxLength: 100 }),
        name: Type.String({ description: 'The merchant’s name.', maxLength: 500 }),
      },
      { description: 'The merchant the order is for.' },
    ),
    items: Type.Array(OdOrderItem, { description: 'The ordered products.' }),
    otherFees: Opt(
      Type.Array(
        Type.Object({
          name: Type.String({ description: 'Its name as shown to people.' }),
          type: Type.Enum(['DELIVERY_FEE', 'SERVICE_FEE', 'TIP', 'MIN_ORDER_FEE'], {
            description: 'What the fee is (e.g. SERVICE_FEE, TIP).',
          }),
          receivedBy: Type.Enum(['MARKETPLACE', 'MERCHANT', 'LOGISTIC_SERVICES'], {
            description: 'Who receives the fee (MERCHANT, MARKETPLACE, LOGISTIC_SERVICES).',
          }),
          receiverDocument: Opt(Type.String()),
          price: OdOrderPrice,
          observation: Opt(Type.String()),
        }),
      ),
    ),
    discounts: Opt(
      Type.Array(
        Type.Object({
          amount: OdOrderPrice,
          target: Type.Enum(['CART', 'DELIVERY_FEE', 'ITEM'], {
            description: 'What the discount applies to (CART, DELIVERY_FEE, ITEM).',
          }),
          targetId: Opt(Type.String()),
          sponsorshipValues: Type.Array(
            Type.Object({
              name: Type.Enum(['MARKETPLACE', 'MERCHANT', 'CHAIN'], { description: 'Its name as shown to people.' }),
              amount: OdOrderPrice,
              discountCode: Opt(Type.String()),
            }),
            { description: 'Who pays how much of the discount.' },
          ),
        }),
      ),
    ),
    total: Type.Object(
      {
        itemsPrice: OdOrderPrice,
        otherFees: OdOrderPrice,
        discount: OdOrderPrice,
        orderAmount: OdOrderPrice,
      },
      { description: 'The order’s totals.' },
    ),
    payments: Type.Object(
      {
        prepaid: Type.Number({ description: 'Amount already paid online.' }),
        pending: Type.Number({ description: 'Amount to be collected on delivery.' }),
        methods: Type.Array(OdPaymentMethod, { description: 'The payment methods used.' }),
      },
      { description: 'How the order is paid.' },
    ),
    weighingAdjustment: Opt(
      Type.Object(OdOrderPrice.properties, {
        description: 'Not in Open Delivery (D38): once weighed, what the platform settles of a prepaid order',
      }),
    ),
    taxInvoice: Opt(Type.Object({ issued: Opt(Type.Boolean()), taxInvoiceURL: Opt(Type.String()) })),
    customer: Opt(
      Type.Object({
        id: Uuid(),
        name: Type.String({ description: 'The customer’s name.' }),
        documentNumber: Opt(Type.String()),
        phone: Type.Object(
          { number: Type.String({ description: 'The phone number.' }), extension: Opt(Type.String()) },
          { description: 'A phone number.' },
        ),
        email: Opt(Type.String()),
        ordersCountOnMerchant: Type.Number({ description: 'How many orders the customer placed at this merchant.' }),
      }),
    ),
    schedule: Opt(Type.Object({ scheduledDateTimeStart: DateTime(), scheduledDateTimeEnd: DateTime() })),
    orderPriority: Opt(Type.Enum(['PRIORITY1', 'PRIORITY2', 'PRIORITY3', 'PRIORITY4', 'PRIORITY5'])),
    delivery: Opt(
      Type.Object({
        deliveredBy: Type.Enum(['MERCHANT', 'MARKETPLACE'], {
          description: 'Who delivers: MERCHANT (the store’s courier) or MARKETPLACE (a logistics partner).',
        }),
        deliveryAddress: OdDeliveryAddress,
        estimatedDeliveryDateTime: DateTime(),
        deliveryDateTime: Opt(DateTime()),
        pickupCode: Opt(Type.String()),
      }),
    ),
    takeout: Opt(
      Type.Object({
        mode: Type.Enum(['DEFAULT', 'PICKUP_AREA'], {
          description: 'DEFAULT or PICKUP_AREA (a pickup area is assigned later).',
        }),
        takeoutDateTime: DateTime(),
      }),
    ),
    sendPreparing: Opt(Type.Boolean()),
    sendDelivered: Opt(Type.Boolean()),
    sendPickedUp: Opt(Type.Boolean()),
    sendTracking: Opt(Type.Boolean()),
    extraInfo: Opt(Type.String()),
  },
  {
    description:
      'Open Delivery 1.7.0 Order, as a key with the opendelivery profile reads it (D28): no nulls; schedule only ' +
      'for SCHEDULED orders; preparationStartDateTime defaults to createdAt; items[].id is the product uuid and ' +
      'items[].externalCode its POS code',
  },
);

/** `POST /v1/orders/{orderId}/confirm` (OrderConfirmed), as the spec's 4.7. */
export const OdOrderConfirmed = Type.Object({
  reason: Opt(Type.String()),
  createdAt: DateTime(),
  orderExternalCode: Type.String(),
  preparationTime: Opt(Type.Integer()),
});

/** `POST /v1/orders/{orderId}/denyCancellation` (RequestDenied): Open Delivery's two codes. */
export const OdRequestDenied = Type.Object({
  reason: Type.String(),
  code: Type.Enum(OD_DENY_CANCELLATION_CODES),
});

/** `PATCH /v1/orders/{orderId}/details` (D29). */
export const OdOrderDetails = Type.Object({ preparationStartDateTime: Opt(DateTime()) });

/**
 * The last known address of a courier in `POST /v1/orders/{orderId}/tracking`: Open Delivery
 * writes the distances (meters) as strings; the platform accepts numbers as well (D28.7).
 */
export const OdTrackingLastAddress = Type.Object({
  country: Opt(Type.String({ pattern: '^[A-Z]{2}$' })),
  state: Opt(Type.String()),
  city: Opt(Type.String()),
  district: Opt(Type.String()),
  street: Opt(Type.String()),
  number: Opt(Type.String()),
  postalCode: Opt(Type.String()),
  distanceToPickup: Type.String(),
  distanceToDelivery: Type.String(),
  timestamp: DateTime(),
});

/** `POST /v1/orders/{orderId}/validateCode` 200 (DeliveryConfirmationCode), as the spec's 4.11. */
export const OdDeliveryConfirmationCode = Type.Object({ orderId: Uuid(), deliveryCode: Type.String() });
