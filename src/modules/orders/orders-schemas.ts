// The order's shapes (spec 4.5 to 4.12) as TypeBox schemas: the order a POS reads, the bodies of
// its actions and the platform's order creation. Size: one schema per spec table, kept together so
// a reader can hold this file beside the spec and check it field by field.
import { Type } from 'typebox';
import { DateTime, Uuid } from '../../lib/schemas.js';
import { OrderEventTypeEnum } from '../events/index.js';
import {
  OD_DENY_CANCELLATION_CODES,
  OD_REQUEST_CANCELLATION_CODES,
  OdPaymentMethodEnum,
  OdRequestCancellationCode,
} from '../opendelivery/index.js';
import { ORDER_STATUSES } from './order-state.js';

// Spec 2.6 / 2.6.1 plus the Open Delivery fields of D26. Response schemas are allow-lists.
// Longer than most files on purpose: every order shape (the view, the operator's input, the
// action bodies) in one place, since they share their parts (prices, units, addresses, codes).

export const Price = Type.Object({ value: Type.Number(), currency: Type.String() });
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
  latitude: Type.Number({ minimum: -90, maximum: 90 }),
  longitude: Type.Number({ minimum: -180, maximum: 180 }),
});

export const Address = Type.Object({
  street: Type.String(),
  number: Type.String(),
  complement: Type.Optional(Type.String()),
  district: Type.String(),
  city: Type.String(),
  state: Type.String(),
  postalCode: Type.String(),
  country: Type.String(),
  formattedAddress: Type.String(),
  reference: Type.Optional(Type.String()),
  coordinates: Type.Optional(Coordinates),
});

const OrderOption = Type.Object({
  id: Type.String(),
  name: Type.String(),
  externalCode: Type.String(),
  unit: Unit,
  quantity: Type.Number(),
  unitPrice: Price,
  totalPrice: Price,
});

export const OrderItem = Type.Object({
  id: Type.String(),
  name: Type.String(),
  externalCode: Type.String(),
  unit: Unit,
  quantity: Type.Number(),
  /** D38: once the line is weighed, `quantity` is the weight and this the quantity ordered. */
  orderedQuantity: Type.Optional(Type.Number()),
  specialInstructions: Type.Optional(Type.String()),
  unitPrice: Price,
  originalPrice: Price,
  totalPrice: Price,
  options: Type.Array(OrderOption),
});

export const PaymentMethod = Type.Object({
  value: Type.Number(),
  currency: Type.String(),
  type: Type.Enum(['PREPAID', 'PENDING']),
  method: OdPaymentMethodEnum,
  brand: Type.Optional(Type.Enum(CARD_BRANDS)),
  methodInfo: Type.Optional(Type.String()),
  changeFor: Type.Optional(Type.Number()),
});

