import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { createOrder, createProduct, createSimpleOrder, insertPosProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
const heard: RecordedEvent[] = [];

beforeAll(async () => {
  t = await createTestApp({ clock });
  // A listener as the webhooks module will register one: it sees every event, webhook-only too.
  t.services.eventListeners.push(async (_tx, event) => {
    heard.push(event);
  });
});
afterAll(() => t.close());

const tick = () => clock.advance(1000);

function pos(me: MerchantCredentials) {
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    tick();
    return t.app.inject({ method, url, headers: bearer(me.token), payload: payload as object | undefined });
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload),
    async poll(): Promise<
      Array<{ eventId: string; eventType: string; orderId: string; createdAt: string; metadata?: unknown }>
    > {
      const res = await call('GET', '/v1/events:polling');
      if (res.statusCode === 204) return [];
      expect(res.statusCode).toBe(200);
      return res.json();
    },
    /** Polls, acknowledges everything, returns the event types seen. */
    async drain(): Promise<string[]> {
      const events = await this.poll();
      if (events.length) {
        const ack = await call(
          'POST',
          '/v1/events/acknowledgment',
          events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
        );
        expect(ack.statusCode).toBe(202);
      }
      return events.map((e) => e.eventType);
    },
  };
}

const operator = (method: 'GET' | 'POST', url: string, payload?: unknown) => {
  tick();
  return t.app.inject({
    method,
    url: `/admin/v1${url}`,
    headers: adminHeaders,
    payload: payload as object | undefined,
  });
};

function expectError(res: { statusCode: number; json(): unknown }, status: number, title: string) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}

const confirmBody = { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'PDV-1' };

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

