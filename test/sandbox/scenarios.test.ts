// Sandbox scenarios (src/modules/sandbox) through the POS route and the operator route, on a real
// database: each scenario raises exactly the events it promises, the POS polls them, and the
// order looks as the scenario says (timing, payment, quantities, status, metadata).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { promisedEvents, SANDBOX_LOGISTICS_APP_NAME, SCENARIOS } from '../../src/modules/sandbox/index.js';
import { createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

interface Played {
  scenario: string;
  merchantId: string;
  orders: Array<{
    id: string;
    displayId: string;
    type: string;
    orderTiming: string;
    status: string;
    lastEvent: string;
    created: boolean;
    orderAmount: number;
    deliveryCode: string;
  }>;
  events: Array<{ orderId: string; eventType: string; createdAt: string; polled: boolean }>;
}

let t: TestApp;
let merchant: MerchantCredentials;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_WRITE: '10000', CLEAVER_RATE_LIMIT_READ: '10000' } });
  merchant = await createMerchant(t.app, 'Açougue Cenários');
  await createProduct(t.app, merchant.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  await createProduct(t.app, merchant.merchantId, { name: 'Fraldinha', price: 54.9, unit: 'KG' });
  await createProduct(t.app, merchant.merchantId, { name: 'Hambúrguer 180 g', price: 9.5, unit: 'UN' });
});
afterAll(() => t.close());

async function play(scenario: string, options?: Record<string, unknown>, token = merchant.token) {
  return t.app.inject({
    method: 'POST',
    url: '/v1/sandbox/scenarios',
    headers: bearer(token),
    payload: { scenario, ...(options ? { options } : {}) },
  });
}

