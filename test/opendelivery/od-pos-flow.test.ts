// A complete Open Delivery POS flow with an `opendelivery` key (D27–D29): version discovery,
// form-encoded token, onboarding, orders of each type (DELIVERY and TAKEOUT, instant and
// scheduled), every action (preparing, pickedUp and details included), customer and POS
// cancellations, polling with duplicates, acknowledgment, and webhooks on a real receiver. Every
// answer and every webhook body is validated against the Open Delivery schemas written in
// src/modules/opendelivery, with no null anywhere.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OdDeliveryConfirmationCode,
  OdEvent,
  OdEvents,
  OdMerchantApiInfo,
  OdMerchantStatus,
  OdOrder,
  OdTokenResponse,
  OdVersionOrderingApp,
} from '../../src/modules/opendelivery/index.js';
import { createOrder } from '../support/orders.js';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  ackOf,
  connectPos,
  createKey,
  createMerchantOnly,
  expectOd,
  expectOdError,
  expectSignedWebhook,
  type OdPos,
  operator,
  type PolledEvent,
  poll,
} from './od-support.js';

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,0.05,0.05' } });
  // Open Delivery: the POS answers a webhook with 204.
  receiver = await startWebhookReceiver(() => ({ status: 204 }));
});
afterAll(async () => {
  await t.services.webhooks.stop();
  await t.close();
  await receiver.close();
});

const HOUR = 3_600_000;
const later = (hours: number) => new Date(Date.now() + hours * HOUR).toISOString();

