// The order intake, table-driven (style.md#tests): one row per rule of operator-api.md#orders and
// spec 2.6 (totals computed, never trusted; D9 exact decimals; KG fractional, UN whole; defaults
// for what is left out) and per refusal with the title that names the field.
import { describe, expect, it } from 'vitest';
import type { ProductRow } from '../catalog/index.js';
import { buildOrder, type CreateOrderInput, type IntakeContext } from './order-intake.js';

const product = (p: Partial<ProductRow> & Pick<ProductRow, 'id' | 'name' | 'price' | 'unit'>): ProductRow => ({
  merchant_id: 'm',
  pdv_external_id: null,
  description: '',
  status: 'AVAILABLE',
  stock: '0',
  external_code: '',
  ean: '',
  sku: '',
  scale_code: null,
  weight_min: null,
  weight_max: null,
  weight_step: null,
  lead_time_hours: null,
  ...p,
});

const PICANHA = product({
  id: '11111111-1111-4111-8111-111111111111',
  pdv_external_id: 'P1',
  name: 'Picanha',
  price: '89.9',
  unit: 'KG',
  external_code: 'SC-1',
});
const HAMBURGUER = product({
  id: '22222222-2222-4222-8222-222222222222',
  name: 'Hambúrguer',
  price: '6.5',
  unit: 'UN',
});
const ESGOTADO = product({
  id: '33333333-3333-4333-8333-333333333333',
  pdv_external_id: 'P3',
  name: 'Cupim',
  price: '70',
  unit: 'KG',
  status: 'UNAVAILABLE',
});