const orderProperties = {
  id: Uuid(),
  type: Type.Enum(['DELIVERY', 'TAKEOUT']),
  sourceAppId: Uuid(),
  virtualBrand: Type.Optional(Type.String()),
  displayId: Type.String(),
  salesChannel: Type.String(),
  createdAt: DateTime(),
  lastEvent: OrderEventTypeEnum,
  merchant: Type.Object({ id: Uuid(), name: Type.String() }),
  items: Type.Array(OrderItem),
  total: Type.Object({ itemsPrice: Price, otherFees: Price, discount: Price, orderAmount: Price }),
  customer: Type.Object({
    id: Uuid(),
    name: Type.String(),
    phone: Type.Object({ number: Type.String(), extension: Type.Union([Type.String(), Type.Null()]) }),
    email: Type.Optional(Type.String()),
    documentNumber: Type.Union([Type.String(), Type.Null()]),
    ordersCountOnMerchant: Type.Integer(),
  }),
  payments: Type.Object({ prepaid: Type.Number(), pending: Type.Number(), methods: Type.Array(PaymentMethod) }),
  /** D38: once weighed, what the platform settles of a prepaid order (+ to charge, − to refund). */
  weighingAdjustment: Type.Optional(Price),
  delivery: Type.Optional(
    Type.Object({
      deliveredBy: Type.Literal('MERCHANT'),
      deliveryAddress: Address,
      estimatedDeliveryDateTime: DateTime(),
      deliveryDateTime: Type.Optional(DateTime()),
    }),
  ),
  orderTiming: Type.Enum(['INSTANT', 'SCHEDULED']),
  schedule: Type.Union([
    Type.Object({ scheduledDateTimeStart: DateTime(), scheduledDateTimeEnd: DateTime() }),
    Type.Null(),
  ]),
  takeout: Type.Optional(Type.Object({ mode: Type.Enum(['DEFAULT', 'PICKUP_AREA']), takeoutDateTime: DateTime() })),
  otherFees: Type.Array(Type.Object({ name: Type.String(), type: FeeType, receivedBy: ReceivedBy, price: Price })),
  discounts: Type.Array(
    Type.Object({
      amount: Price,
      target: DiscountTarget,
      targetId: Type.Optional(Type.String()),
      sponsorshipValues: Type.Array(Type.Object({ name: Sponsor, amount: Price })),
    }),
  ),
  extraInfo: Type.Optional(Type.String()),
  preparationStartDateTime: Type.Union([DateTime(), Type.Null()]),
  sendTracking: Type.Literal(true),
  sendDelivered: Type.Literal(true),
};

/** GET /v1/orders/{orderId} (spec 2.6). */
export const Order = Type.Object(orderProperties);

export const OrderIdParams = Type.Object({ orderId: Uuid() });

// ---- input of the operator's POST /admin/v1/merchants/{merchantId}/orders -------------------

const MoneyIn = Type.Union([
  Type.Number({ minimum: 0 }),
  Type.Object({ value: Type.Number({ minimum: 0 }), currency: Type.Optional(Type.Literal('BRL')) }),
]);
const Text = (max: number) => Type.String({ minLength: 1, maxLength: max });

export const AddressInput = Type.Object({
  street: Text(200),
  number: Text(20),
  complement: Type.Optional(Type.String({ maxLength: 200 })),
  district: Text(100),
  city: Text(100),
  state: Text(50),
  postalCode: Type.String({ pattern: '^[0-9]{5}-?[0-9]{3}$' }),
  country: Type.Optional(Text(60)),
  formattedAddress: Type.Optional(Text(500)),
  reference: Type.Optional(Type.String({ maxLength: 300 })),
  coordinates: Type.Optional(Coordinates),
});

