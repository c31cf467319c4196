// Open Delivery v1.7.0, orders (D28, D29): the `Order` that `GET /v1/orders/{orderId}` returns to
// a key with the opendelivery profile, and the bodies of the order actions. Written from the
// standard's descriptions. The standard has no nullable field: a value it lacks is left out, and
// a POS validating against it rejects `null` where a string is expected.
import { type TSchema, Type } from 'typebox';
import { described } from '../../lib/schemas.js';
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
  index: Opt(Type.Integer({ description: 'Display position (set at creation only).' })),
  id: described(Uuid(), 'The record’s unique id.'),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String({ description: 'The option’s code in the POS.' }),
  unit: described(OdUnit, 'KG (sold by weight; quantities may be fractional) or UN (by the unit).'),
  ean: Opt(Type.String({ description: 'The barcode (informational).' })),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  unitPrice: described(OdOrderPrice, 'Price of one unit (or one kilogram).'),
  originalPrice: described(Opt(OdOrderPrice), 'Price before discounts.'),
  subtotalPrice: described(Opt(OdOrderPrice), 'Price before fees and discounts.'),
  totalPrice: described(OdOrderPrice, 'Price of the line: quantity × unit price plus options.'),
  specialInstructions: Opt(Type.String({ description: 'The customer’s instructions for this line (e.g. the cut).' })),
});

export const OdOrderItem = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The internal product uuid (D28)' }),
  index: Opt(Type.Integer({ description: 'Display position (set at creation only).' })),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String({ description: 'The POS code of the product (D28)' }),
  unit: described(OdUnit, 'KG (sold by weight; quantities may be fractional) or UN (by the unit).'),
  ean: Opt(Type.String({ description: 'The barcode (informational).' })),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  orderedQuantity: Opt(
    Type.Number({ description: 'Not in Open Delivery (D38): once the line is weighed, the quantity ordered' }),
  ),
  specialInstructions: Opt(Type.String({ description: 'The customer’s instructions for this line (e.g. the cut).' })),
  unitPrice: described(OdOrderPrice, 'Price of one unit (or one kilogram).'),
  originalPrice: described(Opt(OdOrderPrice), 'Price before discounts.'),
  scalePriceApplied: Opt(Type.Boolean({ description: 'Whether the price was set by the scale (weighed products).' })),
  optionsPrice: described(Opt(OdOrderPrice), 'Price of the options of this line.'),
  subtotalPrice: described(Opt(OdOrderPrice), 'Price before fees and discounts.'),
  totalPrice: described(OdOrderPrice, 'Price of the line: quantity × unit price plus options.'),
  options: Opt(Type.Array(OdOrderOption, { description: 'Options chosen for the line.' })),
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

/**
 * How an order is paid: the same three fields in Open Delivery's Order and in the spec's order
 * (spec 2.6), each dialect with its own payment method object.
 */
export const OrderPayments = <M extends TSchema>(method: M) =>
  Type.Object(
    {
      prepaid: Type.Number({ description: 'Amount already paid online.' }),
      pending: Type.Number({ description: 'Amount to be collected on delivery.' }),
      methods: Type.Array(method, { description: 'The payment methods used.' }),
    },
    { description: 'How the order is paid.' },
  );

const OdPaymentMethod = Type.Object({
  value: Type.Number({ description: 'The amount.' }),
  currency: Type.String({ description: 'The currency: BRL.', pattern: '^[A-Z]{3}$' }),
  type: Type.Enum(['PREPAID', 'PENDING'], {
    description: 'PREPAID (already paid online) or PENDING (to be paid on delivery).',
  }),
  method: described(OdPaymentMethodEnum, 'The payment method (CREDIT, DEBIT, CASH, PIX, MEAL_VOUCHER…).'),
  brand: Opt(Type.String({ description: 'The card brand.' })),
  methodInfo: Opt(Type.String({ description: 'Extra information about the method.' })),
  transaction: Opt(
    Type.Object(
      {
        authorizationCode: described(Opt(Type.String()), 'The card authorisation code.'),
        acquirerDocument: described(Opt(Type.String()), 'Tax document of the card acquirer.'),
      },
      { description: 'The card transaction.' },
    ),
  ),
  changeFor: Opt(Type.Number({ description: 'For CASH: the note the customer pays with; bring change.' })),
});

