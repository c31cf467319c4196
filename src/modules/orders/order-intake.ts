// Turns the operator's order body into the stored order document (operator-api.md#orders):
// items resolved from the catalog, totals computed (never trusted from input) with exact
// decimal arithmetic (D9), plausible defaults for what is left out. Pure: no I/O. Size: one
// part of the order after the other (items with their cut, fees, discounts, payments, address),
// read top to bottom beside operator-api.md#orders.
import type { Static } from 'typebox';
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { Cut, ProductRow } from '../catalog/index.js';
import { BRANDED_METHODS, type CreateOrderBody, type Order, type OrderItem } from './orders-schemas.js';
import { checkWeightLimits } from './weight-limits.js';

export type CreateOrderInput = Static<typeof CreateOrderBody>;
/**
 * An item as stored: the view of spec 2.6.1 plus the internal product uuid, which the Open
 * Delivery view needs as `items[].id` (D28) and the spec's view leaves out. Orders stored before
 * it was kept have none (od-order-view.ts says what their Open Delivery id is).
 */
export type StoredOrderItem = Static<typeof OrderItem> & { productId?: string };
export type OrderDocument = Omit<Static<typeof Order>, 'lastEvent' | 'preparationStartDateTime' | 'items'> & {
  items: StoredOrderItem[];
};

const CURRENCY = 'BRL';
const MAX_AMOUNT = new Decimal('9999999999.9999');
const MINUTE = 60_000;

type MoneyInput = number | { value: number; currency?: 'BRL' };

/** A JSON number as an exact decimal: String() gives the shortest round-trip text (12.9, not 12.90000001). */
function dec(value: number, field: string, maxPlaces = 4): Decimal {
  if (!Number.isFinite(value)) throw badRequest(`${field} must be a number`);
  const d = new Decimal(String(value));
  if (d.decimalPlaces() > maxPlaces) throw badRequest(`${field} has more than ${maxPlaces} decimal places`);
  if (d.abs().greaterThan(MAX_AMOUNT)) throw badRequest(`${field} is too large`);
  return d;
}
const money = (m: MoneyInput, field: string) =>
  typeof m === 'number' ? dec(m, field) : dec(m.value, `${field}.value`);
/** Line totals are charged in centavos: round half up to 2 places. */
const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
const price = (d: Decimal) => ({ value: d.toNumber(), currency: CURRENCY });

function quantity(value: number, unit: 'UN' | 'KG', field: string, what: string): Decimal {
  const q = dec(value, field, 3);
  if (q.lessThanOrEqualTo(0)) throw badRequest(`${field} must be greater than 0`);
  // Spec 2.6.1: integer for UN, fractional for KG (0.5 = 500 g, D9).
  if (unit === 'UN' && !q.isInteger()) throw badRequest(`${field} must be a whole number for a UN ${what}`);
  return q;
}

export interface IntakeContext {
  orderId: string;
  now: Date;
  appId: string;
  merchant: { id: string; name: string };
  products: ProductRow[];
  /** D37: the cuts of those products, by product id (products without cuts are absent). */
  cuts?: Map<string, Cut[]>;
  /** Earlier orders of this customer at the merchant (spec 2.6 ordersCountOnMerchant). */
  ordersCountOnMerchant: number;
  newId: () => string;
  randomDigits: (n: number) => string;
}

export interface BuiltOrder {
  document: OrderDocument;
  customerId: string;
  deliveryCode: string;
  totals: { itemsPrice: string; otherFees: string; discount: string; orderAmount: string };
}

