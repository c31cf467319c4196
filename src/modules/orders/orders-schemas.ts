// The order's shapes (spec 4.5 to 4.12) as TypeBox schemas: the order a POS reads, the bodies of
// its actions and the platform's order creation. Size: one schema per spec table, kept together so
// a reader can hold this file beside the spec and check it field by field.
import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { OrderEventTypeEnum } from '../events/index.js';
import {
  OD_DENY_CANCELLATION_CODES,
  OD_REQUEST_CANCELLATION_CODES,
  OdPaymentMethodEnum,
  OdRequestCancellationCode,
  OrderPayments,
} from '../opendelivery/index.js';
import { ORDER_STATUSES } from './order-state.js';

// Spec 2.6 / 2.6.1 plus the Open Delivery fields of D26. Response schemas are allow-lists.
// Longer than most files on purpose: every order shape (the view, the operator's input, the
// action bodies) in one place, since they share their parts (prices, units, addresses, codes).

export const Price = Type.Object({
  value: Type.Number({ description: 'The amount.' }),
  currency: Type.String({ description: 'The currency: BRL.' }),
});
const Unit = Type.Enum(['UN', 'KG']);
/** Open Delivery: `brand` only on card and voucher methods (D26). */
export const BRANDED_METHODS = new Set(['CREDIT', 'DEBIT', 'CREDIT_DEBIT', 'MEAL_VOUCHER', 'FOOD_VOUCHER']);
export const CARD_BRANDS = [
  'VISA',
  'MASTERCARD',
  'DINERS',
  'AMEX',
  'HIPERCARD',
  'ELO',
  'AURA',
  'DISCOVER',
  'VR_BENEFICIOS',
  'SODEXO',
  'TICKET',
  'GOOD_CARD',
  'BANESCARD',
  'SOROCARD',
  'POLICARD',
  'VALECARD',
  'AGICARD',
  'JCB',
  'CREDSYSTEM',
  'CABAL',
  'GREEN_CARD',
  'VEROCHEQUE',
  'AVISTA',
  'OTHER',
] as const;
const FeeType = Type.Enum(['DELIVERY_FEE', 'SERVICE_FEE', 'TIP', 'MIN_ORDER_FEE']);
const ReceivedBy = Type.Enum(['MARKETPLACE', 'MERCHANT', 'LOGISTIC_SERVICES']);
const DiscountTarget = Type.Enum(['CART', 'DELIVERY_FEE', 'ITEM']);
const Sponsor = Type.Enum(['MARKETPLACE', 'MERCHANT', 'CHAIN']);

const Coordinates = Type.Object({
  latitude: Type.Number({ description: 'Latitude in degrees.', minimum: -90, maximum: 90 }),
  longitude: Type.Number({ description: 'Longitude in degrees.', minimum: -180, maximum: 180 }),
});

export const Address = Type.Object({
  street: Type.String({ description: 'Street.' }),
  number: Type.String({ description: 'The street number.' }),
  complement: Type.Optional(Type.String({ description: 'Apartment, block…' })),
  district: Type.String({ description: 'Neighbourhood.' }),
  city: Type.String({ description: 'City.' }),
  state: Type.String({ description: 'State (UF), e.g. SP.' }),
  postalCode: Type.String({ description: 'CEP.' }),
  country: Type.String({ description: 'Country code (BR).' }),
  formattedAddress: Type.String({ description: 'The whole address on one line.' }),
  reference: Type.Optional(Type.String({ description: 'A landmark to find the address.' })),
  coordinates: Type.Optional(described(Coordinates, 'Where the address is.')),
});