export const CreateOrderBody = Type.Object({
  type: Type.Enum(['DELIVERY', 'TAKEOUT']),
  items: Type.Array(
    Type.Object({
      productId: Type.Optional(Uuid()),
      pdvId: Type.Optional(Text(100)),
      /** D37: one cut of this item's product, shown as the first of its options. */
      cutId: Type.Optional(Text(100)),
      quantity: Type.Number(),
      specialInstructions: Type.Optional(Type.String({ maxLength: 1000 })),
      options: Type.Optional(
        Type.Array(
          Type.Object({
            id: Type.Optional(Text(100)),
            name: Text(200),
            externalCode: Type.Optional(Type.String({ maxLength: 100 })),
            unit: Type.Optional(Unit),
            quantity: Type.Number(),
            unitPrice: MoneyIn,
          }),
          { maxItems: 50 },
        ),
      ),
    }),
    { minItems: 1, maxItems: 200 },
  ),
  customer: Type.Optional(
    Type.Object({
      id: Type.Optional(Uuid()),
      name: Text(200),
      phone: Type.Optional(
        Type.Object({
          number: Type.String({ pattern: '^\\+?[0-9][0-9 ()-]{6,24}$' }),
          extension: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Null()])),
        }),
      ),
      email: Type.Optional(Type.String({ format: 'email', maxLength: 320 })),
      documentNumber: Type.Optional(Type.Union([Type.String({ pattern: '^[0-9./-]{11,18}$' }), Type.Null()])),
      ordersCountOnMerchant: Type.Optional(Type.Integer({ minimum: 0 })),
    }),
  ),
  payments: Type.Optional(
    Type.Object({
      methods: Type.Array(
        Type.Object({
          value: Type.Number({ minimum: 0 }),
          type: Type.Enum(['PREPAID', 'PENDING']),
          method: OdPaymentMethodEnum,
          brand: Type.Optional(Type.Enum(CARD_BRANDS)),
          methodInfo: Type.Optional(Type.String({ maxLength: 200 })),
          changeFor: Type.Optional(Type.Number({ minimum: 0 })),
        }),
        { minItems: 1, maxItems: 10 },
      ),
    }),
  ),
  delivery: Type.Optional(
    Type.Object({
      deliveryAddress: Type.Optional(AddressInput),
      estimatedDeliveryDateTime: Type.Optional(DateTime()),
    }),
  ),
  takeout: Type.Optional(
    Type.Object({
      mode: Type.Optional(Type.Enum(['DEFAULT', 'PICKUP_AREA'])),
      takeoutDateTime: Type.Optional(DateTime()),
    }),
  ),
  schedule: Type.Optional(Type.Object({ scheduledDateTimeStart: DateTime(), scheduledDateTimeEnd: DateTime() })),
  otherFees: Type.Optional(
    Type.Array(Type.Object({ name: Text(200), type: FeeType, receivedBy: Type.Optional(ReceivedBy), price: MoneyIn }), {
      maxItems: 20,
    }),
  ),
  discounts: Type.Optional(
    Type.Array(
      Type.Object({
        amount: MoneyIn,
        target: DiscountTarget,
        targetId: Type.Optional(Text(100)),
        sponsorshipValues: Type.Optional(Type.Array(Type.Object({ name: Sponsor, amount: MoneyIn }), { maxItems: 5 })),
      }),
      { maxItems: 20 },
    ),
  ),
  extraInfo: Type.Optional(Type.String({ maxLength: 2000 })),
  displayId: Type.Optional(Text(50)),
  salesChannel: Type.Optional(Text(50)),
  virtualBrand: Type.Optional(Text(100)),
  deliveryCode: Type.Optional(Type.String({ pattern: '^[0-9]{4,8}$' })),
});

// ---- POS action bodies (spec 4.7–4.12) -------------------------------------------------------

/** Spec 4.10's codes: Open Delivery's requestCancellation codes. */
export const CANCELLATION_CODES = OD_REQUEST_CANCELLATION_CODES;

export const ConfirmBody = Type.Object({
  createdAt: DateTime(),
  orderExternalCode: Text(200),
  reason: Type.Optional(Type.String({ maxLength: 1000 })),
  preparationTime: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
});

export const RequestCancellationBody = Type.Object({
  reason: Text(1000),
  code: OdRequestCancellationCode,
  mode: Type.Enum(['AUTO', 'MANUAL']),
  outOfStockItems: Type.Optional(Type.Array(Uuid(), { maxItems: 500 })),
  invalidItems: Type.Optional(Type.Array(Uuid(), { maxItems: 500 })),
});

export const DenyCancellationBody = Type.Object({
  reason: Text(1000),
  code: Type.Enum([...CANCELLATION_CODES, ...OD_DENY_CANCELLATION_CODES], {
    description:
      'The codes of spec 4.10; DISH_ALREADY_DONE and OUT_FOR_DELIVERY (Open Delivery) from an opendelivery key',
  }),
});