describe('an Open Delivery POS with an opendelivery key', { timeout: 120_000 }, () => {
  let pos: OdPos;
  let merchantId: string;
  const products: Record<string, string> = {};

  it('discovers the versions without a token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/versions/orderingApp' });
    expect(res.statusCode).toBe(200);
    expectOd(OdVersionOrderingApp, res.json());
    expect(res.json().order.availableEventsMethods).toEqual(['POLLING', 'WEBHOOK']);
  });

  it('gets a token (form-encoded, token_type bearer), onboards (201) and publishes a catalog', async () => {
    merchantId = await createMerchantOnly(t.app, 'Açougue Open Delivery');
    const key = await createKey(t.app, merchantId, 'opendelivery', 'pdv-od');
    const connected = await connectPos(t.app, key);
    expectOd(OdTokenResponse, connected.tokenResponse, 'token');
    pos = connected;

    const onboard = await pos.put(`/v1/merchantOnboarding?merchantId=${merchantId}`, {
      ordersWebhookURL: receiver.url,
    });
    expect(onboard.statusCode).toBe(201);
    expectOd(OdMerchantApiInfo, onboard.json(), 'onboarding');
    // D40: the answer shows the address the webhooks go to (it used to echo the base).
    expect(onboard.json()).toEqual({ ordersWebhookURL: `${receiver.url}/v1/newEvent` });

    const upload = await pos.put('/v1/merchantUpdate', {
      entityType: 'MERCHANT',
      merchantStatus: 'AVAILABLE',
      updatedObjects: [
        {
          id: 'LOJA-1',
          categories: [{ id: 'C1', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['O1', 'O2'] }],
          itemOffers: [
            { id: 'O1', itemId: 'PIC', price: { value: 89.9 }, status: 'AVAILABLE' },
            { id: 'O2', itemId: 'HAMB', price: { value: 6.5 }, status: 'AVAILABLE' },
          ],
          items: [
            { id: 'PIC', name: 'Picanha', unit: 'KG', externalCode: '1001' },
            { id: 'HAMB', name: 'Hambúrguer 180 g', unit: 'UN', externalCode: '1002' },
          ],
        },
      ],
    });
    expect(upload.statusCode, upload.body).toBe(204);
    // PROCESSING has nothing more to say: Open Delivery leaves moreInfo out rather than null.
    const processing = await pos.get(`/v1/merchantStatus?merchantId=${merchantId}`);
    expect(processing.statusCode).toBe(200);
    expectOd(OdMerchantStatus, processing.json(), 'merchantStatus');
    expect(processing.json()).not.toHaveProperty('moreInfo');
    await t.services.catalog.worker.drain();
    const done = await pos.get(`/v1/merchantStatus?merchantId=${merchantId}`);
    expectOd(OdMerchantStatus, done.json(), 'merchantStatus');
    expect(done.json()).toMatchObject({ status: 'SUCCESS', moreInfo: expect.stringContaining('Products') });
    const record = (await pos.get('/v1/merchant')).json() as {
      products: Array<{ id: string; pdv_external_id: string }>;
    };
    for (const p of record.products) products[p.pdv_external_id] = p.id;
    expect(Object.keys(products).sort()).toEqual(['HAMB', 'PIC']);
    await t.services.webhooks.start();
  });

  const orders: Record<string, string> = {};
  const deliveryCodes: Record<string, string> = {};

  it('receives orders of each type, instant and scheduled, as Open Delivery Orders', async () => {
    const place = async (name: string, body: Record<string, unknown>) => {
      const order = await createOrder(t.app, merchantId, body);
      orders[name] = order.id;
      deliveryCodes[name] = order.deliveryCode;
    };
    const picanha = { pdvId: 'PIC', quantity: 1.25 };
    await place('deliveryNow', {
      type: 'DELIVERY',
      items: [{ ...picanha, options: [{ id: 'TEMPERO-SAL-GROSSO', name: 'Sal grosso', quantity: 1, unitPrice: 0 }] }],
      customer: { name: 'Ana Souza', phone: { number: '11988887777' } },
    });
    await place('deliveryScheduled', {
      type: 'DELIVERY',
      items: [{ pdvId: 'HAMB', quantity: 4 }],
      schedule: { scheduledDateTimeStart: later(20), scheduledDateTimeEnd: later(21) },
      customer: {
        name: 'Bruno Lima',
        phone: { number: '11977776666', extension: '12' },
        documentNumber: '123.456.789-09',
      },
    });
    await place('takeoutNow', { type: 'TAKEOUT', items: [picanha] });
    await place('takeoutScheduled', {
      type: 'TAKEOUT',
      items: [{ pdvId: 'HAMB', quantity: 2 }],
      schedule: { scheduledDateTimeStart: later(2), scheduledDateTimeEnd: later(3) },
    });
    for (const name of ['customerAccepted', 'customerDenied', 'posDenied', 'posAccepted']) {
      await place(name, { type: 'DELIVERY', items: [{ pdvId: 'HAMB', quantity: 1 }] });
    }

    for (const [name, id] of Object.entries(orders)) {
      const res = await pos.get(`/v1/orders/${id}`);
      expect(res.statusCode, name).toBe(200);
      expectOd(OdOrder, res.json(), name);
    }
    const now = (await pos.get(`/v1/orders/${orders.deliveryNow}`)).json();
    expect(now).not.toHaveProperty('schedule');
    expect(now.orderTiming).toBe('INSTANT');
    expect(now.preparationStartDateTime).toBe(now.createdAt);
    expect(now.customer).not.toHaveProperty('documentNumber');
    expect(now.customer.phone).toEqual({ number: '11988887777' });
    // items[].id is the product's internal uuid, externalCode its POS code.
    expect(now.items[0]).toMatchObject({ id: products.PIC, externalCode: 'PIC', unit: 'KG', quantity: 1.25 });
    expect(now.items[0].options[0]).toMatchObject({ name: 'Sal grosso', externalCode: 'TEMPERO-SAL-GROSSO' });
    expect(now).toMatchObject({ sendTracking: true, sendDelivered: true, sendPickedUp: false });
    // The same option id every time the order is read.
    const again = (await pos.get(`/v1/orders/${orders.deliveryNow}`)).json();
    expect(again.items[0].options[0].id).toBe(now.items[0].options[0].id);

    const scheduled = (await pos.get(`/v1/orders/${orders.deliveryScheduled}`)).json();
    expect(scheduled.orderTiming).toBe('SCHEDULED');
    expect(scheduled.schedule).toEqual({
      scheduledDateTimeStart: expect.any(String),
      scheduledDateTimeEnd: expect.any(String),
    });
    expect(scheduled.customer).toMatchObject({
      documentNumber: '123.456.789-09',
      phone: { number: '11977776666', extension: '12' },
    });
    expect(scheduled.items[0]).toMatchObject({ id: products.HAMB, externalCode: 'HAMB' });

    const takeout = (await pos.get(`/v1/orders/${orders.takeoutScheduled}`)).json();
    expect(takeout).toMatchObject({ type: 'TAKEOUT', orderTiming: 'SCHEDULED', sendPickedUp: true });
    expect(takeout).not.toHaveProperty('delivery');
    expect(takeout.takeout).toMatchObject({ mode: 'DEFAULT' });
  });

  it('polls the CREATED events, each order its own eventId, and sees them again until acknowledged', async () => {
    const first = await poll(pos);
    expectOd(OdEvents, first, 'poll');
    expect(first.map((e) => e.eventType)).toEqual(Object.values(orders).map(() => 'CREATED'));
    expect(new Set(first.map((e) => e.eventId)).size).toBe(first.length);
    // Nothing acknowledged yet: the same events with the same ids (a POS de-duplicates them).
    const second = await poll(pos);
    expect(second.map((e) => e.eventId)).toEqual(first.map((e) => e.eventId));
    expect((await pos.post('/v1/events/acknowledgment', first.map(ackOf))).statusCode).toBe(202);
    expect(await poll(pos)).toEqual([]);
  });

  it('drives a delivery through every action; refusals are 422 problem+json', async () => {
    const id = orders.deliveryNow;
    const order = (await pos.get(`/v1/orders/${id}`)).json();
    const confirm = { createdAt: order.createdAt, orderExternalCode: 'PDV-1001', preparationTime: 20 };
    expect((await pos.post(`/v1/orders/${id}/confirm`, confirm)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${id}/confirm`, confirm), 422, 'Order has already same event type');
    const start = later(1);
    expect((await pos.patch(`/v1/orders/${id}/details`, { preparationStartDateTime: start })).statusCode).toBe(200);
    expect((await pos.get(`/v1/orders/${id}`)).json().preparationStartDateTime).toBe(start);
    expectOdError(
      await pos.patch(`/v1/orders/${id}/details`, { preparationStartDateTime: 'amanhã' }),
      400,
      'preparationStartDateTime must be an ISO 8601 date-time',
    );
    expect((await pos.post(`/v1/orders/${id}/preparing`)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${id}/preparing`), 422, 'Order has already same event type');
    expect((await pos.post(`/v1/orders/${id}/readyForPickup`)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${id}/pickedUp`), 422, /^Order is DELIVERY: pickedUp applies to TAKEOUT/);
    const tracking = {
      deliveryTrackingInfo: {
        vehicle: { type: ['MOTORBIKE_BAG'], licencePlate: 'ABC1D23' },
        geoLocalization: {
          latitude: -23.56,
          longitude: -46.66,
          lastAddress: { distanceToPickup: '350', distanceToDelivery: '2800.5', timestamp: new Date().toISOString() },
        },
      },
    };
    expect((await pos.post(`/v1/orders/${id}/dispatch`, tracking)).statusCode).toBe(202);
    expect((await pos.post(`/v1/orders/${id}/tracking`, tracking)).statusCode).toBe(202);
    const code = await pos.post(`/v1/orders/${id}/validateCode?deliveryCode=${deliveryCodes.deliveryNow}`, {});
    expect(code.statusCode).toBe(200);
    expectOd(OdDeliveryConfirmationCode, code.json(), 'validateCode');
    expect((await pos.post(`/v1/orders/${id}/delivered`)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${id}/delivered`), 422, 'Order has already same event type');
    expectOdError(await pos.post(`/v1/orders/${id}/requestCancellation`, cancelBody()), 422, 'Order is DELIVERED');
    const delivered = (await pos.get(`/v1/orders/${id}`)).json();
    expectOd(OdOrder, delivered, 'delivered order');
    expect(delivered).toMatchObject({ lastEvent: 'DELIVERED', delivery: { deliveryDateTime: expect.any(String) } });
    // The distances were stored as numbers, whichever way they came (D28.7).
    const view = (await operator(t.app, 'GET', `/orders/${id}`)).json();
    expect(view.tracking.map((x: { body: unknown }) => x.body)).toEqual([
      expect.objectContaining({
        deliveryTrackingInfo: expect.objectContaining({
          geoLocalization: expect.objectContaining({
            lastAddress: expect.objectContaining({ distanceToPickup: 350, distanceToDelivery: 2800.5 }),
          }),
        }),
      }),
      expect.anything(),
    ]);

    const scheduled = orders.deliveryScheduled;
    const confirmScheduled = { createdAt: order.createdAt, orderExternalCode: 'PDV-1002' };
    expect((await pos.post(`/v1/orders/${scheduled}/confirm`, confirmScheduled)).statusCode).toBe(202);
    // D44: a scheduled order is not dispatched before its slot starts; it is prepared meanwhile.
    expectOdError(
      await pos.post(`/v1/orders/${scheduled}/dispatch`, {}),
      422,
      /^Order is SCHEDULED: not dispatched before its slot starts at /,
    );
    expect((await pos.post(`/v1/orders/${scheduled}/preparing`)).statusCode).toBe(202);
  });

  it('drives takeouts to PICKED_UP; what a takeout cannot do is 422', async () => {
    const now = orders.takeoutNow;
    const createdAt = new Date().toISOString();
    expect((await pos.post(`/v1/orders/${now}/confirm`, { createdAt, orderExternalCode: 'PDV-2001' })).statusCode).toBe(
      202,
    );
    expect((await pos.post(`/v1/orders/${now}/preparing`)).statusCode).toBe(202);
    expect((await pos.post(`/v1/orders/${now}/readyForPickup`)).statusCode).toBe(202);
    expectOdError(
      await pos.post(`/v1/orders/${now}/dispatch`, {}),
      422,
      /^Order is TAKEOUT: dispatch applies to DELIVERY/,
    );
    expect((await pos.post(`/v1/orders/${now}/pickedUp`)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${now}/pickedUp`), 422, 'Order has already same event type');
    expectOdError(
      await pos.post(`/v1/orders/${now}/validateCode`, { deliveryCode: '0000' }),
      400,
      'Order is TAKEOUT: validateCode applies to DELIVERY orders only',
    );
    expect((await pos.get(`/v1/orders/${now}`)).json()).toMatchObject({ lastEvent: 'PICKED_UP' });

    const scheduled = orders.takeoutScheduled;
    expect(
      (await pos.post(`/v1/orders/${scheduled}/confirm`, { createdAt, orderExternalCode: 'PDV-2002' })).statusCode,
    ).toBe(202);
    expect((await pos.post(`/v1/orders/${scheduled}/pickedUp`)).statusCode).toBe(202);
    expectOdError(await pos.post(`/v1/orders/${scheduled}/readyForPickup`), 422, 'Order is PICKED_UP');
    expectOdError(await pos.post(`/v1/orders/${scheduled}/preparing`), 422, 'Order is PICKED_UP');
    // The platform concludes the order; nothing moves it after that.
    expect((await operator(t.app, 'POST', `/orders/${scheduled}/events`, { eventType: 'CONCLUDED' })).statusCode).toBe(
      202,
    );
    expectOdError(
      await pos.patch(`/v1/orders/${scheduled}/details`, { preparationStartDateTime: later(1) }),
      422,
      'Order is CONCLUDED',
    );
  });

  it('answers customer cancellations: accept, and deny with an Open Delivery code', async () => {
    const accepted = orders.customerAccepted;
    expect((await operator(t.app, 'POST', `/orders/${accepted}/customerCancellation`, {})).statusCode).toBe(202);
    expect((await pos.post(`/v1/orders/${accepted}/acceptCancellation`)).statusCode).toBe(204);
    expectOdError(
      await pos.post(`/v1/orders/${accepted}/acceptCancellation`),
      422,
      'No cancellation request to answer',
    );

    const denied = orders.customerDenied;
    expect((await operator(t.app, 'POST', `/orders/${denied}/customerCancellation`, {})).statusCode).toBe(202);
    const deny = { reason: 'O pedido já está pronto', code: 'DISH_ALREADY_DONE' };
    expect((await pos.post(`/v1/orders/${denied}/denyCancellation`, deny)).statusCode).toBe(204);
    expectOdError(
      await pos.post(`/v1/orders/${denied}/denyCancellation`, deny),
      422,
      'No cancellation request to answer',
    );
    expectOdError(
      await pos.post(`/v1/orders/${denied}/denyCancellation`, { reason: 'x', code: 'NOPE' }),
      400,
      /^code must be one of SYSTEMIC_ISSUES/,
    );
  });

  it('asks to cancel; a repeated request says how the first one ended (422 cancellationStatus)', async () => {
    const denied = orders.posDenied;
    expect((await pos.post(`/v1/orders/${denied}/requestCancellation`, cancelBody())).statusCode).toBe(202);
    // Still open: 422 without an outcome.
    expectOdError(
      await pos.post(`/v1/orders/${denied}/requestCancellation`, cancelBody()),
      422,
      'Order has already same event type',
    );
    expect(
      (await operator(t.app, 'POST', `/orders/${denied}/cancellationDecision`, { decision: 'deny' })).statusCode,
    ).toBe(202);
    expectOdError(
      await pos.post(`/v1/orders/${denied}/requestCancellation`, cancelBody()),
      422,
      'Order has already same event type',
      { cancellationStatus: 'CANCELLATION_REQUEST_DENIED' },
    );

    const accepted = orders.posAccepted;
    expect((await pos.post(`/v1/orders/${accepted}/requestCancellation`, cancelBody())).statusCode).toBe(202);
    expect(
      (await operator(t.app, 'POST', `/orders/${accepted}/cancellationDecision`, { decision: 'accept' })).statusCode,
    ).toBe(202);
    expectOdError(
      await pos.post(`/v1/orders/${accepted}/requestCancellation`, cancelBody()),
      422,
      'Order has already same event type',
      { cancellationStatus: 'CANCELLED' },
    );
    expectOdError(
      await pos.post(`/v1/orders/${accepted}/confirm`, { createdAt: new Date().toISOString(), orderExternalCode: 'X' }),
      422,
      'Order is CANCELLED',
    );
  });

  it('errors of every kind are application/problem+json {title, status}', async () => {
    expectOdError(await pos.get(`/v1/orders/${crypto.randomUUID()}`), 404, 'Order not found');
    expectOdError(await pos.get('/v1/orders/not-a-uuid'), 400, 'orderId must be a uuid (params)');
    expectOdError(
      await pos.post('/v1/events/acknowledgment', [
        { id: crypto.randomUUID(), orderId: orders.deliveryNow, eventType: 'CREATED' },
      ]),
      400,
      'id',
    );
    expectOdError(await pos.get(`/v1/merchantStatus?merchantId=${crypto.randomUUID()}`), 404, 'Merchant not found');
    // Before the token is read, the key is unknown: the spec's application/json (D22).
    const noToken = await t.app.inject({ method: 'GET', url: `/v1/orders/${orders.deliveryNow}` });
    expect(noToken.statusCode).toBe(401);
    expect(noToken.headers['content-type']).toMatch(/^application\/json/);
  });

  let polled: PolledEvent[] = [];

  it('polls every event once per occurrence, acknowledges them, and re-sending the batch is harmless', async () => {
    polled = await poll(pos);
    expectOd(OdEvents, polled, 'poll');
    expect(new Set(polled.map((e) => e.eventId)).size).toBe(polled.length);
    const typesOf = (orderId: string) => polled.filter((e) => e.orderId === orderId).map((e) => e.eventType);
    expect(typesOf(orders.deliveryNow)).toEqual([
      'CONFIRMED',
      'PREPARING',
      'READY_FOR_PICKUP',
      'DISPATCHED',
      'DELIVERED',
    ]);
    expect(typesOf(orders.takeoutNow)).toEqual(['CONFIRMED', 'PREPARING', 'READY_FOR_PICKUP', 'PICKED_UP']);
    expect(typesOf(orders.takeoutScheduled)).toEqual(['CONFIRMED', 'PICKED_UP', 'CONCLUDED']);
    expect(typesOf(orders.customerAccepted)).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED']);
    expect(typesOf(orders.customerDenied)).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED_DENIED']);
    expect(typesOf(orders.posDenied)).toEqual(['CANCELLATION_REQUESTED', 'CANCELLATION_REQUEST_DENIED']);
    expect(typesOf(orders.posAccepted)).toEqual(['CANCELLATION_REQUESTED', 'CANCELLED']);
    const metadataOf = (orderId: string, type: string) =>
      polled.find((e) => e.orderId === orderId && e.eventType === type)?.metadata;
    // Open Delivery's code list (D28.5): the customer's request, and a code the list lacks.
    expect(metadataOf(orders.customerDenied, 'ORDER_CANCELLATION_REQUEST')).toMatchObject({
      code: 'CONSUMER_CANCELLATION_REQUESTED',
    });
    expect(metadataOf(orders.customerDenied, 'CANCELLED_DENIED')).toEqual({
      reason: 'O pedido já está pronto',
      code: 'OTHER_CANCELLATION_REASON',
    });
    expect(metadataOf(orders.posDenied, 'CANCELLATION_REQUESTED')).toEqual({
      reason: 'Sem estoque',
      code: 'UNAVAILABLE_ITEM',
    });
    expect(metadataOf(orders.deliveryNow, 'CONFIRMED')).toEqual({ clientId: pos.keyId });

    const batches = [polled.slice(0, 10), polled.slice(10)];
    for (const batch of batches) {
      expect((await pos.post('/v1/events/acknowledgment', batch.map(ackOf))).statusCode).toBe(202);
    }
    expect(await poll(pos)).toEqual([]);
    expect((await pos.post('/v1/events/acknowledgment', polled.map(ackOf))).statusCode).toBe(202);
    expect(await poll(pos)).toEqual([]);
  });

  it('gets every event by webhook at /v1/newEvent, signed, with the eventId it polled; a denial once', async () => {
    const created = Object.keys(orders).length;
    const expected = created + polled.length;
    const received = await receiver.waitFor((r) => r.length >= expected, 20_000);
    await t.services.webhooks.drain();
    expect(received.length).toBe(expected);
    const wh = new Webhook(`whsec_${Buffer.from(pos.clientSecret, 'utf8').toString('base64')}`);
    const bodies = received.map((r) => {
      expect(r.method).toBe('POST');
      expect(r.path).toBe('/v1/newEvent');
      expectSignedWebhook(r, merchantId, pos.clientSecret);
      const body = JSON.parse(r.body);
      expect(wh.verify(r.body, r.headers as Record<string, string>)).toEqual(body);
      expectOd(OdEvent, body, 'webhook');
      // One id for one occurrence: the body's eventId is the Standard Webhooks id.
      expect(body.eventId).toBe(r.headers['webhook-id']);
      return body as PolledEvent;
    });
    const webhookIds = new Set(bodies.map((b) => b.eventId));
    for (const e of polled) expect(webhookIds.has(e.eventId), `${e.eventType} of ${e.orderId}`).toBe(true);
    // D28.2: the POS's denial is one notification, CANCELLED_DENIED; no CANCELLATION_REQUEST_DENIED follows.
    expect(bodies.filter((b) => b.orderId === orders.customerDenied).map((b) => b.eventType)).toEqual([
      'CREATED',
      'ORDER_CANCELLATION_REQUEST',
      'CANCELLED_DENIED',
    ]);
    const deliveries = await t.app.inject({
      url: `/admin/v1/merchants/${merchantId}/webhookDeliveries`,
      headers: adminHeaders,
    });
    expect(deliveries.json().every((d: { profile: string }) => d.profile === 'opendelivery')).toBe(true);
  });
});

function cancelBody() {
  return { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' };
}