const OrderOption = Type.Object({
  id: Type.String({ description: 'The record’s unique id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String({ description: 'The option’s code in the POS.' }),
  unit: described(Unit, 'KG (sold by weight; quantities may be fractional) or UN (by the unit).'),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  unitPrice: described(Price, 'Price of one unit (or one kilogram).'),
  totalPrice: described(Price, 'Price of the line: quantity × unit price plus options.'),
});

export const OrderItem = Type.Object({
  id: Type.String({ description: 'The line’s id.' }),
  name: Type.String({ description: 'Its name as shown to people.' }),
  externalCode: Type.String({ description: 'The product’s code in the POS.' }),
  unit: described(Unit, 'KG (sold by weight; quantities may be fractional) or UN (by the unit).'),
  quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
  /** D38: once the line is weighed, `quantity` is the weight and this the quantity ordered. */
  orderedQuantity: Type.Optional(
    Type.Number({
      description:
        'Once the line is weighed: the quantity the customer ordered (quantity is then the weighed kilograms).',
    }),
  ),
  specialInstructions: Type.Optional(
    Type.String({ description: 'The customer’s instructions for this line (e.g. the cut).' }),
  ),
  unitPrice: described(Price, 'Price of one unit (or one kilogram).'),
  originalPrice: described(Price, 'Price before discounts.'),
  totalPrice: described(Price, 'Price of the line: quantity × unit price plus options.'),
  options: Type.Array(OrderOption, { description: 'Options chosen for the line.' }),
  /** D41: the scale label the line was weighed by. */
  scaleLabel: Type.Optional(Type.String({ description: 'Once weighed by label: the scale’s EAN-13 label (D41).' })),
});

/** D42: one line of a waiting (or decided) weighing, before and after. */
const ApprovalLineView = Type.Object({
  index: Type.Integer({ description: 'The line’s position in the order’s items when it was weighed.' }),
  name: Type.String({ description: 'The product’s name.' }),
  orderedQuantity: Type.Number({ description: 'The kilograms the customer ordered.' }),
  quantityBefore: Type.Number({ description: 'The line’s kilograms before this weighing.' }),
  quantity: Type.Number({ description: 'The weighed kilograms.' }),
  totalPriceBefore: described(Price, 'The line’s price before this weighing.'),
  totalPriceAfter: described(Price, 'The line’s price with the weighed kilograms.'),
  outOfTolerance: Type.Boolean({ description: 'Outside the merchant’s tolerance: why the customer is asked.' }),
  scaleLabel: Type.Optional(Type.String({ description: 'The scale label it was weighed by (D41).' })),
});

/** D42: the order's last weighing that asked the customer, and the decision once it came. */
export const OrderWeighingView = Type.Object(
  {
    weighingId: Uuid({ description: 'The weighing.' }),
    state: Type.Enum(['PENDING_APPROVAL', 'ACCEPTED', 'REJECTED', 'LINES_REMOVED'], {
      description: 'PENDING_APPROVAL until decided; then what the decision did.',
    }),
    deadline: DateTime({ description: 'When the merchant’s default decision applies if none came.' }),
    lines: Type.Array(ApprovalLineView, { description: 'The weighed lines, before and after.' }),
    itemsPriceBefore: described(Price, 'The order’s itemsPrice before the weighing.'),
    itemsPriceAfter: described(Price, 'The order’s itemsPrice if the weighing is accepted.'),
    decision: Type.Optional(
      Type.Enum(['ACCEPT', 'REJECT', 'REMOVE_LINES'], { description: 'The decision, once it came.' }),
    ),
    by: Type.Optional(
      Type.Enum(['platform', 'deadline'], {
        description: 'platform (for the customer) or deadline (the merchant’s default).',
      }),
    ),
    decidedAt: Type.Optional(DateTime({ description: 'When it was decided.' })),
    removedLines: Type.Optional(
      Type.Array(Type.Integer(), { description: 'REMOVE_LINES: the lines taken out (indexes when weighed).' }),
    ),
  },
  {
    description:
      'A weighing out of tolerance that asks the customer (D42): waiting, then decided. Read it to learn the decision.',
  },
);

export const PaymentMethod = Type.Object({
  value: Type.Number({ description: 'The amount.' }),
  currency: Type.String({ description: 'The currency: BRL.' }),
  type: Type.Enum(['PREPAID', 'PENDING'], {
    description: 'PREPAID (already paid online) or PENDING (to be paid on delivery).',
  }),
  method: described(OdPaymentMethodEnum, 'The payment method (CREDIT, DEBIT, CASH, PIX, MEAL_VOUCHER…).'),
  brand: Type.Optional(Type.Enum(CARD_BRANDS, { description: 'The card brand.' })),
  methodInfo: Type.Optional(Type.String({ description: 'Extra information about the method.' })),
  changeFor: Type.Optional(Type.Number({ description: 'For CASH: the note the customer pays with; bring change.' })),
});

const orderProperties = {
  id: Uuid({ description: 'The record’s unique id.' }),
  type: Type.Enum(['DELIVERY', 'TAKEOUT'], { description: 'DELIVERY or TAKEOUT.' }),
  sourceAppId: Uuid({ description: 'The marketplace application that raised it (also the X-App-Id header).' }),
  virtualBrand: Type.Optional(Type.String({ description: 'The brand the store sells under, if any.' })),
  displayId: Type.String({ description: 'The short number people use for the order (4 digits).' }),
  salesChannel: Type.String({ description: 'Where the customer ordered (e.g. the marketplace app).' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  lastEvent: described(OrderEventTypeEnum, 'The type of the latest event of the order.'),
  merchant: Type.Object(
    {
      id: Uuid({ description: 'The record’s unique id.' }),
      name: Type.String({ description: 'The merchant’s name.' }),
    },
    { description: 'The merchant the order is for.' },
  ),
  items: Type.Array(OrderItem, { description: 'The ordered products.' }),
  total: Type.Object(
    {
      itemsPrice: described(Price, 'Sum of the items.'),
      otherFees: described(Price, 'Fees besides the items (service, delivery…).'),
      discount: described(Price, 'Sum of the discounts.'),
      orderAmount: described(Price, 'What the customer pays: items plus fees minus discounts.'),
    },
    { description: 'The order’s totals.' },
  ),
  customer: Type.Object(
    {
      id: Uuid({ description: 'The customer’s id at the marketplace.' }),
      name: Type.String({ description: 'The customer’s name.' }),
      phone: Type.Object(
        {
          number: Type.String({ description: 'The phone number.' }),
          extension: Type.Union([Type.String(), Type.Null()], { description: 'The phone extension.' }),
        },
        { description: 'A phone number.' },
      ),
      email: Type.Optional(Type.String({ description: 'An email address.' })),
      documentNumber: Type.Union([Type.String(), Type.Null()], {
        description: 'The customer’s tax document (CPF/CNPJ) when given.',
      }),
      ordersCountOnMerchant: Type.Integer({ description: 'How many orders the customer placed at this merchant.' }),
    },
    { description: 'Who ordered.' },
  ),
  payments: OrderPayments(PaymentMethod),
  /** D38: once weighed, what the platform settles of a prepaid order (+ to charge, − to refund). */
  weighingAdjustment: Type.Optional(
    described(
      Price,
      'Once weighed, what the platform settles of the prepaid part of the order: positive to charge, negative to refund.',
    ),
  ),
  weighing: Type.Optional(OrderWeighingView),
  delivery: Type.Optional(
    Type.Object(
      {
        deliveredBy: Type.Literal('MERCHANT', {
          description: 'Who delivers: MERCHANT (the store’s courier) or MARKETPLACE (a logistics partner).',
        }),
        deliveryAddress: described(Address, 'Where to deliver.'),
        estimatedDeliveryDateTime: DateTime({ description: 'When the customer expects the order.' }),
        deliveryDateTime: Type.Optional(DateTime({ description: 'When the order was delivered, or null.' })),
      },
      { description: 'Delivery details (DELIVERY orders).' },
    ),
  ),
  orderTiming: Type.Enum(['INSTANT', 'SCHEDULED'], {
    description: 'INSTANT (prepare now) or SCHEDULED (see schedule).',
  }),
  schedule: Type.Union(
    [
      Type.Object({
        scheduledDateTimeStart: DateTime({ description: 'Start of the window.' }),
        scheduledDateTimeEnd: DateTime({ description: 'End of the window.' }),
      }),
      Type.Null(),
    ],
    { description: 'For SCHEDULED orders: the delivery window.' },
  ),
  takeout: Type.Optional(
    Type.Object(
      {
        mode: Type.Enum(['DEFAULT', 'PICKUP_AREA'], {
          description: 'DEFAULT or PICKUP_AREA (a pickup area is assigned later).',
        }),
        takeoutDateTime: DateTime({ description: 'When the customer will pick up.' }),
      },
      { description: 'Takeout details (TAKEOUT orders).' },
    ),
  ),
  otherFees: Type.Array(
    Type.Object({
      name: Type.String({ description: 'Its name as shown to people.' }),
      type: described(FeeType, 'What the fee is (e.g. SERVICE_FEE, TIP).'),
      receivedBy: described(ReceivedBy, 'Who receives the fee (MERCHANT, MARKETPLACE, LOGISTIC_SERVICES).'),
      price: described(Price, 'The fee’s amount.'),
    }),
    { description: 'Fees besides the items (service, delivery…).' },
  ),
  discounts: Type.Array(
    Type.Object({
      amount: described(Price, 'An amount of money.'),
      target: described(DiscountTarget, 'What the discount applies to (CART, DELIVERY_FEE, ITEM).'),
      targetId: Type.Optional(Type.String({ description: 'The item the discount applies to, when target is ITEM.' })),
      sponsorshipValues: Type.Array(
        Type.Object({
          name: described(Sponsor, 'Its name as shown to people.'),
          amount: described(Price, 'The part of the discount this sponsor pays.'),
        }),
        {
          description: 'Who pays how much of the discount.',
        },
      ),
    }),
    { description: 'Discounts applied.' },
  ),
  extraInfo: Type.Optional(Type.String({ description: 'Free text from the customer about the order.' })),
  preparationStartDateTime: Type.Union([DateTime(), Type.Null()], { description: 'When preparation should start.' }),
  sendTracking: Type.Literal(true, { description: 'Whether the platform wants tracking updates from the POS.' }),
  sendDelivered: Type.Literal(true, { description: 'Whether the platform wants DELIVERED from the POS.' }),
};

/** GET /v1/orders/{orderId} (spec 2.6). */
export const Order = Type.Object(orderProperties);

export const OrderIdParams = Type.Object({ orderId: Uuid() });

// ---- input of the operator's POST /admin/v1/merchants/{merchantId}/orders -------------------

const MoneyIn = Type.Union([
  Type.Number({ minimum: 0 }),
  Type.Object({
    value: Type.Number({ description: 'The amount.', minimum: 0 }),
    currency: Type.Optional(Type.Literal('BRL', { description: 'The currency: BRL.' })),
  }),
]);
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

export const AddressInput = Type.Object({
  street: described(Text(200), 'Street.'),
  number: described(Text(20), 'The street number.'),
  complement: Type.Optional(Type.String({ description: 'Apartment, block…', maxLength: 200 })),
  district: described(Text(100), 'Neighbourhood.'),
  city: described(Text(100), 'City.'),
  state: described(Text(50), 'State (UF), e.g. SP.'),
  postalCode: Type.String({ description: 'CEP.', pattern: '^[0-9]{5}-?[0-9]{3}$' }),
  country: Type.Optional(described(Text(60), 'Country code (BR).')),
  formattedAddress: Type.Optional(described(Text(500), 'The whole address on one line.')),
  reference: Type.Optional(Type.String({ description: 'A landmark to find the address.', maxLength: 300 })),
  coordinates: Type.Optional(described(Coordinates, 'Where the address is.')),
});

export const CreateOrderBody = Type.Object({
  type: Type.Enum(['DELIVERY', 'TAKEOUT'], { description: 'DELIVERY or TAKEOUT.' }),
  items: Type.Array(
    Type.Object({
      productId: Type.Optional(Uuid({ description: 'The marketplace product ordered.' })),
      pdvId: Type.Optional(described(Text(100), 'The product’s id in the POS (pdv_external_id).')),
      /** D37: one cut of this item's product, shown as the first of its options. */
      cutId: Type.Optional(
        described(
          Text(100),
          'One cut of this item’s product (as GET /v1/merchant lists it); shown as the item’s first option, free of charge.',
        ),
      ),
      quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
      specialInstructions: Type.Optional(
        Type.String({ description: 'The customer’s instructions for this line (e.g. the cut).', maxLength: 1000 }),
      ),
      options: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.Optional(described(Text(100), 'The record’s unique id.')),
            name: described(Text(200), 'Its name as shown to people.'),
            externalCode: Type.Optional(Type.String({ description: 'The option’s code in the POS.', maxLength: 100 })),
            unit: Type.Optional(
              described(Unit, 'KG (sold by weight; quantities may be fractional) or UN (by the unit).'),
            ),
            quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
            unitPrice: described(MoneyIn, 'Price of one unit (or one kilogram).'),
          }),
          { description: 'Options chosen for the line.', maxItems: 50 },
        ),
      ),
    }),
    { description: 'The ordered products.', minItems: 1, maxItems: 200 },
  ),
  customer: Type.Optional(
    Type.Object(
      {
        id: Type.Optional(Uuid({ description: 'The customer’s id at the marketplace.' })),
        name: described(Text(200), 'The customer’s name.'),
        phone: Type.Optional(
          Type.Object(
            {
              number: Type.String({ description: 'The phone number.', pattern: '^\\+?[0-9][0-9 ()-]{6,24}$' }),
              extension: Type.Optional(
                Type.Union([Type.String({ maxLength: 10 }), Type.Null()], { description: 'The phone extension.' }),
              ),
            },
            { description: 'A phone number.' },
          ),
        ),
        email: Type.Optional(Type.String({ description: 'An email address.', format: 'email', maxLength: 320 })),
        documentNumber: Type.Optional(
          Type.Union([Type.String({ pattern: '^[0-9./-]{11,18}$' }), Type.Null()], {
            description: 'The customer’s tax document (CPF/CNPJ) when given.',
          }),
        ),
        ordersCountOnMerchant: Type.Optional(
          Type.Integer({ description: 'How many orders the customer placed at this merchant.', minimum: 0 }),
        ),
      },
      { description: 'Who ordered.' },
    ),
  ),
  payments: Type.Optional(
    Type.Object(
      {
        methods: Type.Array(
          Type.Object({
            value: Type.Number({ description: 'The amount.', minimum: 0 }),
            type: Type.Enum(['PREPAID', 'PENDING'], {
              description: 'PREPAID (already paid online) or PENDING (to be paid on delivery).',
            }),
            method: described(OdPaymentMethodEnum, 'The payment method (CREDIT, DEBIT, CASH, PIX, MEAL_VOUCHER…).'),
            brand: Type.Optional(Type.Enum(CARD_BRANDS, { description: 'The card brand.' })),
            methodInfo: Type.Optional(
              Type.String({ description: 'Extra information about the method.', maxLength: 200 }),
            ),
            changeFor: Type.Optional(
              Type.Number({ description: 'For CASH: the note the customer pays with; bring change.', minimum: 0 }),
            ),
          }),
          { description: 'The payment methods used.', minItems: 1, maxItems: 10 },
        ),
      },
      { description: 'How the order is paid.' },
    ),
  ),
  delivery: Type.Optional(
    Type.Object(
      {
        deliveryAddress: Type.Optional(described(AddressInput, 'Where to deliver.')),
        estimatedDeliveryDateTime: Type.Optional(DateTime({ description: 'When the customer expects the order.' })),
      },
      { description: 'Delivery details (DELIVERY orders).' },
    ),
  ),
  takeout: Type.Optional(
    Type.Object(
      {
        mode: Type.Optional(
          Type.Enum(['DEFAULT', 'PICKUP_AREA'], {
            description: 'DEFAULT or PICKUP_AREA (a pickup area is assigned later).',
          }),
        ),
        takeoutDateTime: Type.Optional(DateTime({ description: 'When the customer will pick up.' })),
      },
      { description: 'Takeout details (TAKEOUT orders).' },
    ),
  ),
  orderTiming: Type.Optional(
    Type.Enum(['INSTANT', 'SCHEDULED'], {
      description:
        'SCHEDULED (an encomenda, D44: needs `schedule`) or INSTANT; absent: SCHEDULED exactly when `schedule` is sent.',
    }),
  ),
  schedule: Type.Optional(
    Type.Object(
      { scheduledDateTimeStart: DateTime({ description: 'Start of the window.' }), scheduledDateTimeEnd: DateTime() },
      {
        description:
          'For SCHEDULED orders: the delivery window. Its start falls in one of the merchant’s slots (GET …/slots), ' +
          'which must have a place left, be within the horizon and leave each item’s lead time (D44).',
      },
    ),
  ),
  otherFees: Type.Optional(
    Type.Array(
      Type.Object({
        name: described(Text(200), 'Its name as shown to people.'),
        type: described(FeeType, 'What the fee is (e.g. SERVICE_FEE, TIP).'),
        receivedBy: Type.Optional(
          described(ReceivedBy, 'Who receives the fee (MERCHANT, MARKETPLACE, LOGISTIC_SERVICES).'),
        ),
        price: described(MoneyIn, 'The fee’s amount.'),
      }),
      {
        description: 'Fees besides the items (service, delivery…).',
        maxItems: 20,
      },
    ),
  ),
  discounts: Type.Optional(
    Type.Array(
      Type.Object({
        amount: described(MoneyIn, 'An amount of money.'),
        target: described(DiscountTarget, 'What the discount applies to (CART, DELIVERY_FEE, ITEM).'),
        targetId: Type.Optional(described(Text(100), 'The item the discount applies to, when target is ITEM.')),
        sponsorshipValues: Type.Optional(
          Type.Array(
            Type.Object({
              name: described(Sponsor, 'Its name as shown to people.'),
              amount: described(MoneyIn, 'The part of the discount this sponsor pays.'),
            }),
            {
              description: 'Who pays how much of the discount.',
              maxItems: 5,
            },
          ),
        ),
      }),
      { description: 'Discounts applied.', maxItems: 20 },
    ),
  ),
  extraInfo: Type.Optional(
    Type.String({ description: 'Free text from the customer about the order.', maxLength: 2000 }),
  ),
  displayId: Type.Optional(described(Text(50), 'The short number people use for the order (4 digits).')),
  salesChannel: Type.Optional(described(Text(50), 'Where the customer ordered (e.g. the marketplace app).')),
  virtualBrand: Type.Optional(described(Text(100), 'The brand the store sells under, if any.')),
  deliveryCode: Type.Optional(
    Type.String({
      description: 'The code the customer gives at the door; check it with validateCode before handing over.',
      pattern: '^[0-9]{4,8}$',
    }),
  ),
});

