// The order lifecycle through HTTP (spec 3.1, D6, D7): actions, their events, the D7 titles,
// validateCode, platform events.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { expectError } from '../support/expect-error.js';
import { confirmBody, orderSession } from '../support/order-session.js';
import { createOrder, createProduct, createSimpleOrder } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
const { pos, operator } = orderSession(() => t, clock);

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