/** PATCH /v1/orders/{orderId}/details (D29): properties that do not move the order. */
export const OrderDetailsBody = Type.Object({ preparationStartDateTime: DateTime() });

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
export const DeliveryTrackingInfo = Type.Object({
  event: Type.Optional(
    Type.Object({ type: Type.Optional(Type.String()), message: Type.Optional(Type.String()), datetime: When }),
  ),
  problem: Type.Optional(
    Type.Object({ reason: Type.Optional(Type.String()), message: Type.Optional(Type.String()), datetime: When }),
  ),
  vehicle: Type.Optional(
    Type.Object({ type: Type.Optional(Type.Array(Type.String())), licencePlate: Type.Optional(Type.String()) }),
  ),
  eta: Type.Optional(
    Type.Object({
      pickupEtaInMinutes: Type.Optional(Type.Integer({ minimum: 0 })),
      pickupEtaDatetime: When,
      deliveryEtaInMinutes: Type.Optional(Type.Integer({ minimum: 0 })),
      deliveryEtaDatetime: When,
      maxDeliveryTime: When,
    }),
  ),
  deliveryPerson: Type.Optional(
    Type.Object({
      id: Type.Optional(Type.String()),
      name: Type.Optional(Type.String()),
      pictureURL: Type.Optional(Type.String({ format: 'uri' })),
    }),
  ),
  geoLocalization: Type.Optional(
    Type.Object({
      latitude: Type.Optional(Type.Number({ minimum: -90, maximum: 90 })),
      longitude: Type.Optional(Type.Number({ minimum: -180, maximum: 180 })),
      lastAddress: Type.Optional(
        Type.Object({
          country: Type.Optional(Type.String()),
          state: Type.Optional(Type.String()),
          city: Type.Optional(Type.String()),
          district: Type.Optional(Type.String()),
          street: Type.Optional(Type.String()),
          postalCode: Type.Optional(Type.String()),
          distanceToPickup: Type.Optional(Distance),
          distanceToDelivery: Type.Optional(Distance),
          timestamp: When,
        }),
      ),
    }),
  ),
});

export const TrackingBody = Type.Object({ deliveryTrackingInfo: DeliveryTrackingInfo });
export const ValidateCodeBody = Type.Object({ deliveryCode: Type.Optional(Type.String({ maxLength: 100 })) });

/** POST /v1/orders/{orderId}/weighing (D38): the weighed kilograms of KG lines, by their index. */
export const WeighingBody = Type.Object({
  items: Type.Array(
    Type.Object({
      index: Type.Integer({ description: 'The line’s position in the order’s items, from 0' }),
      quantity: Type.Number({ description: 'The weighed kilograms: more than 0, at most 3 decimals' }),
    }),
    { minItems: 1, maxItems: 200 },
  ),
});

// ---- operator ------------------------------------------------------------------------------

/** A cancellation request waiting for its answer (D7): the customer's, or the POS's with its mode. */
const OpenCancellation = Type.Object({
  reason: Type.String(),
  code: Type.String(),
  mode: Type.Optional(Type.String()),
});

export const OperatorOrder = Type.Object({
  ...orderProperties,
  status: Type.Enum(ORDER_STATUSES),
  deliveryCode: Type.String(),
  orderExternalCode: Type.Union([Type.String(), Type.Null()]),
  preparationTime: Type.Union([Type.Integer(), Type.Null()]),
  openCustomerCancellation: Type.Union([OpenCancellation, Type.Null()]),
  openPosCancellation: Type.Union([OpenCancellation, Type.Null()]),
});

/** D38: one weighing in the operator's view of an order (its timeline entry). */
export const WeighingView = Type.Object({
  id: Uuid(),
  keyId: Type.Union([Uuid(), Type.Null()]),
  weighedAt: DateTime(),
  lines: Type.Array(Type.Object({ index: Type.Integer(), orderedQuantity: Type.Number(), quantity: Type.Number() })),
  itemsPriceBefore: Price,
  itemsPriceAfter: Price,
  orderAmountAfter: Price,
  weighingAdjustment: Type.Union([Price, Type.Null()]),
});

export const OperatorOrderSummary = Type.Object({
  id: Uuid(),
  merchantId: Uuid(),
  displayId: Type.String(),
  type: Type.Enum(['DELIVERY', 'TAKEOUT']),
  status: Type.Enum(ORDER_STATUSES),
  lastEvent: OrderEventTypeEnum,
  orderAmount: Type.Number(),
  customerName: Type.String(),
  createdAt: DateTime(),
  updatedAt: DateTime(),
});