// ---- POS action bodies (spec 4.7–4.12) -------------------------------------------------------

/** Spec 4.10's codes: Open Delivery's requestCancellation codes. */
export const CANCELLATION_CODES = OD_REQUEST_CANCELLATION_CODES;

export const ConfirmBody = Type.Object({
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  orderExternalCode: described(Text(200), 'The POS’s own code for the order.'),
  reason: Type.Optional(Type.String({ description: 'Why, in words.', maxLength: 1000 })),
  preparationTime: Type.Optional(
    Type.Integer({ description: 'Minutes the store needs to prepare the order.', minimum: 0, maximum: 10_000 }),
  ),
});

export const RequestCancellationBody = Type.Object({
  reason: described(Text(1000), 'Why, in words.'),
  code: described(OdRequestCancellationCode, 'The cancellation code (e.g. UNAVAILABLE_ITEM, SYSTEMIC_ISSUES).'),
  mode: Type.Enum(['AUTO', 'MANUAL'], {
    description: 'AUTO or MANUAL: whether a system or a person decided to cancel.',
  }),
  outOfStockItems: Type.Optional(Type.Array(Uuid(), { description: 'Items out of stock.', maxItems: 500 })),
  invalidItems: Type.Optional(
    Type.Array(Uuid(), { description: 'Items that cannot be made (with UNAVAILABLE_ITEM).', maxItems: 500 }),
  ),
});

