// End to end with real orders: POS actions record events, the events service calls the webhook
// listener in the same transaction, and the worker delivers them signed and in order (D8, D10, D11).
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

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

describe('webhooks with real orders', () => {
  it('delivers every event of an order in order, the denial as two notifications, all verifiable', async () => {
    const me = await createMerchant(t.app);
    const onboard = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(me.token),
      payload: { ordersWebhookURL: receiver.url },
    });
    expect(onboard.statusCode).toBe(200);
    // the first attempt of every delivery fails once: ordering must hold through retries
    const seen = new Set<string>();
    receiver.setHandler((r) => {
      const id = String(r.headers['webhook-id']);
      if (seen.has(id)) return { status: 200 };
      seen.add(id);
      return { status: 503 };
    });
    await t.services.webhooks.start();

    const order = await createSimpleOrder(t.app, me.merchantId);
    const post = (path: string, payload?: object) =>
      t.app.inject({ method: 'POST', url: `/v1/orders/${order.id}/${path}`, headers: bearer(me.token), payload });
    expect(
      (await post('confirm', { orderExternalCode: 'PDV-1', createdAt: new Date().toISOString() })).statusCode,
    ).toBe(202);
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${order.id}/customerCancellation`,
      headers: adminHeaders,
      payload: { reason: 'Desisti' },
    });
    expect(cancel.statusCode).toBe(202);
    expect((await post('denyCancellation', { reason: 'Já saiu', code: 'DELIVERY_PROBLEM' })).statusCode).toBe(204);

    const expected = [
      'CREATED',
      'CONFIRMED',
      'ORDER_CANCELLATION_REQUEST',
      'CANCELLED_DENIED',
      'CANCELLATION_REQUEST_DENIED',
    ];
    const delivered = await receiver.waitFor(
      (r) => r.filter((x) => seen.has(String(x.headers['webhook-id']))).length >= 10,
      10_000,
    );
    const successes = delivered.filter(
      (r, i) => delivered.findIndex((y) => y.headers['webhook-id'] === r.headers['webhook-id']) !== i,
    );
    expect(successes.map((r) => JSON.parse(r.body).eventType)).toEqual(expected);
    const wh = new Webhook(`whsec_${Buffer.from(me.clientSecret, 'utf8').toString('base64')}`);
    for (const r of successes) {
      expect(wh.verify(r.body, r.headers as Record<string, string>)).toMatchObject({ orderId: order.id });
    }

    await t.services.webhooks.stop(); // lets the last results be written
    const view = await t.app.inject({ url: `/admin/v1/orders/${order.id}`, headers: adminHeaders });
    expect(view.statusCode).toBe(200);
    const deliveries = view.json().webhookDeliveries as Array<{
      eventType: string;
      status: string;
      attempts: unknown[];
    }>;
    expect(deliveries.map((d) => d.eventType)).toEqual(expected);
    expect(deliveries.map((d) => [d.status, d.attempts.length])).toEqual(expected.map(() => ['DELIVERED', 2]));
  });
});