export const OdDeliveryAddress = Type.Object({
  ...odStreetAddress,
  complement: Opt(Type.String({ description: 'Apartment, block…' })),
  reference: Opt(Type.String({ description: 'A landmark to find the address.' })),
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
    id: described(Uuid(), 'The record’s unique id.'),
    type: Type.Enum(['DELIVERY', 'TAKEOUT', 'INDOOR'], {
      description: 'DELIVERY (the courier takes it to the customer) or TAKEOUT (the customer picks it up).',
    }),
    displayId: Type.String({ description: 'The short number people use for the order (4 digits).' }),
    sourceAppId: described(Opt(Uuid()), 'The marketplace application that raised it (also the X-App-Id header).'),
    salesChannel: Opt(Type.String({ description: 'Where the customer ordered (e.g. the marketplace app).' })),
    virtualBrand: Opt(Type.String({ description: 'The brand the store sells under, if any.' })),
    category: Opt(Type.Enum(['FOOD', 'GROCERY', 'DRUGSTORE', 'PETSTORE'], { description: 'The product’s category.' })),
    createdAt: described(DateTime(), 'When it was created (UTC, ISO 8601).'),
    lastEvent: described(Opt(OdEventTypeEnum), 'The type of the latest event of the order.'),
    orderTiming: Type.Enum(['INSTANT', 'SCHEDULED', 'ONDEMAND'], {
      description: 'INSTANT (prepare now) or SCHEDULED (see schedule).',
    }),
    preparationStartDateTime: described(DateTime(), 'When preparation should start.'),
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
          receiverDocument: described(Opt(Type.String()), 'Tax document of who receives the fee.'),
          price: described(OdOrderPrice, 'The fee’s amount.'),
          observation: described(Opt(Type.String()), 'A note about the fee.'),
        }),
        { description: 'Fees besides the items (service, delivery…).' },
      ),
    ),
    discounts: Opt(
      Type.Array(
        Type.Object({
          amount: described(OdOrderPrice, 'An amount of money.'),
          target: Type.Enum(['CART', 'DELIVERY_FEE', 'ITEM'], {
            description: 'What the discount applies to (CART, DELIVERY_FEE, ITEM).',
          }),
          targetId: described(Opt(Type.String()), 'The item the discount applies to, when target is ITEM.'),
          sponsorshipValues: Type.Array(
            Type.Object({
              name: Type.Enum(['MARKETPLACE', 'MERCHANT', 'CHAIN'], { description: 'Its name as shown to people.' }),
              amount: described(OdOrderPrice, 'The part of the discount this sponsor pays.'),
              discountCode: described(Opt(Type.String()), 'The coupon code.'),
            }),
            { description: 'Who pays how much of the discount.' },
          ),
        }),
        { description: 'Discounts applied.' },
      ),
    ),
    total: Type.Object(
      {
        itemsPrice: described(OdOrderPrice, 'Sum of the items.'),
        otherFees: described(OdOrderPrice, 'Fees besides the items (service, delivery…).'),
        discount: described(OdOrderPrice, 'Sum of the discounts.'),
        orderAmount: described(OdOrderPrice, 'What the customer pays: items plus fees minus discounts.'),
      },
      { description: 'The order’s totals.' },
    ),
    payments: OrderPayments(OdPaymentMethod),
    weighingAdjustment: Opt(
      Type.Object(OdOrderPrice.properties, {
        description: 'Not in Open Delivery (D38): once weighed, what the platform settles of a prepaid order',
      }),
    ),
    taxInvoice: Opt(
      Type.Object(
        {
          issued: described(Opt(Type.Boolean()), 'Whether it was issued.'),
          taxInvoiceURL: described(Opt(Type.String()), 'Where to download it.'),
        },
        { description: 'The tax invoice, once issued.' },
      ),
    ),
    customer: Opt(
      Type.Object(
        {
          id: described(Uuid(), 'The customer’s id at the marketplace.'),
          name: Type.String({ description: 'The customer’s name.' }),
          documentNumber: described(Opt(Type.String()), 'The customer’s tax document (CPF/CNPJ) when given.'),
          phone: Type.Object(
            {
              number: Type.String({ description: 'The phone number.' }),
              extension: described(Opt(Type.String()), 'The phone extension.'),
            },
            { description: 'A phone number.' },
          ),
          email: described(Opt(Type.String()), 'An email address.'),
          ordersCountOnMerchant: Type.Number({ description: 'How many orders the customer placed at this merchant.' }),
        },
        { description: 'Who ordered.' },
      ),
    ),
    schedule: Opt(
      Type.Object(
        {
          scheduledDateTimeStart: described(DateTime(), 'Start of the window.'),
          scheduledDateTimeEnd: described(DateTime(), 'End of the window.'),
        },
        { description: 'For SCHEDULED orders: the delivery window.' },
      ),
    ),
    orderPriority: Opt(
      Type.Enum(['PRIORITY1', 'PRIORITY2', 'PRIORITY3', 'PRIORITY4', 'PRIORITY5'], {
        description: 'The order’s priority at the marketplace.',
      }),
    ),
    delivery: Opt(
      Type.Object(
        {
          deliveredBy: Type.Enum(['MERCHANT', 'MARKETPLACE'], {
            description: 'Who delivers: MERCHANT (the store’s courier) or MARKETPLACE (a logistics partner).',
          }),
          deliveryAddress: described(OdDeliveryAddress, 'Where to deliver.'),
          estimatedDeliveryDateTime: described(DateTime(), 'When the customer expects the order.'),
          deliveryDateTime: described(Opt(DateTime()), 'When the order was delivered, or null.'),
          pickupCode: described(Opt(Type.String()), 'The code the courier gives to pick up.'),
        },
        { description: 'Delivery details (DELIVERY orders).' },
      ),
    ),
    takeout: Opt(
      Type.Object(
        {
          mode: Type.Enum(['DEFAULT', 'PICKUP_AREA'], {
            description: 'DEFAULT or PICKUP_AREA (a pickup area is assigned later).',
          }),
          takeoutDateTime: described(DateTime(), 'When the customer will pick up.'),
        },
        { description: 'Takeout details (TAKEOUT orders).' },
      ),
    ),
    sendPreparing: Opt(Type.Boolean({ description: 'Whether the platform wants PREPARING from the POS.' })),
    sendDelivered: Opt(Type.Boolean({ description: 'Whether the platform wants DELIVERED from the POS.' })),
    sendPickedUp: Opt(Type.Boolean({ description: 'Whether the platform wants PICKED_UP from the POS.' })),
    sendTracking: Opt(Type.Boolean({ description: 'Whether the platform wants tracking updates from the POS.' })),
    extraInfo: Opt(Type.String({ description: 'Free text from the customer about the order.' })),
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