export const DenyCancellationBody = Type.Object({
  reason: described(Text(1000), 'Why, in words.'),
  code: Type.Enum([...CANCELLATION_CODES, ...OD_DENY_CANCELLATION_CODES], {
    description:
      'The codes of spec 4.10; DISH_ALREADY_DONE and OUT_FOR_DELIVERY (Open Delivery) from an opendelivery key',
  }),
});

/** PATCH /v1/orders/{orderId}/details (D29): properties that do not move the order. */
export const OrderDetailsBody = Type.Object({
  preparationStartDateTime: DateTime({ description: 'When preparation should start.' }),
});

const When = Type.Optional(DateTime());
/**
 * D28.7: meters, as a number (the spec) or as a decimal string (Open Delivery), in both profiles.
 * Stored as a number (orders-service.ts), so readers see one type.
 */
const Distance = Type.Unsafe<number | string>({
  type: ['number', 'string'],
  pattern: '^[0-9]+(\\.[0-9]+)?$',
  maxLength: 20,
  minimum: 0,
  description: 'Meters: a number, or a decimal string as Open Delivery sends it',
});
const MessageForPeople = Type.Optional(Type.String({ description: 'A message for people.' }));
const HappenedAt = described(When, 'When it happened.');

export const DeliveryTrackingInfo = Type.Object({
  event: Type.Optional(
    Type.Object(
      {
        type: Type.Optional(Type.String({ description: 'The tracking event type (e.g. DELIVERY_ARRIVED).' })),
        message: MessageForPeople,
        datetime: HappenedAt,
      },
      { description: 'What happened (e.g. DELIVERY_ARRIVED) and a message.' },
    ),
  ),
  problem: Type.Optional(
    Type.Object(
      {
        reason: Type.Optional(Type.String({ description: 'Why, in words.' })),
        message: MessageForPeople,
        datetime: HappenedAt,
      },
      { description: 'A problem with the delivery, if any.' },
    ),
  ),
  vehicle: Type.Optional(
    Type.Object(
      {
        type: Type.Optional(
          Type.Array(Type.String(), { description: 'The courier’s vehicle (e.g. MOTORBIKE, BICYCLE, CAR).' }),
        ),
        licencePlate: Type.Optional(Type.String({ description: 'The plate.' })),
      },
      { description: 'The courier’s vehicle.' },
    ),
  ),
  eta: Type.Optional(
    Type.Object(
      {
        pickupEtaInMinutes: Type.Optional(Type.Integer({ description: 'Minutes until pickup.', minimum: 0 })),
        pickupEtaDatetime: described(When, 'Expected pickup time.'),
        deliveryEtaInMinutes: Type.Optional(Type.Integer({ description: 'Minutes until delivery.', minimum: 0 })),
        deliveryEtaDatetime: described(When, 'Expected delivery time.'),
        maxDeliveryTime: described(When, 'Latest delivery time promised.'),
      },
      { description: 'Expected times.' },
    ),
  ),
  deliveryPerson: Type.Optional(
    Type.Object(
      {
        id: Type.Optional(Type.String({ description: 'The courier’s id in the POS or the logistics partner.' })),
        name: Type.Optional(Type.String({ description: 'The courier’s name.' })),
        pictureURL: Type.Optional(Type.String({ description: 'A photo of the courier.', format: 'uri' })),
      },
      { description: 'The courier.' },
    ),
  ),
  geoLocalization: Type.Optional(
    Type.Object(
      {
        latitude: Type.Optional(Type.Number({ description: 'Latitude in degrees.', minimum: -90, maximum: 90 })),
        longitude: Type.Optional(Type.Number({ description: 'Longitude in degrees.', minimum: -180, maximum: 180 })),
        lastAddress: Type.Optional(
          Type.Object(
            {
              country: Type.Optional(Type.String({ description: 'Country code (BR).' })),
              state: Type.Optional(Type.String({ description: 'State (UF).' })),
              city: Type.Optional(Type.String({ description: 'City.' })),
              district: Type.Optional(Type.String({ description: 'Neighbourhood.' })),
              street: Type.Optional(Type.String({ description: 'Street.' })),
              postalCode: Type.Optional(Type.String({ description: 'CEP.' })),
              distanceToPickup: Type.Optional(Distance),
              distanceToDelivery: Type.Optional(Distance),
              timestamp: described(When, 'When the position was taken.'),
            },
            { description: 'The courier’s last known address.' },
          ),
        ),
      },
      { description: 'Where the courier is.' },
    ),
  ),
});