async function played(scenario: string, options?: Record<string, unknown>): Promise<Played> {
  const res = await play(scenario, options);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function posOrder(orderId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: bearer(merchant.token) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

async function polled(orderId: string): Promise<Array<{ eventType: string; metadata?: Record<string, unknown> }>> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/events:polling', headers: bearer(merchant.token) });
  expect([200, 204]).toContain(res.statusCode);
  return res.statusCode === 204 ? [] : res.json().filter((e: { orderId: string }) => e.orderId === orderId);
}

describe('every scenario raises the events it promises', () => {
  it.each(SCENARIOS.map((s) => [s.name]))('%s', async (name) => {
    const result = await played(name);
    expect(result.scenario).toBe(name);
    expect(result.merchantId).toBe(merchant.merchantId);
    expect(result.orders).toHaveLength(1);
    const [order] = result.orders;
    expect(order.created).toBe(true);
    expect(result.events.map((e) => e.eventType)).toEqual(promisedEvents(SCENARIOS.find((s) => s.name === name)!));
    expect(result.events.every((e) => e.orderId === order.id && e.polled)).toBe(true);
    // The POS polls each of them (the last occurrence of every type is pending, D1).
    const pending = (await polled(order.id)).map((e) => e.eventType);
    expect(new Set(pending)).toEqual(new Set(result.events.map((e) => e.eventType)));
    // The answer agrees with the order the POS reads.
    const view = await posOrder(order.id);
    expect(view).toMatchObject({
      id: order.id,
      displayId: order.displayId,
      type: order.type,
      lastEvent: order.lastEvent,
    });
    expect(view.total.orderAmount.value).toBe(order.orderAmount);
  });
});

describe('what each order looks like', () => {
  it('delivery-instant / delivery-scheduled: orderTiming and the schedule window', async () => {
    const instant = (await played('delivery-instant')).orders[0];
    expect(instant).toMatchObject({ type: 'DELIVERY', orderTiming: 'INSTANT', status: 'CREATED' });
    expect((await posOrder(instant.id)).schedule).toBeNull();
    const scheduled = (await played('delivery-scheduled')).orders[0];
    expect(scheduled).toMatchObject({ type: 'DELIVERY', orderTiming: 'SCHEDULED' });
    const view = await posOrder(scheduled.id);
    const start = Date.parse(view.schedule.scheduledDateTimeStart);
    expect(start).toBeGreaterThan(Date.now());
    expect(Date.parse(view.schedule.scheduledDateTimeEnd) - start).toBe(30 * 60_000);
    expect(view.delivery.estimatedDeliveryDateTime).toBe(view.schedule.scheduledDateTimeEnd);
  });

  it('takeout: a TAKEOUT order without delivery fee; pickup-area-assigned names the area', async () => {
    const takeout = (await played('takeout')).orders[0];
    expect(takeout.type).toBe('TAKEOUT');
    const view = await posOrder(takeout.id);
    expect(view.takeout.mode).toBe('DEFAULT');
    expect(view.otherFees).toEqual([]);
    const area = (await played('pickup-area-assigned')).orders[0];
    expect((await posOrder(area.id)).takeout.mode).toBe('PICKUP_AREA');
    const events = await polled(area.id);
    expect(events.find((e) => e.eventType === 'PICKUP_AREA_ASSIGNED')?.metadata).toEqual({ pickupArea: 'Balcão 2' });
  });

  it('christmas-encomenda: a SCHEDULED TAKEOUT three days ahead, in a slot, with its preparation start (D44)', async () => {
    const order = (await played('christmas-encomenda')).orders[0];
    expect(order).toMatchObject({ type: 'TAKEOUT', orderTiming: 'SCHEDULED' });
    const view = await posOrder(order.id);
    const start = Date.parse(view.schedule.scheduledDateTimeStart);
    expect(start - Date.now()).toBeGreaterThan(2 * 86_400_000);
    expect(Date.parse(view.preparationStartDateTime)).toBeLessThanOrEqual(start);
  });

  it('cash-with-change: PENDING cash for the whole amount, change for more', async () => {
    const order = (await played('cash-with-change')).orders[0];
    const { payments, total } = await posOrder(order.id);
    expect(payments.pending).toBe(total.orderAmount.value);
    expect(payments.prepaid).toBe(0);
    expect(payments.methods).toHaveLength(1);
    expect(payments.methods[0]).toMatchObject({ type: 'PENDING', method: 'CASH', value: total.orderAmount.value });
    expect(payments.methods[0].changeFor).toBeGreaterThan(total.orderAmount.value);
    expect(payments.methods[0].changeFor % 50).toBe(0);
  });

  it('kg-items: KG products only, in fractional quantities', async () => {
    const order = (await played('kg-items')).orders[0];
    const { items } = await posOrder(order.id);
    expect(items.map((i: { unit: string }) => i.unit)).toEqual(['KG', 'KG']);
    expect(items.map((i: { quantity: number }) => i.quantity)).toEqual([1.25, 0.5]);
    // Line totals rounded half up to the centavo (D9), whichever KG product the catalog lists first.
    const expected: Record<string, number> = {
      'Picanha@1.25': 112.38, // 112.375
      'Picanha@0.5': 44.95,
      'Fraldinha@1.25': 68.63, // 68.625
      'Fraldinha@0.5': 27.45,
    };
    for (const item of items as Array<{ name: string; quantity: number; totalPrice: { value: number } }>) {
      expect(item.totalPrice.value).toBe(expected[`${item.name}@${item.quantity}`]);
    }
  });

  it('customer-cancellation and late-customer-cancellation: an open request the POS answers', async () => {
    const early = (await played('customer-cancellation')).orders[0];
    expect(early.status).toBe('CREATED');
    expect(early.lastEvent).toBe('ORDER_CANCELLATION_REQUEST');
    const late = (await played('late-customer-cancellation')).orders[0];
    expect(late.status).toBe('DISPATCHED');
    // The request is real: the POS can deny it with the spec's call.
    const deny = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${late.id}/denyCancellation`,
      headers: bearer(merchant.token),
      payload: { reason: 'O pedido já saiu para entrega', code: 'DELIVERY_PROBLEM' },
    });
    expect(deny.statusCode).toBe(204);
  });

  it('logistics-delivery: two signed updates of the sandbox logistics partner, recorded on the order', async () => {
    const order = (await played('logistics-delivery')).orders[0];
    expect(order.status).toBe('DELIVERED');
    const res = await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders });
    const detail = res.json();
    expect(
      detail.logisticsUpdates.map((u: { eventType: string; raisedEvent: string }) => [u.eventType, u.raisedEvent]),
    ).toEqual([
      ['DELIVERY_ONGOING', 'DISPATCHED'],
      ['DELIVERY_FINISHED', 'DELIVERED'],
    ]);
    expect(new Set(detail.logisticsUpdates.map((u: { deliveryId: string }) => u.deliveryId)).size).toBe(1);
    // One sandbox partner per merchant, reused by every play.
    const apps = (await t.services.logisticsApps.listApps()).filter((a) => a.name === SANDBOX_LOGISTICS_APP_NAME);
    expect(apps.map((a) => a.merchant_ids)).toEqual([[merchant.merchantId]]);
  });

  it('concluded and platform-cancellation: final statuses, CANCELLED with its reason and code', async () => {
    expect((await played('concluded')).orders[0].status).toBe('CONCLUDED');
    const cancelled = (await played('platform-cancellation')).orders[0];
    expect(cancelled.status).toBe('CANCELLED');
    const events = await polled(cancelled.id);
    expect(events.find((e) => e.eventType === 'CANCELLED')?.metadata).toEqual({
      reason: 'Pagamento recusado pela operadora do cartão',
      code: 'SYSTEMIC_ISSUES',
    });
  });
});

describe('options.orderId: the steps on an order the POS already has', () => {
  it('raises only the scenario’s own events on that order', async () => {
    const order = (await played('delivery-instant')).orders[0];
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(merchant.token),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-77' },
    });
    expect(confirm.statusCode).toBe(202);
    const late = await played('late-customer-cancellation', { orderId: order.id });
    expect(late.orders[0]).toMatchObject({ id: order.id, created: false, status: 'CONFIRMED' });
    expect(late.events.map((e) => e.eventType)).toEqual(['ORDER_CANCELLATION_REQUEST']);
    const concluded = await played('concluded', { orderId: order.id });
    expect(concluded.events.map((e) => e.eventType)).toEqual(['CONCLUDED']);
    expect(concluded.orders[0].status).toBe('CONCLUDED');
  });

  it('refuses a scenario that only places orders, another merchant’s order, and a move the order cannot make', async () => {
    const order = (await played('delivery-instant')).orders[0];
    const onlyPlaces = await play('takeout', { orderId: order.id });
    expect(onlyPlaces.statusCode).toBe(400);
    expect(onlyPlaces.json()).toEqual({
      title: 'options.orderId does not apply to scenario takeout: it places a new order',
      status: 400,
    });
    const other = await createMerchant(t.app, 'Açougue Vizinho');
    const foreign = await play('customer-cancellation', { orderId: order.id }, other.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual({ title: 'Order not found', status: 404 });
    // CONCLUDED needs a confirmed order (D7); nothing is written.
    const early = await play('concluded', { orderId: order.id });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toEqual({
      title: 'Order is CREATED: conclude needs CONFIRMED or READY_FOR_PICKUP or DISPATCHED or DELIVERED',
      status: 400,
    });
    expect((await posOrder(order.id)).lastEvent).toBe('CREATED');
  });
});

describe('errors', () => {
  it('an unknown scenario is a 400 listing the names; a bad orderId a 400 naming it', async () => {
    const res = await play('nope');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title: `scenario must be one of ${SCENARIOS.map((s) => s.name).join(', ')}`,
      status: 400,
    });
    const bad = await play('customer-cancellation', { orderId: 'x' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ title: 'options.orderId must be a uuid', status: 400 });
  });

  it('a merchant without a catalog: 400 with the command that fixes it; kg-items without KG products too', async () => {
    const empty = await createMerchant(t.app, 'Açougue Vazio');
    const res = await play('delivery-instant', undefined, empty.token);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      title:
        'The merchant has no AVAILABLE product to order: publish a catalog first: cleaver pos catalog push FILE ' +
        '--wait (cleaver sandbox sample-catalog prints one)',
      status: 400,
    });
    await createProduct(t.app, empty.merchantId, { name: 'Carvão 5 kg', price: 29.9, unit: 'UN' });
    const kg = await play('kg-items', undefined, empty.token);
    expect(kg.statusCode).toBe(400);
    expect(kg.json().title).toMatch(/^Scenario kg-items needs an AVAILABLE product sold by KG/);
    expect((await play('takeout', undefined, empty.token)).statusCode).toBe(201);
  });

  it("customerDeliveryCode: the sandbox customer's code for the merchant's own order, which validateCode accepts (spec 4.11)", async () => {
    const order = (await played('delivery-instant')).orders[0] as unknown as { id: string; deliveryCode: string };
    const url = `/v1/sandbox/orders/${order.id}/customerDeliveryCode`;
    const res = await t.app.inject({ method: 'GET', url, headers: bearer(merchant.token) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ orderId: order.id, customerDeliveryCode: order.deliveryCode });
    // The order the POS reads never carries it: the customer is the only source.
    expect(JSON.stringify((await posOrder(order.id)) ?? {})).not.toContain(`"${order.deliveryCode}"`);
    const checked = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/validateCode`,
      headers: bearer(merchant.token),
      payload: { deliveryCode: res.json().customerDeliveryCode },
    });
    expect(checked.statusCode, checked.body).toBe(200);

    const other = await createMerchant(t.app, 'Açougue Vizinho');
    const foreign = await t.app.inject({ method: 'GET', url, headers: bearer(other.token) });
    expect({ status: foreign.statusCode, body: foreign.json() }).toEqual({
      status: 404,
      body: { title: 'Order not found', status: 404 },
    });
    const bad = await t.app.inject({
      method: 'GET',
      url: '/v1/sandbox/orders/PDV-1/customerDeliveryCode',
      headers: bearer(merchant.token),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ status: 400, title: expect.stringContaining('orderId') });
  });

  it('no token: 401', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/sandbox/scenarios', payload: { scenario: 'takeout' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401 });
  });
});