describe('flows of spec 3.1 and 6, through HTTP only', () => {
  it('create → poll → confirm → ready → dispatch → delivered', async () => {
    const me = await createMerchant(t.app, 'Açougue Fluxo');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    const polled = await api.poll();
    expect(polled).toEqual([
      {
        eventId: expect.any(String),
        eventType: 'CREATED',
        orderId: order.id,
        orderURL: `http://cleaver.test/v1/orders/${order.id}`,
        createdAt: order.createdAt,
        sourceAppId: t.config.appId,
      },
    ]);
    expect(await api.drain()).toEqual(['CREATED']);
    expect(await api.poll()).toEqual([]);

    expect((await api.post(`/v1/orders/${order.id}/confirm`, { ...confirmBody, preparationTime: 20 })).statusCode).toBe(
      202,
    );
    const confirmed = await api.poll();
    expect(confirmed).toMatchObject([{ eventType: 'CONFIRMED', metadata: { clientId: me.keyId } }]);
    expect(await api.drain()).toEqual(['CONFIRMED']);
    const afterConfirm = (await api.get(`/v1/orders/${order.id}`)).json();
    expect(afterConfirm.lastEvent).toBe('CONFIRMED');
    expect(afterConfirm.preparationStartDateTime).toEqual(expect.any(String));

    expect((await api.post(`/v1/orders/${order.id}/readyForPickup`)).statusCode).toBe(202);
    expect(
      (
        await api.post(`/v1/orders/${order.id}/dispatch`, {
          deliveryTrackingInfo: { event: { type: 'DELIVERY_ONGOING' } },
        })
      ).statusCode,
    ).toBe(202);
    expect(
      (
        await api.post(`/v1/orders/${order.id}/tracking`, {
          deliveryTrackingInfo: { geoLocalization: { latitude: -23.5, longitude: -46.6 } },
        })
      ).statusCode,
    ).toBe(202);
    expect((await api.post(`/v1/orders/${order.id}/delivered`)).statusCode).toBe(202);
    expect(await api.drain()).toEqual(['READY_FOR_PICKUP', 'DISPATCHED', 'DELIVERED']);

    const done = (await api.get(`/v1/orders/${order.id}`)).json();
    expect(done.lastEvent).toBe('DELIVERED');
    expect(done.delivery.deliveryDateTime).toEqual(expect.any(String));

    const view = (await operator('GET', `/orders/${order.id}`)).json();
    expect(view.status).toBe('DELIVERED');
    expect(view.events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'READY_FOR_PICKUP',
      'DISPATCHED',
      'DELIVERED',
    ]);
    expect(view.events[0].acknowledgments).toEqual([
      { keyId: me.keyId, acknowledged: true, acknowledgedAt: expect.any(String) },
    ]);
    expect(view.tracking).toHaveLength(2);
    expect(view.logisticsUpdates).toEqual([]);
    expect(view.webhookDeliveries).toEqual([]);
  });

  it('duplicate and out-of-order actions get the D7 titles', async () => {
    const me = await createMerchant(t.app, 'Açougue Duplo');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    expectError(
      await api.post(`/v1/orders/${order.id}/readyForPickup`),
      400,
      'Order is CREATED: readyForPickup needs CONFIRMED',
    );
    expectError(
      await api.post(`/v1/orders/${order.id}/delivered`),
      400,
      'Order is CREATED: delivered needs DISPATCHED',
    );
    expect((await api.post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expectError(
      await api.post(`/v1/orders/${order.id}/confirm`, confirmBody),
      400,
      'Order has already same event type',
    );
    expectError(await api.post(`/v1/orders/${order.id}/acceptCancellation`), 400, 'No cancellation request to answer');
    expectError(
      await api.post(`/v1/orders/${order.id}/denyCancellation`, { reason: 'x', code: 'SYSTEMIC_ISSUES' }),
      400,
      'No cancellation request to answer',
    );
    const confirmMissing = await api.post(`/v1/orders/${order.id}/confirm`, { createdAt: confirmBody.createdAt });
    expectError(confirmMissing, 400, 'orderExternalCode is required');
    const takeout = await createSimpleOrder(t.app, me.merchantId, 'TAKEOUT');
    await api.post(`/v1/orders/${takeout.id}/confirm`, confirmBody);
    expectError(
      await api.post(`/v1/orders/${takeout.id}/dispatch`),
      400,
      'Order is TAKEOUT: dispatch applies to DELIVERY orders only',
    );
  });

  it('POS cancellation: CANCELLATION_REQUESTED, repeat refused, platform accepts → CANCELLED', async () => {
    const me = await createMerchant(t.app, 'Açougue Cancela');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.drain();
    const request = {
      reason: 'Sem estoque',
      code: 'UNAVAILABLE_ITEM',
      mode: 'MANUAL',
      outOfStockItems: [crypto.randomUUID()],
    };
    expect((await api.post(`/v1/orders/${order.id}/requestCancellation`, request)).statusCode).toBe(202);
    expect(await api.poll()).toMatchObject([
      {
        eventType: 'CANCELLATION_REQUESTED',
        metadata: { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' },
      },
    ]);
    expectError(
      await api.post(`/v1/orders/${order.id}/requestCancellation`, request),
      400,
      'Order has already same event type',
    );
    expectError(
      await api.post(`/v1/orders/${order.id}/requestCancellation`, { ...request, code: 'NOT_A_CODE' }),
      400,
      expect.stringMatching(/^code must be one of SYSTEMIC_ISSUES/) as unknown as string,
    );
    // The POS cannot answer its own request.
    expectError(await api.post(`/v1/orders/${order.id}/acceptCancellation`), 400, 'No cancellation request to answer');
    expect(
      (await operator('POST', `/orders/${order.id}/cancellationDecision`, { decision: 'accept' })).statusCode,
    ).toBe(202);
    expect(await api.drain()).toEqual(['CANCELLATION_REQUESTED', 'CANCELLED']);
    expectError(await api.post(`/v1/orders/${order.id}/confirm`, confirmBody), 400, 'Order is CANCELLED');
    expectError(
      await api.post(`/v1/orders/${order.id}/tracking`, { deliveryTrackingInfo: {} }),
      400,
      'Order is CANCELLED',
    );
    expectError(
      await operator('POST', `/orders/${order.id}/cancellationDecision`, { decision: 'deny' }),
      400,
      'No cancellation request to answer',
    );
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED');
  });

  it('POS cancellation denied by the platform: CANCELLATION_REQUEST_DENIED, lifecycle continues', async () => {
    const me = await createMerchant(t.app, 'Açougue Negado');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/requestCancellation`, {
      reason: 'r',
      code: 'SYSTEMIC_ISSUES',
      mode: 'AUTO',
    });
    await operator('POST', `/orders/${order.id}/cancellationDecision`, {
      decision: 'deny',
      reason: 'Cliente já pagou',
    });
    const events = await api.poll();
    expect(events.map((e) => e.eventType)).toEqual([
      'CREATED',
      'CANCELLATION_REQUESTED',
      'CANCELLATION_REQUEST_DENIED',
    ]);
    expect(events[2].metadata).toEqual({ reason: 'Cliente já pagou', code: 'SYSTEMIC_ISSUES' });
    expect((await api.post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
  });

  it('customer cancellation accepted: ORDER_CANCELLATION_REQUEST → acceptCancellation (204) → CANCELLED', async () => {
    const me = await createMerchant(t.app, 'Açougue Cliente');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/confirm`, confirmBody);
    await api.drain();
    expect((await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Desisti' })).statusCode).toBe(
      202,
    );
    expect(await api.poll()).toMatchObject([
      { eventType: 'ORDER_CANCELLATION_REQUEST', metadata: { reason: 'Desisti' } },
    ]);
    const accept = await api.post(`/v1/orders/${order.id}/acceptCancellation`);
    expect(accept.statusCode).toBe(204);
    expect(accept.body).toBe('');
    expect(await api.drain()).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED']);
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED');
    expectError(await api.post(`/v1/orders/${order.id}/acceptCancellation`), 400, 'No cancellation request to answer');
    expectError(await operator('POST', `/orders/${order.id}/customerCancellation`, {}), 400, 'Order is CANCELLED');
  });

  it('customer cancellation denied: CANCELLED_DENIED polled, two notifications, lifecycle continues, re-open', async () => {
    const me = await createMerchant(t.app, 'Açougue Nega');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/confirm`, confirmBody);
    await api.drain();
    await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Demorou' });
    expectError(
      await operator('POST', `/orders/${order.id}/customerCancellation`, {}),
      400,
      'A customer cancellation request is already open',
    );
    const firstRequest = (await api.poll())[0];
    heard.length = 0;
    const deny = await api.post(`/v1/orders/${order.id}/denyCancellation`, {
      reason: 'Já saiu',
      code: 'DELIVERY_PROBLEM',
    });
    expect(deny.statusCode).toBe(204);
    // D8: the listeners (webhooks) hear two notifications; polling shows one.
    expect(heard.map((e) => [e.eventType, e.polled])).toEqual([
      ['CANCELLED_DENIED', true],
      ['CANCELLATION_REQUEST_DENIED', false],
    ]);
    expect(heard[1].record).toMatchObject({ eventType: 'CANCELLATION_REQUEST_DENIED', orderId: order.id });
    expect(heard[0].occurrenceId).not.toBe(heard[1].occurrenceId);
    const polled = await api.poll();
    expect(polled.map((e) => e.eventType)).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED_DENIED']);
    expect(polled[1].metadata).toEqual({ reason: 'Já saiu', code: 'DELIVERY_PROBLEM' });
    await api.drain();
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED_DENIED');

    // The customer asks again: the same event is re-opened (D1), unacknowledged again.
    await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Ainda quero cancelar' });
    const again = await api.poll();
    expect(again).toHaveLength(1);
    expect(again[0].eventId).toBe(firstRequest.eventId);
    expect(again[0].createdAt > firstRequest.createdAt).toBe(true);
    await api.post(`/v1/orders/${order.id}/denyCancellation`, { reason: 'Não', code: 'DELIVERY_PROBLEM' });
    expect(await api.drain()).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED_DENIED']);

    for (const step of ['readyForPickup', 'dispatch', 'delivered']) {
      expect((await api.post(`/v1/orders/${order.id}/${step}`)).statusCode).toBe(202);
    }
    expect(await api.drain()).toEqual(['READY_FOR_PICKUP', 'DISPATCHED', 'DELIVERED']);
    const view = (await operator('GET', `/orders/${order.id}`)).json();
    expect(view.events.filter((e: { eventType: string }) => e.eventType === 'ORDER_CANCELLATION_REQUEST')).toHaveLength(
      2,
    );
    expect(view.events.find((e: { polled: boolean }) => !e.polled).eventType).toBe('CANCELLATION_REQUEST_DENIED');
    expect((await operator('POST', `/orders/${order.id}/events`, { eventType: 'CONCLUDED' })).statusCode).toBe(202);
    expect(await api.drain()).toEqual(['CONCLUDED']);
    expectError(
      await operator('POST', `/orders/${order.id}/events`, { eventType: 'CONCLUDED' }),
      400,
      'Order is CONCLUDED',
    );
  });

  it('validateCode echoes the right code, refuses a wrong one, accepts the query parameter', async () => {
    const me = await createMerchant(t.app, 'Açougue Código');
    const api = pos(me);
    const p = await createProduct(t.app, me.merchantId, { price: 10, unit: 'UN' });
    const order = await createOrder(t.app, me.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: p.id, quantity: 1 }],
      deliveryCode: '4321',
    });
    expect(order.deliveryCode).toBe('4321');
    const ok = await api.post(`/v1/orders/${order.id}/validateCode`, { deliveryCode: '4321' });
    expect({ status: ok.statusCode, body: ok.json() }).toEqual({
      status: 200,
      body: { orderId: order.id, deliveryCode: '4321' },
    });
    expectError(
      await api.post(`/v1/orders/${order.id}/validateCode`, { deliveryCode: '1234' }),
      400,
      'Invalid code provided',
    );
    const viaQuery = await api.post(`/v1/orders/${order.id}/validateCode?deliveryCode=4321`, {});
    expect(viaQuery.statusCode).toBe(200);
  });

  it('platform events: PICKUP_AREA_ASSIGNED with metadata, CANCELLED', async () => {
    const me = await createMerchant(t.app, 'Açougue Plataforma');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId, 'TAKEOUT');
    await api.drain();
    await operator('POST', `/orders/${order.id}/events`, { eventType: 'PICKUP_AREA_ASSIGNED', pickupArea: 'Balcão 3' });
    expect(await api.poll()).toMatchObject([
      { eventType: 'PICKUP_AREA_ASSIGNED', metadata: { pickupArea: 'Balcão 3' } },
    ]);
    await operator('POST', `/orders/${order.id}/events`, { eventType: 'CANCELLED', reason: 'Loja fechada' });
    expect(await api.drain()).toEqual(['PICKUP_AREA_ASSIGNED', 'CANCELLED']);
    const list = (await operator('GET', `/merchants/${me.merchantId}/orders?status=CANCELLED`)).json();
    expect(list).toMatchObject([{ id: order.id, status: 'CANCELLED', lastEvent: 'CANCELLED' }]);
    expect((await operator('GET', `/merchants/${me.merchantId}/orders?status=CREATED`)).json()).toEqual([]);
  });
});