export const TrackingBody = Type.Object({
  deliveryTrackingInfo: described(DeliveryTrackingInfo, 'The tracking update.'),
});
export const ValidateCodeBody = Type.Object({
  deliveryCode: Type.Optional(
    Type.String({
      description: 'The code the customer gives at the door; check it with validateCode before handing over.',
      maxLength: 100,
    }),
  ),
});

/** POST /v1/orders/{orderId}/weighing (D38): the weighed kilograms of KG lines, by their index. */
export const WeighingBody = Type.Object({
  items: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'The line’s position in the order’s items, from 0' }),
      quantity: Type.Optional(
        Type.Number({ description: 'The weighed kilograms: more than 0, at most 3 decimals (or give label)' }),
      ),
      label: Type.Optional(
        Type.String({
          maxLength: 64,
          description:
            'The scale’s EAN-13 label of the pack, instead of quantity (D41): read with the merchant’s scale label ' +
            'layouts; it must carry the line’s product’s scaleCode',
        }),
      ),
    }),
    { description: 'The ordered products.', minItems: 1, maxItems: 200 },
  ),
});

/** D42: a weighing out of tolerance under the ASK policy waits for the platform's decision. */
export const PendingWeighingAnswer = Type.Object(
  {
    weighingId: Uuid({
      description: 'The weighing: its timeline entry once applied, the decision route’s id while it waits.',
    }),
    state: Type.Enum(['APPLIED', 'PENDING_APPROVAL'], {
      description:
        'APPLIED: the order shows the weights now. PENDING_APPROVAL: a line is out of tolerance and the merchant ' +
        'asks the customer (D42); nothing changed yet; read the order’s `weighing` for the decision.',
    }),
    deadline: Type.Optional(
      DateTime({ description: 'PENDING_APPROVAL: when the merchant’s default decision applies if none came.' }),
    ),
  },
  { description: 'What became of the weighing.' },
);