let ids = 0;
const ctx = (over: Partial<IntakeContext> = {}): IntakeContext => ({
  orderId: '99999999-9999-4999-8999-999999999999',
  now: new Date('2026-03-02T12:00:00Z'),
  appId: '6f1c2a4e-8b3d-4c5e-9a7f-0d2e4b6c8a10',
  merchant: { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Açougue Boi Bravo' },
  products: [PICANHA, HAMBURGUER, ESGOTADO],
  ordersCountOnMerchant: 3,
  newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  randomDigits: (n) => '7'.repeat(n),
  ...over,
});

const order = (input: Partial<CreateOrderInput>): CreateOrderInput =>
  ({ type: 'TAKEOUT', items: [{ pdvId: 'P1', quantity: 1 }], ...input }) as CreateOrderInput;

describe('totals (D9): computed from the catalog, exact, in centavos per line', () => {
  it.each([
    ['1.2 kg of picanha', [{ pdvId: 'P1', quantity: 1.2 }], 107.88],
    ['0.333 kg rounds half up to the centavo', [{ pdvId: 'P1', quantity: 0.333 }], 29.94],
    ['4 hambúrgueres by internal id', [{ productId: HAMBURGUER.id, quantity: 4 }], 26],
    [
      'an option adds its own line total',
      [{ pdvId: 'P1', quantity: 1, options: [{ name: 'Sal grosso', quantity: 2, unitPrice: 1.25 }] }],
      92.4,
    ],
    ['0.1 + 0.2 in floating point is not 0.3 here', [{ productId: HAMBURGUER.id, quantity: 1 }], 6.5],
  ])('%s', (_case, items, itemsPrice) => {
    const built = buildOrder(order({ items: items as CreateOrderInput['items'] }), ctx());
    expect(built.document.total.itemsPrice.value).toBe(itemsPrice);
    expect(built.totals.itemsPrice).toBe(new Intl.NumberFormat('en', { useGrouping: false }).format(itemsPrice));
  });

  it('order amount = items + fees − discounts, and payments default to it', () => {
    const built = buildOrder(
      order({
        type: 'DELIVERY',
        otherFees: [{ name: 'Entrega', type: 'DELIVERY_FEE', price: 7.9 }],
        discounts: [{ amount: 10, target: 'CART' }],
      } as Partial<CreateOrderInput>),
      ctx(),
    );
    expect(built.document.total).toEqual({
      itemsPrice: { value: 89.9, currency: 'BRL' },
      otherFees: { value: 7.9, currency: 'BRL' },
      discount: { value: 10, currency: 'BRL' },
      orderAmount: { value: 87.8, currency: 'BRL' },
    });
    expect(built.document.payments.prepaid).toBe(87.8);
  });
});

describe('items (spec 2.6.1)', () => {
  it('the item id is the POS code when linked, the internal uuid otherwise', () => {
    const built = buildOrder(
      order({
        items: [
          { pdvId: 'P1', quantity: 1 },
          { productId: HAMBURGUER.id, quantity: 1 },
        ],
      }),
      ctx(),
    );
    expect(built.document.items.map((i) => [i.id, i.externalCode, i.unit])).toEqual([
      ['P1', 'SC-1', 'KG'],
      [HAMBURGUER.id, '', 'UN'],
    ]);
  });
});

/** One row per refusal: the input and the 400 title that names the field. */
const refusals: Array<[string, Partial<CreateOrderInput>, string]> = [
  ['no product reference', { items: [{ quantity: 1 }] as never }, 'items[0].productId or items[0].pdvId is required'],
  [
    'an unknown POS code',
    { items: [{ pdvId: 'P9', quantity: 1 }] },
    'items[0].pdvId is not a product of this merchant',
  ],
  [
    'an unknown product id',
    { items: [{ productId: '44444444-4444-4444-8444-444444444444', quantity: 1 }] },
    'items[0].productId is not a product of this merchant',
  ],
  [
    'productId and pdvId naming two products',
    { items: [{ productId: HAMBURGUER.id, pdvId: 'P1', quantity: 1 }] },
    'items[0].pdvId names another product than items[0].productId',
  ],
  ['an UNAVAILABLE product', { items: [{ pdvId: 'P3', quantity: 1 }] }, 'items[0] names an UNAVAILABLE product'],
  ['a zero quantity', { items: [{ pdvId: 'P1', quantity: 0 }] }, 'items[0].quantity must be greater than 0'],
  ['a negative quantity', { items: [{ pdvId: 'P1', quantity: -1 }] }, 'items[0].quantity must be greater than 0'],
  [
    'a fractional quantity of a UN product',
    { items: [{ productId: HAMBURGUER.id, quantity: 1.5 }] },
    'items[0].quantity must be a whole number for a UN product',
  ],
  [
    'a quantity with more than 3 decimals',
    { items: [{ pdvId: 'P1', quantity: 0.1234 }] },
    'items[0].quantity has more than 3 decimal places',
  ],
  [
    'a delivery block on a TAKEOUT order',
    { type: 'TAKEOUT', delivery: {} } as Partial<CreateOrderInput>,
    'delivery applies to DELIVERY orders only',
  ],
  [
    'a takeout block on a DELIVERY order',
    { type: 'DELIVERY', takeout: {} } as Partial<CreateOrderInput>,
    'takeout applies to TAKEOUT orders only',
  ],
  [
    'discounts larger than the order',
    { discounts: [{ amount: 1000, target: 'CART' }] } as Partial<CreateOrderInput>,
    'discounts exceed the value of the order',
  ],
  [
    'a schedule that ends before it starts',
    {
      schedule: { scheduledDateTimeStart: '2026-03-02T18:00:00Z', scheduledDateTimeEnd: '2026-03-02T17:00:00Z' },
    } as Partial<CreateOrderInput>,
    'schedule.scheduledDateTimeEnd must be after schedule.scheduledDateTimeStart',
  ],
  [
    'change for less than the cash paid',
    {
      payments: { methods: [{ method: 'CASH', type: 'PENDING', value: 89.9, changeFor: 50 }] },
    } as Partial<CreateOrderInput>,
    'payments.methods[0].changeFor must be at least payments.methods[0].value',
  ],
  [
    'payments that do not add up',
    {
      payments: { methods: [{ method: 'CREDIT', type: 'PREPAID', value: 10, brand: 'VISA' }] },
    } as Partial<CreateOrderInput>,
    'payments.methods must add up to the order amount (89.90)',
  ],
];

describe('refusals: 400 naming the field', () => {
  it.each(refusals)('%s', (_case, input, title) => {
    expect(() => buildOrder(order(input), ctx())).toThrow(expect.objectContaining({ status: 400, title }));
  });
});

describe('defaults: {type, items} alone is a valid order', () => {
  it('fills customer, payment, display id and delivery code; INSTANT with a null schedule', () => {
    const built = buildOrder(order({}), ctx());
    expect(built.document).toMatchObject({
      id: '99999999-9999-4999-8999-999999999999',
      type: 'TAKEOUT',
      displayId: '7777',
      orderTiming: 'INSTANT',
      schedule: null,
      sendTracking: true,
      sendDelivered: true,
      merchant: { id: 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa', name: 'Açougue Boi Bravo' },
    });
    expect(built.deliveryCode).toBe('7777');
    // An invented customer is new to the merchant; a given one carries its count of earlier orders.
    expect(built.document.customer.ordersCountOnMerchant).toBe(0);
    const known = buildOrder(
      order({ customer: { id: '55555555-5555-4555-8555-555555555555', name: 'Maria' } } as Partial<CreateOrderInput>),
      ctx(),
    );
    expect(known.document.customer.ordersCountOnMerchant).toBe(3);
    expect(built.document.payments.methods.reduce((s, m) => s + m.value, 0)).toBe(89.9);
  });

  it('a DELIVERY order gets an address, MERCHANT delivery and an estimate', () => {
    const built = buildOrder(order({ type: 'DELIVERY' }), ctx());
    expect(built.document.delivery).toMatchObject({ deliveredBy: 'MERCHANT' });
    expect(built.document.delivery?.deliveryAddress.country).toBe('BR');
  });
});
