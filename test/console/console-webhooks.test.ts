// Webhook deliveries in the console: failing first, every attempt, retry (CSRF-protected), and
// the attempts in the order timeline.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import { FORM, formBody, login } from './console-session.js';

let t: TestApp;
let receiver: WebhookReceiver;

beforeEach(async () => {
  t = await createTestApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0' } });
  receiver = await startWebhookReceiver((_r, i) => (i === 0 ? { status: 200 } : { status: 503, body: 'down' }));
  await t.services.webhooks.start();
});
afterEach(async () => {
  await t.services.webhooks.stop();
  await receiver.close();
  await t.close();
});

describe('webhooks', () => {
  it('lists deliveries newest first, failed ones on a filter, with their attempts, and retries one', async () => {
    const me = await createMerchant(t.app);
    const onboard = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(me.token),
      payload: { ordersWebhookURL: receiver.url },
    });
    expect(onboard.statusCode).toBe(200);
    const order = await createSimpleOrder(t.app, me.merchantId); // CREATED → 200
    await receiver.waitFor((r) => r.length >= 1);
    await expect
      .poll(async () => (await t.services.webhooks.listMerchantDeliveries(me.merchantId, {})).items[0]?.status)
      .toBe('DELIVERED');
    const s = await login(t.app);
    await s.post(`/console/orders/${order.id}/customerCancellation`, {}); // ORDER_CANCELLATION_REQUEST → 503
    await receiver.waitFor((r) => r.length >= 2);
    await expect
      .poll(
        async () =>
          (await t.services.webhooks.listMerchantDeliveries(me.merchantId, { status: 'FAILED' })).items.length,
      )
      .toBe(1);

    const page = await s.get('/console/webhooks');
    expect(page.statusCode).toBe(200);
    const failedAt = page.body.indexOf('ORDER_CANCELLATION_REQUEST · <a');
    const deliveredAt = page.body.indexOf('CREATED · <a');
    expect(failedAt).toBeGreaterThan(0);
    expect(deliveredAt).toBeGreaterThan(failedAt);
    const failedOnly = await s.get(`/console/webhooks?merchantId=${me.merchantId}&status=FAILED`);
    expect(failedOnly.body.match(/<li class="panel delivery-card">/g)).toHaveLength(1);
    // Each status's count, linking to its filter; the current filter's count is not a link.
    expect(page.body).toContain(`<a href="/console/webhooks?status=PENDING">0 pending</a>`);
    expect(page.body).toContain(`<a href="/console/webhooks?status=DELIVERED">1 delivered</a>`);
    expect(page.body).toContain(`<a href="/console/webhooks?status=FAILED">1 failed</a>`);
    expect(failedOnly.body).toContain('<strong>1 failed</strong>');
    expect(failedOnly.body).toContain(`<a href="/console/webhooks?merchantId=${me.merchantId}">all</a>`);
    const otherMerchant = await createMerchant(t.app);
    const none = await s.get(`/console/webhooks?merchantId=${otherMerchant.merchantId}`);
    expect(none.body).toContain('0 delivered</a>');
    expect(none.body).toContain('No webhook deliveries match.');
    expect(page.body).toContain('<dd class="wrap">HTTP 503</dd>');
    expect(page.body).toContain('<code class="wrap">down</code>');

    const [failed] = (await t.services.webhooks.listMerchantDeliveries(me.merchantId, { status: 'FAILED' })).items;
    const noToken = await t.app.inject({
      method: 'POST',
      url: `/console/webhookDeliveries/${failed.id}/retry`,
      headers: { ...FORM, cookie: s.cookie },
      payload: formBody({ back: '/console/webhooks' }),
    });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('This form has expired');

    const retried = await s.post(`/console/webhookDeliveries/${failed.id}/retry`, { back: '/console/webhooks' });
    expect(retried.statusCode).toBe(303);
    expect(retried.headers.location).toBe('/console/webhooks?done=retried');
    await receiver.waitFor((r) => r.length >= 3);
    await expect
      .poll(
        async () =>
          (await t.services.webhooks.listMerchantDeliveries(me.merchantId, { status: 'FAILED' })).items[0]
            ?.attemptCount,
      )
      .toBe(2);

    const timeline = await s.get(`/console/orders/${order.id}/timeline`);
    expect(timeline.body).toContain(
      '<strong>Webhook CREATED</strong> <span class="badge badge-ok" title="DELIVERED" data-code="DELIVERED">Delivered</span>',
    );
    expect(timeline.body).toContain(
      '<strong>Webhook ORDER_CANCELLATION_REQUEST</strong> <span class="badge badge-bad" title="FAILED" data-code="FAILED">Failed</span>',
    );
    expect(timeline.body).toContain('<summary>2 attempts</summary>');

    const missing = await s.post('/console/webhookDeliveries/0190a2c4-0000-7000-8000-000000000001/retry', {});
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('There is no such webhook delivery.');
    const outside = await s.post(`/console/webhookDeliveries/${failed.id}/retry`, { back: 'https://evil.example/' });
    expect(outside.headers.location).toMatch(/^\/console\/webhooks\?merchantId=/);
  });
});