describe('operator route', () => {
  const url = (merchantId: string) => `/admin/v1/merchants/${merchantId}/sandbox/scenarios`;

  it('GET lists every scenario with a description and its events; POST plays on any merchant', async () => {
    const list = await t.app.inject({ method: 'GET', url: url(merchant.merchantId), headers: adminHeaders });
    expect(list.statusCode).toBe(200);
    const body = list.json() as Array<{ name: string; description: string; events: string[] }>;
    expect(body.map((s) => s.name)).toEqual(SCENARIOS.map((s) => s.name));
    expect(body.find((s) => s.name === 'logistics-delivery')).toMatchObject({
      events: ['CREATED', 'DISPATCHED', 'DELIVERED'],
      appliesToExistingOrder: true,
      existingOrderEvents: ['DISPATCHED', 'DELIVERED'],
    });
    const pos = await t.app.inject({ method: 'GET', url: '/v1/sandbox/scenarios', headers: bearer(merchant.token) });
    expect(pos.json()).toEqual(body);

    const res = await t.app.inject({
      method: 'POST',
      url: url(merchant.merchantId),
      headers: adminHeaders,
      payload: { scenario: 'customer-cancellation' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'CREATED',
      'ORDER_CANCELLATION_REQUEST',
    ]);
  });

  it('an unknown merchant: 404; a merchant token: 401', async () => {
    const missing = url('00000000-0000-4000-8000-000000000000');
    for (const method of ['GET', 'POST'] as const) {
      const res = await t.app.inject({ method, url: missing, headers: adminHeaders, payload: { scenario: 'takeout' } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ title: 'Merchant not found', status: 404 });
    }
    const res = await t.app.inject({ method: 'GET', url: url(merchant.merchantId), headers: bearer(merchant.token) });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401 });
  });

  it('the OpenAPI document lists the four operations with descriptions', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v1/sandbox/scenarios', '/admin/v1/merchants/{merchantId}/sandbox/scenarios']) {
      for (const method of ['get', 'post']) {
        expect(doc.paths[path]?.[method]?.description, `${method} ${path}`).toContain('Sandbox only');
      }
    }
  });
});

