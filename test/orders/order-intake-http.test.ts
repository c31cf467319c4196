// Operator order intake and GET /v1/orders/{id} through HTTP (operator-api.md#orders, spec 2.6).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { expectError } from '../support/expect-error.js';
import { orderSession } from '../support/order-session.js';
import { createOrder, createProduct, createSimpleOrder, insertPosProduct } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
const { pos, operator } = orderSession(() => t, clock);

describe('order intake (operator) and GET /v1/orders/{id}', () => {
  it('resolves items from the catalog, computes exact totals, shows the full spec 2.6 shape', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes Exata');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const linguica = await createProduct(t.app, me.merchantId, { name: 'Linguiça', price: 0.1, unit: 'UN' });
    await insertPosProduct(t.database.db, me.merchantId, {
      pdvId: 'PDV-77',
      name: 'Fraldinha',
      price: '59.99',
      unit: 'KG',
    });
    const created = await createOrder(t.app, me.merchantId, {
      type: 'DELIVERY',
      items: [
        { productId: picanha.id, quantity: 1.25, specialInstructions: 'Cortar em bifes' },
        { productId: linguica.id, quantity: 3, options: [{ name: 'Apimentada', quantity: 1, unitPrice: 0.2 }] },
        { pdvId: 'PDV-77', quantity: 0.5 },
      ],
      payments: {
        methods: [
          { value: 120, type: 'PREPAID', method: 'PIX' },
          { value: 30.78, type: 'PENDING', method: 'CASH', changeFor: 50 },
        ],
      },
    });
    // 89.9 × 1.25 = 112.375 → 112.38; 0.1 × 3 + 0.2 = 0.5 (not 0.5000000000000001); 59.99 × 0.5 = 29.995 → 30.00
    expect(created.total).toEqual({
      itemsPrice: { value: 142.88, currency: 'BRL' },
      otherFees: { value: 7.9, currency: 'BRL' },
      discount: { value: 0, currency: 'BRL' },
      orderAmount: { value: 150.78, currency: 'BRL' },
    });
    expect(created.deliveryCode).toMatch(/^\d{4}$/);
    expect(created.status).toBe('CREATED');
  });

  it('answers GET /v1/orders/{id} with exactly the spec shape', async () => {
    const me = await createMerchant(t.app, 'Açougue Forma');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    await insertPosProduct(t.database.db, me.merchantId, { pdvId: 'ALC-1', name: 'Alcatra', price: '10', unit: 'UN' });
    const created = await createOrder(t.app, me.merchantId, {
      type: 'DELIVERY',
      items: [
        { productId: picanha.id, quantity: 2 },
        { pdvId: 'ALC-1', quantity: 1 },
      ],
      otherFees: [],
      deliveryCode: '987654',
    });
    const res = await pos(me).get(`/v1/orders/${created.id}`);
    expect(res.statusCode).toBe(200);
    const order = res.json();
    expect(order).toEqual({
      id: created.id,
      type: 'DELIVERY',
      sourceAppId: t.config.appId,
      displayId: expect.stringMatching(/^\d{4}$/),
      salesChannel: 'MARKETPLACE',
      createdAt: expect.any(String),
      lastEvent: 'CREATED',
      merchant: { id: me.merchantId, name: 'Açougue Forma' },
      items: [
        {
          id: picanha.id,
          name: 'Picanha',
          externalCode: picanha.externalCode,
          unit: 'KG',
          quantity: 2,
          unitPrice: { value: 89.9, currency: 'BRL' },
          originalPrice: { value: 89.9, currency: 'BRL' },
          totalPrice: { value: 179.8, currency: 'BRL' },
          options: [],
        },
        {
          id: 'ALC-1',
          name: 'Alcatra',
          externalCode: 'SC-ALC-1',
          unit: 'UN',
          quantity: 1,
          unitPrice: { value: 10, currency: 'BRL' },
          originalPrice: { value: 10, currency: 'BRL' },
          totalPrice: { value: 10, currency: 'BRL' },
          options: [],
        },
      ],
      total: {
        itemsPrice: { value: 189.8, currency: 'BRL' },
        otherFees: { value: 0, currency: 'BRL' },
        discount: { value: 0, currency: 'BRL' },
        orderAmount: { value: 189.8, currency: 'BRL' },
      },
      customer: {
        id: expect.any(String),
        name: expect.any(String),
        phone: { number: expect.any(String), extension: null },
        email: expect.any(String),
        documentNumber: null,
        ordersCountOnMerchant: 0,
      },
      payments: {
        prepaid: 189.8,
        pending: 0,
        methods: [
          {
            value: 189.8,
            currency: 'BRL',
            type: 'PREPAID',
            method: 'CREDIT',
            brand: 'VISA',
            methodInfo: expect.any(String),
          },
        ],
      },
      delivery: {
        deliveredBy: 'MERCHANT',
        deliveryAddress: expect.objectContaining({ street: expect.any(String), formattedAddress: expect.any(String) }),
        estimatedDeliveryDateTime: expect.any(String),
      },
      orderTiming: 'INSTANT',
      schedule: null,
      otherFees: [],
      discounts: [],
      preparationStartDateTime: null,
      sendTracking: true,
      sendDelivered: true,
    });
    expect(order).not.toHaveProperty('deliveryCode');
    expect(order).not.toHaveProperty('status');
  });

  it('TAKEOUT orders carry takeout, not delivery; SCHEDULED orders carry schedule; D26 fields', async () => {
    const me = await createMerchant(t.app, 'Açougue Retirada');
    const p = await createProduct(t.app, me.merchantId, { price: 20, unit: 'UN' });
    const customerId = crypto.randomUUID();
    const body = {
      type: 'TAKEOUT',
      items: [{ productId: p.id, quantity: 2 }],
      schedule: { scheduledDateTimeStart: '2026-03-03T10:00:00Z', scheduledDateTimeEnd: '2026-03-03T10:30:00Z' },
      customer: {
        id: customerId,
        name: 'Ana',
        phone: { number: '+55 11 98888-7777' },
        documentNumber: '123.456.789-00',
      },
      otherFees: [{ name: 'Serviço', type: 'SERVICE_FEE', price: { value: 1.99, currency: 'BRL' } }],
      discounts: [{ amount: 5, target: 'CART', sponsorshipValues: [{ name: 'MERCHANT', amount: 5 }] }],
      payments: { methods: [{ value: 36.99, type: 'PENDING', method: 'DEBIT', brand: 'ELO' }] },
      extraInfo: 'Sem gordura',
      virtualBrand: 'Boi na Brasa',
    };
    const first = await createOrder(t.app, me.merchantId, body);
    const second = await createOrder(t.app, me.merchantId, body);
    const order = (await pos(me).get(`/v1/orders/${second.id}`)).json();
    expect(order).not.toHaveProperty('delivery');
    expect(order.takeout).toEqual({ mode: 'DEFAULT', takeoutDateTime: '2026-03-03T10:30:00.000Z' });
    expect(order.orderTiming).toBe('SCHEDULED');
    expect(order.schedule).toEqual({
      scheduledDateTimeStart: '2026-03-03T10:00:00.000Z',
      scheduledDateTimeEnd: '2026-03-03T10:30:00.000Z',
    });
    expect(order.otherFees).toEqual([
      { name: 'Serviço', type: 'SERVICE_FEE', receivedBy: 'MARKETPLACE', price: { value: 1.99, currency: 'BRL' } },
    ]);
    expect(order.total.orderAmount.value).toBe(36.99);
    expect(order.payments).toEqual({
      prepaid: 0,
      pending: 36.99,
      methods: [{ value: 36.99, currency: 'BRL', type: 'PENDING', method: 'DEBIT', brand: 'ELO' }],
    });
    expect(order.customer).toEqual({
      id: customerId,
      name: 'Ana',
      phone: { number: '+55 11 98888-7777', extension: null },
      documentNumber: '123.456.789-00',
      ordersCountOnMerchant: 1,
    });
    expect(first.customer).toMatchObject({ ordersCountOnMerchant: 0 });
    expect(order.extraInfo).toBe('Sem gordura');
    expect(order.virtualBrand).toBe('Boi na Brasa');
  });

  it('refuses bad input with a 400 naming the field, and writes nothing', async () => {
    const me = await createMerchant(t.app, 'Açougue Erros');
    const kg = await createProduct(t.app, me.merchantId, { price: 50, unit: 'KG' });
    const un = await createProduct(t.app, me.merchantId, { price: 5, unit: 'UN' });
    const off = await createProduct(t.app, me.merchantId, { price: 5, unit: 'UN', status: 'UNAVAILABLE' });
    const post = (body: unknown) => operator('POST', `/merchants/${me.merchantId}/orders`, body);
    const cases: Array<[unknown, string]> = [
      [
        { type: 'DELIVERY', items: [{ productId: crypto.randomUUID(), quantity: 1 }] },
        'items[0].productId is not a product of this merchant',
      ],
      [
        { type: 'DELIVERY', items: [{ pdvId: 'NOPE', quantity: 1 }] },
        'items[0].pdvId is not a product of this merchant',
      ],
      [{ type: 'DELIVERY', items: [{ quantity: 1 }] }, 'items[0].productId or items[0].pdvId is required'],
      [{ type: 'DELIVERY', items: [{ productId: kg.id, quantity: 0 }] }, 'items[0].quantity must be greater than 0'],
      [{ type: 'DELIVERY', items: [{ productId: kg.id, quantity: -1 }] }, 'items[0].quantity must be greater than 0'],
      [
        {
          type: 'DELIVERY',
          items: [
            { productId: kg.id, quantity: 0.5 },
            { productId: un.id, quantity: 1.5 },
          ],
        },
        'items[1].quantity must be a whole number for a UN product',
      ],
      [{ type: 'DELIVERY', items: [{ productId: off.id, quantity: 1 }] }, 'items[0] names an UNAVAILABLE product'],
      [{ type: 'DELIVERY', items: [] }, 'items must NOT have fewer than 1 items'],
      [{ type: 'PICKUP', items: [{ productId: un.id, quantity: 1 }] }, 'type must be one of DELIVERY, TAKEOUT'],
      [
        {
          type: 'DELIVERY',
          items: [{ productId: un.id, quantity: 1 }],
          customer: { name: 'A', email: 'not-an-email' },
        },
        'customer.email must be an email address',
      ],
      [{ type: 'DELIVERY', items: [{ productId: un.id, quantity: 1 }], customer: {} }, 'customer.name is required'],
      [
        {
          type: 'DELIVERY',
          items: [{ productId: un.id, quantity: 1 }],
          delivery: {
            deliveryAddress: { street: 'R', number: '1', district: 'D', city: 'C', state: 'SP', postalCode: 'x' },
          },
        },
        'delivery.deliveryAddress.postalCode must match pattern "^[0-9]{5}-?[0-9]{3}$"',
      ],
      [
        { type: 'TAKEOUT', items: [{ productId: un.id, quantity: 1 }], delivery: {} },
        'delivery applies to DELIVERY orders only',
      ],
      [
        {
          type: 'DELIVERY',
          items: [{ productId: un.id, quantity: 1 }],
          payments: { methods: [{ value: 1, type: 'PREPAID', method: 'PIX' }] },
        },
        'payments.methods must add up to the order amount (12.90)',
      ],
      [
        {
          type: 'TAKEOUT',
          items: [{ productId: un.id, quantity: 1 }],
          payments: { methods: [{ value: 5, type: 'PENDING', method: 'CASH', brand: 'VISA' }] },
        },
        'payments.methods[0].brand applies only to card and voucher methods',
      ],
      [
        {
          type: 'TAKEOUT',
          items: [{ productId: un.id, quantity: 1 }],
          payments: { methods: [{ value: 5, type: 'PENDING', method: 'CASH', changeFor: 2 }] },
        },
        'payments.methods[0].changeFor must be at least payments.methods[0].value',
      ],
      [
        { type: 'TAKEOUT', items: [{ productId: un.id, quantity: 1 }], discounts: [{ amount: 6, target: 'CART' }] },
        'discounts exceed the value of the order',
      ],
    ];
    for (const [body, title] of cases) expectError(await post(body), 400, title);
    const list = await operator('GET', `/merchants/${me.merchantId}/orders`);
    expect(list.json()).toEqual([]);

    await operator('POST', '/merchants', {}); // no-op guard against accidental state
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { status: 'UNAVAILABLE' },
    });
    expect(patch.statusCode).toBe(200);
    expectError(
      await post({ type: 'DELIVERY', items: [{ productId: un.id, quantity: 1 }] }),
      400,
      'Merchant is UNAVAILABLE and does not receive orders',
    );
    expectError(
      await post({ type: 'DELIVERY', items: [{ productId: un.id, quantity: 1 }] }),
      400,
      'Merchant is UNAVAILABLE and does not receive orders',
    );
    expectError(
      await operator('POST', `/merchants/${crypto.randomUUID()}/orders`, {
        type: 'DELIVERY',
        items: [{ productId: un.id, quantity: 1 }],
      }),
      404,
      'Merchant not found',
    );
  });

  it('GET answers 404 for unknown and foreign orders, 400 naming orderId for a non-uuid', async () => {
    const me = await createMerchant(t.app, 'Açougue A');
    const other = await createMerchant(t.app, 'Açougue B');
    const foreign = await createSimpleOrder(t.app, other.merchantId);
    expectError(await pos(me).get(`/v1/orders/${foreign.id}`), 404, 'Order not found');
    expectError(await pos(me).get(`/v1/orders/${crypto.randomUUID()}`), 404, 'Order not found');
    const bad = await pos(me).get('/v1/orders/not-a-uuid');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().title).toMatch(/^orderId /);
  });
});