export function buildOrder(input: CreateOrderInput, ctx: IntakeContext): BuiltOrder {
  const byId = new Map(ctx.products.map((p) => [p.id.toLowerCase(), p]));
  const byPdv = new Map(ctx.products.filter((p) => p.pdv_external_id !== null).map((p) => [p.pdv_external_id, p]));

  const items = input.items.map((item, i) => {
    const at = `items[${i}]`;
    if (item.productId === undefined && item.pdvId === undefined)
      throw badRequest(`${at}.productId or ${at}.pdvId is required`);
    const fromId = item.productId !== undefined ? byId.get(item.productId.toLowerCase()) : undefined;
    const fromPdv = item.pdvId !== undefined ? byPdv.get(item.pdvId) : undefined;
    if (item.productId !== undefined && !fromId) throw badRequest(`${at}.productId is not a product of this merchant`);
    if (item.pdvId !== undefined && !fromPdv) throw badRequest(`${at}.pdvId is not a product of this merchant`);
    if (fromId && fromPdv && fromId.id !== fromPdv.id)
      throw badRequest(`${at}.pdvId names another product than ${at}.productId`);
    const product = (fromId ?? fromPdv) as ProductRow;
    if (product.status !== 'AVAILABLE') throw badRequest(`${at} names an UNAVAILABLE product`);
    const q = quantity(item.quantity, product.unit, `${at}.quantity`, 'product');
    checkWeightLimits(product, q, `${at}.quantity`);
    const unitPrice = new Decimal(product.price);
    const cut = item.cutId === undefined ? undefined : cutOption(product, item.cutId, ctx.cuts, `${at}.cutId`);
    const options = (item.options ?? []).map((o, j) => {
      const oat = `${at}.options[${j}]`;
      const unit = o.unit ?? 'UN';
      const oq = quantity(o.quantity, unit, `${oat}.quantity`, 'option');
      const oPrice = money(o.unitPrice, `${oat}.unitPrice`);
      const id = o.id ?? ctx.newId();
      return {
        id,
        name: o.name,
        externalCode: o.externalCode ?? id,
        unit,
        quantity: oq,
        unitPrice: oPrice,
        total: cents(oPrice.times(oq)),
      };
    });
    const optionsTotal = options.reduce((sum, o) => sum.plus(o.total), new Decimal(0));
    const total = cents(unitPrice.times(q)).plus(optionsTotal);
    return {
      total,
      view: {
        // Spec 2.6.1: the POS code when the product is linked, else the internal uuid.
        id: product.pdv_external_id ?? product.id,
        productId: product.id,
        name: product.name,
        externalCode: product.external_code,
        unit: product.unit,
        quantity: q.toNumber(),
        ...(item.specialInstructions ? { specialInstructions: item.specialInstructions } : {}),
        unitPrice: price(unitPrice),
        originalPrice: price(unitPrice),
        totalPrice: price(total),
        options: [
          ...(cut ? [cut] : []),
          ...options.map((o) => ({
            id: o.id,
            name: o.name,
            externalCode: o.externalCode,
            unit: o.unit,
            quantity: o.quantity.toNumber(),
            unitPrice: price(o.unitPrice),
            totalPrice: price(o.total),
          })),
        ],
      },
    };
  });
  const itemsPrice = items.reduce((sum, it) => sum.plus(it.total), new Decimal(0));

  if (input.type === 'TAKEOUT' && input.delivery) throw badRequest('delivery applies to DELIVERY orders only');
  if (input.type === 'DELIVERY' && input.takeout) throw badRequest('takeout applies to TAKEOUT orders only');

  // A delivery fee the merchant receives (it delivers itself, spec 2.6 deliveredBy MERCHANT).
  const feesIn =
    input.otherFees ??
    (input.type === 'DELIVERY'
      ? [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE' as const, receivedBy: 'MERCHANT' as const, price: 7.9 }]
      : []);
  const fees = feesIn.map((f, i) => {
    const value = money(f.price, `otherFees[${i}].price`);
    return {
      value,
      view: {
        name: f.name,
        type: f.type,
        receivedBy: f.receivedBy ?? (f.type === 'SERVICE_FEE' ? 'MARKETPLACE' : 'MERCHANT'),
        price: price(value),
      },
    };
  });
  const otherFees = fees.reduce((sum, f) => sum.plus(f.value), new Decimal(0));

  const discounts = (input.discounts ?? []).map((d, i) => {
    const amount = money(d.amount, `discounts[${i}].amount`);
    const sponsors = (d.sponsorshipValues ?? [{ name: 'MARKETPLACE' as const, amount: amount.toNumber() }]).map(
      (s, j) => ({ name: s.name, amount: money(s.amount, `discounts[${i}].sponsorshipValues[${j}].amount`) }),
    );
    const sponsored = sponsors.reduce((sum, s) => sum.plus(s.amount), new Decimal(0));
    if (!sponsored.equals(amount)) {
      throw badRequest(`discounts[${i}].sponsorshipValues must add up to discounts[${i}].amount`);
    }
    return {
      amount,
      view: {
        amount: price(amount),
        target: d.target,
        ...(d.targetId ? { targetId: d.targetId } : {}),
        sponsorshipValues: sponsors.map((s) => ({ name: s.name, amount: price(s.amount) })),
      },
    };
  });
  const discount = discounts.reduce((sum, d) => sum.plus(d.amount), new Decimal(0));
  if (discount.greaterThan(itemsPrice.plus(otherFees))) throw badRequest('discounts exceed the value of the order');
  const orderAmount = itemsPrice.plus(otherFees).minus(discount);

  const payments = buildPayments(input, orderAmount);

  const customerId = input.customer?.id ?? ctx.newId();
  const customer = input.customer
    ? {
        id: customerId,
        name: input.customer.name,
        phone: {
          number: input.customer.phone?.number ?? '11999990000',
          extension: input.customer.phone?.extension ?? null,
        },
        ...(input.customer.email ? { email: input.customer.email } : {}),
        documentNumber: input.customer.documentNumber ?? null,
        ordersCountOnMerchant: input.customer.ordersCountOnMerchant ?? ctx.ordersCountOnMerchant,
      }
    : {
        id: customerId,
        name: 'Cliente Cleaver',
        phone: { number: '11999990000', extension: null },
        email: 'cliente@cleaver.example',
        documentNumber: null,
        ordersCountOnMerchant: 0,
      };

  let schedule: OrderDocument['schedule'] = null;
  if (input.schedule) {
    const start = Date.parse(input.schedule.scheduledDateTimeStart);
    const end = Date.parse(input.schedule.scheduledDateTimeEnd);
    if (!(end > start)) throw badRequest('schedule.scheduledDateTimeEnd must be after schedule.scheduledDateTimeStart');
    schedule = {
      scheduledDateTimeStart: new Date(start).toISOString(),
      scheduledDateTimeEnd: new Date(end).toISOString(),
    };
  }
  const readyBy = (minutes: number) =>
    schedule ? schedule.scheduledDateTimeEnd : new Date(ctx.now.getTime() + minutes * MINUTE).toISOString();

  const document: OrderDocument = {
    id: ctx.orderId,
    type: input.type,
    sourceAppId: ctx.appId,
    ...(input.virtualBrand ? { virtualBrand: input.virtualBrand } : {}),
    displayId: input.displayId ?? ctx.randomDigits(4),
    salesChannel: input.salesChannel ?? 'MARKETPLACE',
    createdAt: ctx.now.toISOString(),
    merchant: ctx.merchant,
    items: items.map((it) => it.view),
    total: {
      itemsPrice: price(itemsPrice),
      otherFees: price(otherFees),
      discount: price(discount),
      orderAmount: price(orderAmount),
    },
    customer,
    payments,
    ...(input.type === 'DELIVERY'
      ? {
          delivery: {
            deliveredBy: 'MERCHANT' as const,
            deliveryAddress: buildAddress(input.delivery?.deliveryAddress),
            estimatedDeliveryDateTime: input.delivery?.estimatedDeliveryDateTime
              ? new Date(input.delivery.estimatedDeliveryDateTime).toISOString()
              : readyBy(45),
          },
        }
      : {
          takeout: {
            mode: input.takeout?.mode ?? 'DEFAULT',
            takeoutDateTime: input.takeout?.takeoutDateTime
              ? new Date(input.takeout.takeoutDateTime).toISOString()
              : readyBy(30),
          },
        }),
    orderTiming: schedule ? 'SCHEDULED' : 'INSTANT',
    schedule,
    otherFees: fees.map((f) => f.view),
    discounts: discounts.map((d) => d.view),
    ...(input.extraInfo ? { extraInfo: input.extraInfo } : {}),
    sendTracking: true,
    sendDelivered: true,
  };
  return {
    document,
    customerId,
    deliveryCode: input.deliveryCode ?? ctx.randomDigits(4),
    totals: {
      itemsPrice: itemsPrice.toFixed(),
      otherFees: otherFees.toFixed(),
      discount: discount.toFixed(),
      orderAmount: orderAmount.toFixed(),
    },
  };
}

/**
 * D37: the chosen cut as the item's first option, free of charge, named "cut – spice", with the
 * cut's id (a POS matches it against GET /v1/merchant; Open Delivery software just shows it).
 */
function cutOption(product: ProductRow, cutId: string, cuts: Map<string, Cut[]> | undefined, field: string) {
  const cut = cuts?.get(product.id)?.find((c) => c.id === cutId);
  if (!cut) throw badRequest(`${field} is not a cut of this item's product`);
  return {
    id: cut.id,
    name: cut.spice ? `${cut.name} – ${cut.spice.name}` : cut.name,
    externalCode: cut.id,
    unit: 'UN' as const,
    quantity: 1,
    unitPrice: price(new Decimal(0)),
    totalPrice: price(new Decimal(0)),
  };
}

/** Payments must add up to the order amount (Open Delivery); default: prepaid by card online. */
function buildPayments(input: CreateOrderInput, orderAmount: Decimal): OrderDocument['payments'] {
  const methodsIn = input.payments?.methods ?? [
    {
      value: orderAmount.toNumber(),
      type: 'PREPAID' as const,
      method: 'CREDIT' as const,
      brand: 'VISA' as const,
      methodInfo: 'Pago online no marketplace',
    },
  ];
  let prepaid = new Decimal(0);
  let pending = new Decimal(0);
  const methods = methodsIn.map((m, i) => {
    const at = `payments.methods[${i}]`;
    const value = dec(m.value, `${at}.value`);
    if (m.type === 'PREPAID') prepaid = prepaid.plus(value);
    else pending = pending.plus(value);
    if (m.brand !== undefined && !BRANDED_METHODS.has(m.method)) {
      throw badRequest(`${at}.brand applies only to card and voucher methods`);
    }
    let changeFor: Decimal | undefined;
    if (m.method === 'CASH') {
      changeFor = m.changeFor === undefined ? value : dec(m.changeFor, `${at}.changeFor`);
      if (changeFor.lessThan(value)) throw badRequest(`${at}.changeFor must be at least ${at}.value`);
    } else if (m.changeFor !== undefined) {
      throw badRequest(`${at}.changeFor applies only to CASH`);
    }
    return {
      value: value.toNumber(),
      currency: CURRENCY,
      type: m.type,
      method: m.method,
      ...(m.brand ? { brand: m.brand } : {}),
      ...(m.methodInfo ? { methodInfo: m.methodInfo } : {}),
      ...(changeFor ? { changeFor: changeFor.toNumber() } : {}),
    };
  });
  if (!prepaid.plus(pending).equals(orderAmount)) {
    throw badRequest(`payments.methods must add up to the order amount (${orderAmount.toFixed(2)})`);
  }
  return { prepaid: prepaid.toNumber(), pending: pending.toNumber(), methods };
}

type AddressIn = NonNullable<NonNullable<CreateOrderInput['delivery']>['deliveryAddress']>;

function buildAddress(a: AddressIn | undefined): NonNullable<OrderDocument['delivery']>['deliveryAddress'] {
  const address = a ?? {
    street: 'Rua Augusta',
    number: '1500',
    complement: 'Apto 42',
    district: 'Consolação',
    city: 'São Paulo',
    state: 'SP',
    postalCode: '01304-001',
    country: 'BR',
    reference: 'Portaria 24h',
    coordinates: { latitude: -23.5577, longitude: -46.6602 },
  };
  const country = address.country ?? 'BR';
  const formatted =
    address.formattedAddress ??
    `${address.street}, ${address.number}${address.complement ? ` - ${address.complement}` : ''} - ` +
      `${address.district}, ${address.city} - ${address.state}, ${address.postalCode}, ${country}`;
  return {
    street: address.street,
    number: address.number,
    ...(address.complement ? { complement: address.complement } : {}),
    district: address.district,
    city: address.city,
    state: address.state,
    postalCode: address.postalCode,
    country,
    formattedAddress: formatted,
    ...(address.reference ? { reference: address.reference } : {}),
    ...(address.coordinates ? { coordinates: address.coordinates } : {}),
  };
}