describe('production (D25)', () => {
  it('answers 404 on every scenario route and leaves them out of the OpenAPI document', async () => {
    const prod = await createTestApp({
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0b5e7a52-3c1d-4e8f-9a6b-2d4c6e8f0a1b' },
    });
    try {
      const m = await createMerchant(prod.app, 'Açougue Produção');
      await createProduct(prod.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
      const calls = [
        { method: 'GET' as const, url: '/v1/sandbox/scenarios', headers: bearer(m.token) },
        { method: 'POST' as const, url: '/v1/sandbox/scenarios', headers: bearer(m.token) },
        {
          method: 'GET' as const,
          url: '/v1/sandbox/orders/00000000-0000-4000-8000-000000000000/customerDeliveryCode',
          headers: bearer(m.token),
        },
        { method: 'GET' as const, url: `/admin/v1/merchants/${m.merchantId}/sandbox/scenarios`, headers: adminHeaders },
        {
          method: 'POST' as const,
          url: `/admin/v1/merchants/${m.merchantId}/sandbox/scenarios`,
          headers: adminHeaders,
        },
      ];
      for (const call of calls) {
        const res = await prod.app.inject({
          ...call,
          payload: call.method === 'POST' ? { scenario: 'takeout' } : undefined,
        });
        expect(res.statusCode, `${call.method} ${call.url}`).toBe(404);
        expect(res.json()).toEqual({ title: 'Route not found', status: 404 });
      }
      const doc = (await prod.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(Object.keys(doc.paths).filter((p) => p.includes('sandbox'))).toEqual([]);
      const orders = await prod.app.inject({
        method: 'GET',
        url: `/admin/v1/merchants/${m.merchantId}/orders`,
        headers: adminHeaders,
      });
      expect(orders.json()).toEqual([]);
    } finally {
      await prod.close();
    }
  });
});
