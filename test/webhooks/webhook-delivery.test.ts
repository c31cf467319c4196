// Webhook delivery (spec 6, D10): what is sent, signed how, when; the worker's wake-up; several
// workers on one queue.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createWebhooksService } from '../../src/modules/webhooks/index.js';
import { buildEvent } from '../support/event-factory.js';
import { addIntegrationKey, adminHeaders, createMerchant, createTestApp } from '../support/test-app.js';
import {
  cleanups,
  closeAfterEach,
  deliveries,
  onboard,
  record,
  setup,
  verifyStandard,
} from '../support/webhook-kit.js';
import { startWebhookReceiver } from '../support/webhook-receiver.js';

closeAfterEach();

describe('happy', () => {
  it('POSTs the exact record to {ordersWebhookURL}/v1/orderUpdate with both signatures (D10)', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    const event = buildEvent({ merchantId: merchant.merchantId, eventType: 'CANCELLATION_REQUESTED' });
    await record(t, [event]);
    expect(await webhooks.drain()).toBe(1);

    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v1/orderUpdate');
    expect(req.body).toBe(JSON.stringify(event.record));
    expect(JSON.parse(req.body)).toEqual(event.record);
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers['x-app-id']).toBe(t.config.appId);
    expect(req.headers['x-app-merchantid']).toBe(merchant.merchantId);
    expect(req.headers['webhook-id']).toBe(event.occurrenceId);
    // X-App-Signature: lowercase hex HMAC-SHA256 of the exact body bytes, key = client secret
    const expected = createHmac('sha256', Buffer.from(merchant.clientSecret, 'utf8'))
      .update(Buffer.from(req.body, 'utf8'))
      .digest('hex');
    expect(req.headers['x-app-signature']).toBe(expected);
    expect(req.headers['x-app-signature']).toMatch(/^[0-9a-f]{64}$/);
    // Standard Webhooks, checked by an outside implementation
    expect(verifyStandard(merchant.clientSecret, req.body, req.headers)).toEqual(event.record);
    expect(() => verifyStandard(`${merchant.clientSecret}x`, req.body, req.headers)).toThrow();
    expect(() => verifyStandard(merchant.clientSecret, `${req.body} `, req.headers)).toThrow();

    const [d] = await deliveries(t, merchant.merchantId);
    expect(d).toMatchObject({
      webhookId: event.occurrenceId,
      eventType: 'CANCELLATION_REQUESTED',
      orderId: event.orderId,
      status: 'DELIVERED',
      target: `${receiver.url}/v1/orderUpdate`,
      attemptCount: 1,
      nextAttemptAt: null,
      event: event.record,
    });
    expect(d.attempts).toEqual([expect.objectContaining({ attemptNo: 1, statusCode: 200, error: null })]);
  });

  it('D8: a denial sends CANCELLED_DENIED then the webhook-only CANCELLATION_REQUEST_DENIED, both verifiable', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    const orderId = newId();
    const denied = buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CANCELLED_DENIED' });
    const notice = buildEvent({
      merchantId: merchant.merchantId,
      orderId,
      eventType: 'CANCELLATION_REQUEST_DENIED',
      polled: false,
    });
    // Both recorded in the one transaction of the denial.
    await t.database.db.transaction(async (tx) => {
      await webhooks.enqueueForEvent(tx, denied);
      await webhooks.enqueueForEvent(tx, notice);
    });
    await webhooks.drain();
    expect(receiver.requests.map((r) => JSON.parse(r.body).eventType)).toEqual([
      'CANCELLED_DENIED',
      'CANCELLATION_REQUEST_DENIED',
    ]);
    for (const r of receiver.requests) {
      expect(verifyStandard(merchant.clientSecret, r.body, r.headers)).toBeTruthy();
    }
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id'])).size).toBe(2);
  });

  it('signs with another active key when the registering key was deleted, and fails clearly when none is left', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0.05');
    const second = await addIntegrationKey(t.app, merchant.merchantId);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys/${merchant.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(verifyStandard(second.clientSecret, req.body, req.headers)).toBeTruthy();
    expect(() => verifyStandard(merchant.clientSecret, req.body, req.headers)).toThrow();

    await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys/${second.keyId}`,
      headers: adminHeaders,
    });
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(1);
    const [latest] = await deliveries(t, merchant.merchantId);
    expect(latest.status).toBe('FAILED');
    expect(latest.attempts).toHaveLength(2);
    expect(latest.attempts[0].error).toMatch(/No active integration key to sign with/);
  });

  it('writes no delivery without a webhook URL, one per occurrence, and none when the event rolls back', async () => {
    const t = await createTestApp();
    cleanups.push(() => t.close());
    const bare = await createMerchant(t.app);
    await record(t, [buildEvent({ merchantId: bare.merchantId })]);
    expect(await deliveries(t, bare.merchantId)).toEqual([]);

    const receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    await onboard(t, bare, receiver.url);
    const event = buildEvent({ merchantId: bare.merchantId });
    await record(t, [event, event]);
    expect(await deliveries(t, bare.merchantId)).toHaveLength(1);

    await expect(
      t.database.db.transaction(async (tx) => {
        await t.services.webhooks.enqueueForEvent(tx, buildEvent({ merchantId: bare.merchantId }));
        throw new Error('the state change failed');
      }),
    ).rejects.toThrow('the state change failed');
    expect(await deliveries(t, bare.merchantId)).toHaveLength(1);
  });

  it('the started worker is woken by NOTIFY, with no polling', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    await webhooks.start();
    const event = buildEvent({ merchantId: merchant.merchantId });
    await record(t, [event]);
    await receiver.waitFor((r) => r.length === 1, 15_000);
    expect(receiver.requests[0].headers['webhook-id']).toBe(event.occurrenceId);
    // and the retry timer: fail twice, then succeed, without any call from the test
    receiver.setHandler((_r, i) => ({ status: i < 3 ? 503 : 200 }));
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await receiver.waitFor((r) => r.length === 4, 15_000);
  });
});
describe('service seams', () => {
  it('a second instance on the same database shares the queue (several workers)', async () => {
    const { t, receiver, merchant } = await setup();
    const second = createWebhooksService({
      db: t.database.db,
      clock: { now: () => new Date() },
      config: t.config,
      auth: t.services.auth,
    });
    cleanups.push(() => second.stop());
    await record(
      t,
      Array.from({ length: 20 }, () => buildEvent({ merchantId: merchant.merchantId })),
    );
    const [x, y] = await Promise.all([t.services.webhooks.drain(), second.drain()]);
    expect(x + y).toBe(20);
    expect(receiver.requests).toHaveLength(20);
  });
});
