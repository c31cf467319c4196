// POST /v1/logistics/deliveryUpdate (spec 4.14, 3.1, D7): what each event does to the orders it names.
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { deliveryUpdate, expectError, type LogisticsApp, logisticsSuite } from '../support/logistics.js';
import { adminHeaders, bearer, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const suite = logisticsSuite();
const { clock, newOrder, send, update, operatorView, posOrder, polledTypes, heardFor } = suite;
let t: TestApp;
let shop: MerchantCredentials;
let otherShop: MerchantCredentials;
let partner: LogisticsApp;
beforeAll(() => {
  ({ t, shop, otherShop, partner } = suite.world);
});

describe('POST /v1/logistics/deliveryUpdate (spec 4.14)', () => {
  it('DELIVERY_ONGOING dispatches the order: GET order, polling, webhook fan-out and the operator view', async () => {
    const order = await newOrder();
    const res = await send(update(order, 'DELIVERY_ONGOING', { externalTrackingURL: 'https://track.example/1' }));
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });

    expect((await posOrder(shop, order.id)).lastEvent).toBe('DISPATCHED');
    expect(await polledTypes(shop, order.id)).toEqual(['CREATED', 'DISPATCHED']);
    expect(heardFor(order.id)).toEqual(['CREATED', 'DISPATCHED']);
    const view = await operatorView(order.id);
    expect(view.status).toBe('DISPATCHED');
    expect(view.events.map((e) => e.eventType)).toEqual(['CREATED', 'DISPATCHED']);
    expect(view.logisticsUpdates).toEqual([
      expect.objectContaining({
        appId: partner.appId,
        eventType: 'DELIVERY_ONGOING',
        combined: false,
        statusBefore: 'CREATED',
        statusAfter: 'DISPATCHED',
        raisedEvent: 'DISPATCHED',
        note: null,
        body: expect.objectContaining({ orderId: order.id, externalTrackingURL: 'https://track.example/1' }),
      }),
    ]);
  });

  it('DELIVERY_FINISHED delivers the order from any non-final status and sets deliveryDateTime', async () => {
    const order = await newOrder();
    const confirm = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(shop.token),
      payload: { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'PDV-9' },
    });
    expect(confirm.statusCode).toBe(202);
    expect((await send(update(order, 'DELIVERY_FINISHED'))).statusCode).toBe(204);
    const seen = await posOrder(shop, order.id);
    expect(seen.lastEvent).toBe('DELIVERED');
    expect(seen.delivery?.deliveryDateTime).toBe(clock.now().toISOString());
    expect(await polledTypes(shop, order.id)).toEqual(['CREATED', 'CONFIRMED', 'DELIVERED']);
    expect(heardFor(order.id)).toEqual(['CREATED', 'CONFIRMED', 'DELIVERED']);
    expect((await operatorView(order.id)).status).toBe('DELIVERED');
  });

  it('records other event types for tracking without changing the order', async () => {
    const order = await newOrder();
    for (const type of ['PENDING', 'ACCEPTED', 'PICKUP_ONGOING', 'ARRIVED_AT_MERCHANT', 'REJECTED']) {
      const extra = type === 'REJECTED' ? { event: { type, message: 'x', datetime: '2026-03-02T15:00:00Z' } } : {};
      expect((await send(update(order, type, extra))).statusCode).toBe(204);
    }
    const view = await operatorView(order.id);
    expect(view.status).toBe('CREATED');
    expect(view.events.map((e) => e.eventType)).toEqual(['CREATED']);
    expect(view.logisticsUpdates.map((u) => [u.eventType, u.statusAfter, u.raisedEvent])).toEqual([
      ['PENDING', 'CREATED', null],
      ['ACCEPTED', 'CREATED', null],
      ['PICKUP_ONGOING', 'CREATED', null],
      ['ARRIVED_AT_MERCHANT', 'CREATED', null],
      ['REJECTED', 'CREATED', null],
    ]);
    expect(await polledTypes(shop, order.id)).toEqual(['CREATED']);
  });

  it('does not raise DISPATCHED twice, move a delivered order back, or move a cancelled one', async () => {
    const order = await newOrder();
    expect((await send(update(order, 'DELIVERY_ONGOING', { eta: { deliveryEtaInMinutes: 20 } }))).statusCode).toBe(204);
    expect((await send(update(order, 'DELIVERY_ONGOING', { eta: { deliveryEtaInMinutes: 10 } }))).statusCode).toBe(204);
    expect((await send(update(order, 'DELIVERY_FINISHED'))).statusCode).toBe(204);
    expect((await send(update(order, 'DELIVERY_ONGOING', { deliveryId: newId() }))).statusCode).toBe(204);
    const view = await operatorView(order.id);
    expect(view.status).toBe('DELIVERED');
    expect(view.events.map((e) => e.eventType)).toEqual(['CREATED', 'DISPATCHED', 'DELIVERED']);
    expect(view.logisticsUpdates.map((u) => [u.statusBefore, u.statusAfter, u.raisedEvent, u.note])).toEqual([
      ['CREATED', 'DISPATCHED', 'DISPATCHED', null],
      ['DISPATCHED', 'DISPATCHED', null, 'Order is already DISPATCHED'],
      ['DISPATCHED', 'DELIVERED', 'DELIVERED', null],
      ['DELIVERED', 'DELIVERED', null, 'Order is DELIVERED'],
    ]);

    const cancelled = await newOrder();
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${cancelled.id}/events`,
      headers: adminHeaders,
      payload: { eventType: 'CANCELLED' },
    });
    expect(cancel.statusCode).toBe(202);
    expect((await send(update(cancelled, 'DELIVERY_FINISHED'))).statusCode).toBe(204);
    const after = await operatorView(cancelled.id);
    expect(after.status).toBe('CANCELLED');
    expect(after.logisticsUpdates.map((u) => [u.statusAfter, u.raisedEvent, u.note])).toEqual([
      ['CANCELLED', null, 'Order is CANCELLED'],
    ]);
    expect(heardFor(cancelled.id)).toEqual(['CREATED', 'CANCELLED']);
  });

  it('applies combinedOrdersIds to every listed order of the same merchant', async () => {
    const [first, second, third] = [await newOrder(), await newOrder(), await newOrder()];
    const body = update(first, 'DELIVERY_ONGOING', { combinedOrdersIds: [second.id, third.id, first.id, second.id] });
    expect((await send(body)).statusCode).toBe(204);
    for (const [order, combined] of [
      [first, false],
      [second, true],
      [third, true],
    ] as const) {
      expect((await posOrder(shop, order.id)).lastEvent).toBe('DISPATCHED');
      expect(heardFor(order.id)).toEqual(['CREATED', 'DISPATCHED']);
      const view = await operatorView(order.id);
      expect(view.logisticsUpdates.map((u) => [u.combined, u.raisedEvent])).toEqual([[combined, 'DISPATCHED']]);
    }
  });

  it('refuses combinedOrdersIds naming another merchant’s or an unknown order, changing nothing', async () => {
    const mine = await newOrder();
    const alsoMine = await newOrder();
    const theirs = await newOrder(otherShop);
    for (const [foreign, index] of [
      [theirs.id, 1],
      [newId(), 1],
    ] as const) {
      const res = await send(update(mine, 'DELIVERY_FINISHED', { combinedOrdersIds: [alsoMine.id, foreign] }));
      expectError(expect, res, 400, `combinedOrdersIds[${index}] is not an order of this merchant`);
    }
    for (const order of [mine, alsoMine]) {
      const view = await operatorView(order.id);
      expect([view.status, view.logisticsUpdates.length]).toEqual(['CREATED', 0]);
      expect(heardFor(order.id)).toEqual(['CREATED']);
    }
    expect((await operatorView(theirs.id)).status).toBe('CREATED');
  });

  it('answers 404 Order not found for another merchant’s order or an unknown one', async () => {
    const theirs = await newOrder(otherShop);
    expectError(expect, await send(update(theirs, 'DELIVERY_ONGOING')), 404, 'Order not found');
    expectError(expect, await send(update({ id: newId() }, 'DELIVERY_ONGOING')), 404, 'Order not found');
    const view = await operatorView(theirs.id);
    expect([view.status, view.logisticsUpdates.length]).toEqual(['CREATED', 0]);
  });

  it('requires merchant.id to match X-App-MerchantId', async () => {
    const theirs = await newOrder(otherShop);
    // Signed for the other shop the app serves, but the body names this shop.
    const body = deliveryUpdate(theirs, { id: shop.merchantId }, { type: 'DELIVERY_ONGOING' });
    expectError(
      expect,
      await send(body, { merchantId: otherShop.merchantId }),
      400,
      'merchant.id must match X-App-MerchantId',
    );
    expect((await operatorView(theirs.id)).status).toBe('CREATED');
  });

  it('a replayed signed request answers 204 and changes nothing', async () => {
    const order = await newOrder();
    const raw = JSON.stringify(update(order, 'DELIVERY_ONGOING'));
    expect((await send(raw)).statusCode).toBe(204);
    const replay = await send(raw);
    expect({ status: replay.statusCode, body: replay.body }).toEqual({ status: 204, body: '' });
    const view = await operatorView(order.id);
    expect(view.logisticsUpdates).toHaveLength(1);
    expect(view.events.map((e) => e.eventType)).toEqual(['CREATED', 'DISPATCHED']);
    expect(heardFor(order.id)).toEqual(['CREATED', 'DISPATCHED']);
  });

  it.each([
    [(b: Record<string, unknown>) => delete b.deliveryId, 'deliveryId is required'],
    [(b: Record<string, unknown>) => (b.deliveryId = 'abc'), 'deliveryId must be a uuid'],
    [(b: Record<string, unknown>) => delete b.orderId, 'orderId is required'],
    [(b: Record<string, unknown>) => (b.orderId = 42), 'orderId must be string'],
    [(b: Record<string, unknown>) => delete b.orderDisplayId, 'orderDisplayId is required'],
    [(b: Record<string, unknown>) => delete b.merchant, 'merchant is required'],
    [(b: Record<string, unknown>) => ((b.merchant as Record<string, unknown>).id = 'x'), 'merchant.id must be a uuid'],
    [(b: Record<string, unknown>) => delete (b.merchant as Record<string, unknown>).name, 'merchant.name is required'],
    [(b: Record<string, unknown>) => delete b.event, 'event is required'],
    [(b: Record<string, unknown>) => delete (b.event as Record<string, unknown>).type, 'event.type is required'],
    [(b: Record<string, unknown>) => delete (b.event as Record<string, unknown>).message, 'event.message is required'],
    [
      (b: Record<string, unknown>) => ((b.event as Record<string, unknown>).datetime = 'yesterday'),
      'event.datetime must be an ISO 8601 date-time',
    ],
    [(b: Record<string, unknown>) => delete b.customerName, 'customerName is required'],
    [(b: Record<string, unknown>) => (b.combinedOrdersIds = ['nope']), 'combinedOrdersIds[0] must be a uuid'],
    [
      (b: Record<string, unknown>) => (b.geoLocalization = { latitude: 91, longitude: 0 }),
      'geoLocalization.latitude must be <= 90',
    ],
    [(b: Record<string, unknown>) => (b.deliveryPerson = { id: 'courier-1' }), 'deliveryPerson.id must be a uuid'],
    [(b: Record<string, unknown>) => (b.externalTrackingURL = 'not a url'), 'externalTrackingURL must be a URL'],
    [
      (b: Record<string, unknown>) => (b.eta = { deliveryEtaInMinutes: 'soon' }),
      'eta.deliveryEtaInMinutes must be integer',
    ],
    [
      (b: Record<string, unknown>) => (b.customerName = 'Maria\u0000'),
      'customerName contains characters that cannot be stored',
    ],
  ])('validates the body: %#', async (mutate, title) => {
    const order = await newOrder();
    const body = update(order, 'DELIVERY_ONGOING');
    mutate(body);
    expectError(expect, await send(body), 400, title);
    expect((await operatorView(order.id)).logisticsUpdates).toHaveLength(0);
  });

  it('rejects a body that is not an object', async () => {
    expectError(expect, await send('[]'), 400, 'body must be object');
    expectError(expect, await send('"x"'), 400, 'body must be object');
  });
});
