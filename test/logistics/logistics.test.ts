import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { createSimpleOrder } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { createLogisticsApp, deliveryUpdate, expectError, type LogisticsApp, sign, signedCall } from './support.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
const heard: RecordedEvent[] = [];

// One shop with an app linked to it, and a second shop the same app also serves.
let shop: MerchantCredentials;
let otherShop: MerchantCredentials;
let partner: LogisticsApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
  // Stands in for the webhook fan-out: every recorded event reaches the listeners in its tx.
  t.services.eventListeners.push(async (_tx, event) => {
    heard.push(event);
  });
  shop = await createMerchant(t.app, 'Açougue Logística');
  otherShop = await createMerchant(t.app, 'Casa de Carnes Vizinha');
  partner = await createLogisticsApp(t.app, [shop.merchantId, otherShop.merchantId]);
});
afterAll(() => t.close());

const tick = () => clock.advance(1000);

async function newOrder(merchant = shop, type = 'DELIVERY') {
  tick();
  return createSimpleOrder(t.app, merchant.merchantId, type);
}

function send(body: unknown, options: { merchantId?: string; headers?: Record<string, string | undefined> } = {}) {
  tick();
  const raw = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return signedCall(t.app, partner, options.merchantId ?? shop.merchantId, 'deliveryUpdate', raw, options.headers);
}

function update(order: { id: string; displayId?: unknown }, type: string, extra: Record<string, unknown> = {}) {
  return deliveryUpdate(order, { id: shop.merchantId, name: 'Açougue Logística' }, { type }, extra);
}