/** POST /admin/v1/orders/{orderId}/weighings/{weighingId}/decision (D42). */
export const WeighingDecisionBody = Type.Object({
  decision: Type.Enum(['ACCEPT', 'REJECT', 'REMOVE_LINES'], {
    description:
      'The customer’s answer: ACCEPT the weights, REJECT them (the butcher weighs again), or REMOVE_LINES (take ' +
      'the lines out of the order; the rest of the weighing applies).',
  }),
  lines: Type.Optional(
    Type.Array(Type.Integer({ minimum: 0 }), {
      maxItems: 200,
      description: 'REMOVE_LINES only: the weighing’s lines to take out (default: those out of tolerance).',
    }),
  ),
});

// ---- operator ------------------------------------------------------------------------------

/** A cancellation request waiting for its answer (D7): the customer's, or the POS's with its mode. */
const OpenCancellation = Type.Object({
  reason: Type.String({ description: 'Why, in words.' }),
  code: Type.String({ description: 'Why, as a code.' }),
  mode: Type.Optional(Type.String({ description: 'How it is done.' })),
});

export const OperatorOrder = Type.Object({
  ...orderProperties,
  status: Type.Enum(ORDER_STATUSES, { description: 'Its current status.' }),
  deliveryCode: Type.String({
    description: 'The code the customer gives at the door; check it with validateCode before handing over.',
  }),
  orderExternalCode: Type.Union([Type.String(), Type.Null()], { description: 'The POS’s own code for the order.' }),
  preparationTime: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Minutes the store needs to prepare the order.',
  }),
  openCustomerCancellation: Type.Union([OpenCancellation, Type.Null()], {
    description: 'The customer’s open cancellation request, or null.',
  }),
  openPosCancellation: Type.Union([OpenCancellation, Type.Null()], {
    description: 'The POS’s open cancellation request, or null.',
  }),
});

