// D28.2: webhooks follow the profile of the key that registered the URL last: the path
// (/v1/orderUpdate or /v1/newEvent), the body's dialect, and one notification or two for a POS
// denial (D8). The body is stored when the event happens, so a delivery keeps its dialect and
// path through retries and a later profile change; events after the change follow the new one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { OdEvent } from '../../src/modules/opendelivery/index.js';
import { createSimpleOrder } from '../support/orders.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { type ReceivedRequest, startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  connectPos,
  createKey,
  createMerchantOnly,
  expectOd,
  expectSignedWebhook,
  type OdPos,
  operator,
  poll,
  setProfile,
} from './od-support.js';

let t: TestApp;
let receiver: WebhookReceiver;
beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,0.05,0.05' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.services.webhooks.stop();
  await t.close();
  await receiver.close();
});

const received = (orderId: string) =>
  receiver.requests.map((r) => ({ request: r, body: JSON.parse(r.body) })).filter((x) => x.body.orderId === orderId);
const summary = (items: Array<{ request: ReceivedRequest; body: { eventType: string } }>) =>
  items.map((x) => `${x.request.path} ${x.body.eventType}`);

async function denyCustomerRequest(pos: OdPos, orderId: string, code: string) {
  expect((await operator(t.app, 'POST', `/orders/${orderId}/customerCancellation`, {})).statusCode).toBe(202);
  expect((await pos.post(`/v1/orders/${orderId}/denyCancellation`, { reason: 'Já saiu', code })).statusCode).toBe(204);
}

describe('webhooks follow the key that registered the URL (D28.2)', () => {
  it('cleaver: /v1/orderUpdate, type eventIds, a denial twice; opendelivery: /v1/newEvent, occurrence ids, once', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Webhooks');
    const cleaverKey = await createKey(t.app, merchantId, 'cleaver');
    const odKey = await createKey(t.app, merchantId, 'opendelivery');
    const cleaver = await connectPos(t.app, cleaverKey);
    const od = await connectPos(t.app, odKey);

    expect((await cleaver.put('/v1/merchantOnboarding', { ordersWebhookURL: receiver.url })).statusCode).toBe(200);
    const first = await createSimpleOrder(t.app, merchantId);
    await denyCustomerRequest(cleaver, first.id, 'DELIVERY_PROBLEM');
    await t.services.webhooks.drain();
    const toCleaver = received(first.id);
    expect(summary(toCleaver)).toEqual([
      '/v1/orderUpdate CREATED',
      '/v1/orderUpdate ORDER_CANCELLATION_REQUEST',
      '/v1/orderUpdate CANCELLED_DENIED',
      '/v1/orderUpdate CANCELLATION_REQUEST_DENIED',
    ]);
    for (const x of toCleaver) {
      expect(x.body.eventId).toBe(eventIdOf(x.body.eventType));
      expectSignedWebhook(x.request, merchantId, cleaverKey.clientSecret);
    }

    // The opendelivery key registers the same URL: from now on Open Delivery's path and dialect.
    expect((await od.put('/v1/merchantOnboarding', { ordersWebhookURL: receiver.url })).statusCode).toBe(201);
    const second = await createSimpleOrder(t.app, merchantId);
    await denyCustomerRequest(od, second.id, 'OUT_FOR_DELIVERY');
    await t.services.webhooks.drain();
    const toOd = received(second.id);
    expect(summary(toOd)).toEqual([
      '/v1/newEvent CREATED',
      '/v1/newEvent ORDER_CANCELLATION_REQUEST',
      '/v1/newEvent CANCELLED_DENIED',
    ]);
    const polledByOd = (await poll(od)).filter((e) => e.orderId === second.id);
    for (const x of toOd) {
      expectOd(OdEvent, x.body, 'webhook');
      expectSignedWebhook(x.request, merchantId, odKey.clientSecret);
      expect(x.body.eventId).toBe(x.request.headers['webhook-id']);
    }
    // The webhook of an occurrence carries the eventId its polled record has.
    expect(toOd.map((x) => x.body.eventId)).toEqual(polledByOd.map((e) => e.eventId));
  });

  it('a delivery keeps the dialect it was written in; events after a profile change follow the new one', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Troca de Perfil');
    const odKey = await createKey(t.app, merchantId, 'opendelivery');
    const od = await connectPos(t.app, odKey);
    expect((await od.put('/v1/merchantOnboarding', { ordersWebhookURL: receiver.url })).statusCode).toBe(201);
    // Nothing is delivered yet (the worker has not run): the CREATED delivery waits, stored.
    const order = await createSimpleOrder(t.app, merchantId);
    expect((await setProfile(t.app, merchantId, odKey.keyId, 'cleaver')).statusCode).toBe(200);
    const confirm = { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-77' };
    expect((await od.post(`/v1/orders/${order.id}/confirm`, confirm)).statusCode).toBe(202);
    await t.services.webhooks.drain();
    const got = received(order.id);
    expect(summary(got)).toEqual(['/v1/newEvent CREATED', '/v1/orderUpdate CONFIRMED']);
    expectOd(OdEvent, got[0].body, 'webhook');
    expect(got[0].body.eventId).toBe(got[0].request.headers['webhook-id']);
    expect(got[1].body.eventId).toBe(eventIdOf('CONFIRMED'));
    expect(got[1].body.metadata).toEqual({ clientId: odKey.keyId });
  });
});