async function operatorView(orderId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${orderId}`, headers: adminHeaders });
  expect(res.statusCode).toBe(200);
  return res.json() as {
    status: string;
    lastEvent: string;
    events: Array<{ eventType: string }>;
    logisticsUpdates: Array<Record<string, unknown>>;
  };
}

async function posOrder(me: MerchantCredentials, orderId: string) {
  const res = await t.app.inject({ method: 'GET', url: `/v1/orders/${orderId}`, headers: bearer(me.token) });
  expect(res.statusCode).toBe(200);
  return res.json() as { lastEvent: string; delivery?: { deliveryDateTime?: string } };
}

async function polledTypes(me: MerchantCredentials, orderId: string): Promise<string[]> {
  const res = await t.app.inject({ method: 'GET', url: '/v1/events:polling', headers: bearer(me.token) });
  if (res.statusCode === 204) return [];
  expect(res.statusCode).toBe(200);
  return (res.json() as Array<{ orderId: string; eventType: string }>)
    .filter((e) => e.orderId === orderId)
    .map((e) => e.eventType);
}

const heardFor = (orderId: string) => heard.filter((e) => e.orderId === orderId).map((e) => e.eventType);

describe('X-App-* headers (spec 5.2)', () => {
  const body = () => JSON.stringify(deliveryUpdate({ id: newId() }, { id: shop.merchantId }, { type: 'PENDING' }));

  it.each([
    ['x-app-id', undefined, 'X-App-Id is required'],
    ['x-app-id', '', 'X-App-Id is required'],
    ['x-app-id', 'not-a-uuid', 'X-App-Id must be a uuid v4'],
    // A version 1 uuid is a uuid, but not the v4 the spec asks for.
    ['x-app-id', 'c232ab00-9414-11ec-b3c8-9f6bdeced846', 'X-App-Id must be a uuid v4'],
    ['x-app-merchantid', undefined, 'X-App-MerchantId is required'],
    ['x-app-merchantid', 'x'.repeat(35), 'X-App-MerchantId must be 36 to 100 characters'],
    ['x-app-merchantid', 'x'.repeat(101), 'X-App-MerchantId must be 36 to 100 characters'],
    ['x-app-signature', undefined, 'X-App-Signature is required'],
    ['x-app-signature', 'a'.repeat(63), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'a'.repeat(65), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'A'.repeat(64), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'g'.repeat(64), 'X-App-Signature must be 64 lowercase hex characters'],
  ])('%s = %j → 400 %s', async (name, value, title) => {
    const res = await send(body(), { headers: { [name]: value } });
    expectError(expect, res, 400, title);
  });

  it('checks the headers in the order of 5.2: X-App-Id, then X-App-MerchantId, then X-App-Signature', async () => {
    const all = { 'x-app-id': 'nope', 'x-app-merchantid': 'short', 'x-app-signature': 'BAD' };
    expectError(expect, await send(body(), { headers: all }), 400, 'X-App-Id must be a uuid v4');
    expectError(
      expect,
      await send(body(), { headers: { ...all, 'x-app-id': partner.appId } }),
      400,
      'X-App-MerchantId must be 36 to 100 characters',
    );
    // A malformed header is a 400 even when the app does not exist (400 checks come first).
    expectError(
      expect,
      await send(body(), { headers: { 'x-app-id': newId(), 'x-app-signature': 'BAD' } }),
      400,
      'X-App-Signature must be 64 lowercase hex characters',
    );
  });

  it('answers 401 for an unknown app, without a Bearer challenge', async () => {
    const res = await send(body(), { headers: { 'x-app-id': newId() } });
    expectError(expect, res, 401, 'X-App-Id is not a known logistics app');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('answers 401 for a merchant id the app is not linked to (well-formed or not a uuid)', async () => {
    const stranger = await createMerchant(t.app, 'Açougue Sem Parceiro');
    for (const merchantId of [stranger.merchantId, newId(), 'm'.repeat(36), 'm'.repeat(100)]) {
      expectError(
        expect,
        await send(body(), { merchantId }),
        401,
        'X-App-MerchantId is not linked to this logistics app',
      );
    }
  });

  it('answers 401 once the app is deactivated', async () => {
    const shortLived = await createLogisticsApp(t.app, [shop.merchantId]);
    const order = await newOrder();
    const raw = JSON.stringify(update(order, 'PENDING'));
    expect((await signedCall(t.app, shortLived, shop.merchantId, 'deliveryUpdate', raw)).statusCode).toBe(204);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/logisticsApps/${shortLived.appId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    const again = JSON.stringify(update(order, 'ACCEPTED'));
    expectError(
      expect,
      await signedCall(t.app, shortLived, shop.merchantId, 'deliveryUpdate', again),
      401,
      'Logistics app is inactive',
    );
    expectError(
      expect,
      await signedCall(
        t.app,
        shortLived,
        shop.merchantId,
        'confirmationCode',
        JSON.stringify({ orderId: order.id, deliveryCode: order.deliveryCode }),
      ),
      401,
      'Logistics app is inactive',
    );
    expect((await operatorView(order.id)).logisticsUpdates.map((u) => u.eventType)).toEqual(['PENDING']);
  });

  it('answers 401 for a signature of other bytes, of another secret, or of the reformatted body', async () => {
    const order = await newOrder();
    const doc = update(order, 'DELIVERY_ONGOING');
    const raw = JSON.stringify(doc);
    const cases = [
      sign(partner.clientSecret, `${raw} `),
      sign('another-secret', raw),
      sign(partner.clientSecret, JSON.stringify(doc, null, 2)),
      'a'.repeat(64),
    ];
    for (const signature of cases) {
      expectError(
        expect,
        await send(raw, { headers: { 'x-app-signature': signature } }),
        401,
        'X-App-Signature does not match the request body',
      );
    }
    // The same document, reformatted but signed as sent, is accepted: the bytes are what count.
    const pretty = JSON.stringify(doc, null, 2);
    expect((await send(pretty)).statusCode).toBe(204);
    expect((await operatorView(order.id)).status).toBe('DISPATCHED');
  });

  it('parses the body only after the signature: malformed JSON, empty or non-UTF-8 bodies are 400 once signed', async () => {
    expectError(expect, await send('{"deliveryId": '), 400, 'Body is not valid JSON');
    expectError(expect, await send(''), 400, 'Body is empty: send a JSON document');
    expectError(expect, await send(Buffer.from([0x7b, 0xff, 0x7d])), 400, 'Body is not valid UTF-8');
    expectError(expect, await send('{"__proto__": {"x": 1}}'), 400, 'Body is not valid JSON');
    // Unsigned, the same malformed body is a 401: it is never parsed.
    expectError(
      expect,
      await send('{"deliveryId": ', { headers: { 'x-app-signature': 'b'.repeat(64) } }),
      401,
      'X-App-Signature does not match the request body',
    );
  });

  it('checks headers before the content type; a bearer token is no substitute', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/logistics/deliveryUpdate',
      headers: { ...bearer(shop.token), 'content-type': 'application/json' },
      payload: body(),
    });
    expectError(expect, res, 400, 'X-App-Id is required');
    const text = await send(body(), { headers: { 'content-type': 'text/plain', 'x-app-id': 'x' } });
    expectError(expect, text, 400, 'X-App-Id must be a uuid v4');
    const signedText = await send(body(), { headers: { 'content-type': 'text/plain' } });
    expectError(expect, signedText, 415, 'Unsupported content type: send application/json');
  });

  it('accepts upper-case ids in X-App-Id and X-App-MerchantId', async () => {
    const order = await newOrder();
    const res = await send(update(order, 'PENDING'), {
      headers: { 'x-app-id': partner.appId.toUpperCase(), 'x-app-merchantid': shop.merchantId.toUpperCase() },
    });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
  });
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

describe('POST /v1/logistics/confirmationCode (spec 4.15)', () => {
  const confirm = (orderId: string, deliveryCode: unknown, merchantId = shop.merchantId) => {
    tick();
    return signedCall(t.app, partner, merchantId, 'confirmationCode', JSON.stringify({ orderId, deliveryCode }));
  };

  it('echoes the order id and code when the code is right, changing nothing', async () => {
    const order = await newOrder();
    const res = await confirm(order.id, order.deliveryCode);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 200,
      body: { orderId: order.id, deliveryCode: order.deliveryCode },
    });
    const view = await operatorView(order.id);
    expect([view.status, view.events.length]).toEqual(['CREATED', 1]);
  });

  it('answers 400 Invalid code provided for a wrong code, and the order is not handed over', async () => {
    const order = await newOrder();
    const wrong = order.deliveryCode === '0000' ? '0001' : '0000';
    for (const code of [wrong, `${order.deliveryCode} `, `${order.deliveryCode}0`]) {
      expectError(expect, await confirm(order.id, code), 400, 'Invalid code provided');
    }
    expect((await operatorView(order.id)).status).toBe('CREATED');
  });

  it('checks the same code as POST /v1/orders/{id}/validateCode', async () => {
    const order = await newOrder();
    const pos = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/validateCode`,
      headers: bearer(shop.token),
      payload: { deliveryCode: order.deliveryCode },
    });
    const partnerSide = await confirm(order.id, order.deliveryCode);
    expect([partnerSide.statusCode, partnerSide.json()]).toEqual([pos.statusCode, pos.json()]);
  });

  it('answers 404 Order not found for another merchant’s order or an unknown one', async () => {
    const theirs = await newOrder(otherShop);
    expectError(expect, await confirm(theirs.id, theirs.deliveryCode), 404, 'Order not found');
    expectError(expect, await confirm(newId(), '1234'), 404, 'Order not found');
    // With the other shop's merchant id (the app serves both), it is that shop's order.
    expect((await confirm(theirs.id, theirs.deliveryCode, otherShop.merchantId)).statusCode).toBe(200);
  });

  it('validates the body', async () => {
    const order = await newOrder();
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', JSON.stringify({ orderId: order.id })),
      400,
      'deliveryCode is required',
    );
    expectError(expect, await confirm('abc', '1234'), 400, 'orderId must be a uuid');
    expectError(expect, await confirm(order.id, 1234), 400, 'deliveryCode must be string');
  });

  it('needs the same signed headers', async () => {
    const order = await newOrder();
    const raw = JSON.stringify({ orderId: order.id, deliveryCode: order.deliveryCode });
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', raw, { 'x-app-signature': undefined }),
      400,
      'X-App-Signature is required',
    );
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', raw, {
        'x-app-signature': sign('wrong', raw),
      }),
      401,
      'X-App-Signature does not match the request body',
    );
  });
});