/** D38: one weighing in the operator's view of an order (its timeline entry). */
export const WeighingView = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  keyId: Type.Union([Uuid(), Type.Null()], { description: 'The integration key.' }),
  weighedAt: DateTime({ description: 'When the weighing was applied.' }),
  lines: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'Display position (set at creation only).' }),
      orderedQuantity: Type.Number({
        description:
          'Once the line is weighed: the quantity the customer ordered (quantity is then the weighed kilograms).',
      }),
      quantity: Type.Number({ description: 'How many (kilograms for a KG product, may be fractional).' }),
    }),
    { description: 'The lines this weighing weighed: index in the order’s items, ordered and weighed quantity.' },
  ),
  itemsPriceBefore: described(Price, 'The order’s itemsPrice before this weighing.'),
  itemsPriceAfter: described(Price, 'The order’s itemsPrice after this weighing.'),
  orderAmountAfter: described(Price, 'The order’s orderAmount after this weighing.'),
  weighingAdjustment: Type.Union([Price, Type.Null()], {
    description:
      'Once weighed, what the platform settles of the prepaid part of the order: positive to charge, negative to refund.',
  }),
});

export const OperatorOrderSummary = Type.Object({
  id: Uuid({ description: 'The record’s unique id.' }),
  merchantId: Uuid({ description: 'The merchant (the client_id of its integration keys).' }),
  displayId: Type.String({ description: 'The short number people use for the order (4 digits).' }),
  type: Type.Enum(['DELIVERY', 'TAKEOUT'], { description: 'DELIVERY or TAKEOUT.' }),
  status: Type.Enum(ORDER_STATUSES, { description: 'The order’s status.' }),
  lastEvent: described(OrderEventTypeEnum, 'The type of the latest event of the order.'),
  orderAmount: Type.Number({ description: 'What the customer pays: items plus fees minus discounts.' }),
  customerName: Type.String({ description: 'The customer’s name.' }),
  createdAt: DateTime({ description: 'When it was created (UTC, ISO 8601).' }),
  updatedAt: DateTime({ description: 'When it last changed.' }),
});
