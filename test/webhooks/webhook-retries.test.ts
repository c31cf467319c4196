import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { buildEvent } from '../support/event-factory.js';
import { adminHeaders } from '../support/test-app.js';
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

describe('retries (D11)', () => {
  it('a receiver that fails N times then succeeds gets exactly N+1 attempts, same webhook-id', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    const N = 3;
    receiver.setHandler((_r, i) => (i < N ? { status: 500, body: 'boom' } : { status: 204 }));
    const event = buildEvent({ merchantId: merchant.merchantId });
    await record(t, [event]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(N + 1);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(new Set([event.occurrenceId]));
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('DELIVERED');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 204]);
    expect(d.attempts[0].error).toBe('HTTP 500');
    expect((d.attempts[0] as unknown as { responseSnippet: string }).responseSnippet).toBe('boom');
  });

  it('FAILED after the last attempt; kept, visible, and replayable with the same webhook-id', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0.05,0.05');
    receiver.setHandler(() => ({ status: 500, body: 'x'.repeat(5000) }));
    const event = buildEvent({ merchantId: merchant.merchantId });
    await record(t, [event]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(3);
    let [d] = await deliveries(t, merchant.merchantId, '?status=FAILED');
    expect(d).toMatchObject({ status: 'FAILED', attemptCount: 3, nextAttemptAt: null, lastError: 'HTTP 500' });
    const snippet = (d.attempts[0] as unknown as { responseSnippet: string }).responseSnippet;
    expect(snippet.length).toBe(1024);
    expect(await deliveries(t, merchant.merchantId, '?status=PENDING')).toEqual([]);

    receiver.setHandler(() => ({ status: 200 }));
    const retry = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/webhookDeliveries/${d.id}/retry`,
      headers: adminHeaders,
    });
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json()).toMatchObject({ id: d.id, status: 'PENDING', webhookId: event.occurrenceId });
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(4);
    expect(receiver.requests[3].headers['webhook-id']).toBe(event.occurrenceId);
    expect(verifyStandard(merchant.clientSecret, receiver.requests[3].body, receiver.requests[3].headers)).toBeTruthy();
    [d] = await deliveries(t, merchant.merchantId, '?status=DELIVERED');
    expect(d.attempts.map((a) => a.statusCode)).toEqual([500, 500, 500, 200]);

    // A replay that fails again goes straight back to FAILED: one attempt per replay.
    receiver.setHandler(() => ({ status: 500 }));
    await t.app.inject({ method: 'POST', url: `/admin/v1/webhookDeliveries/${d.id}/retry`, headers: adminHeaders });
    await webhooks.drain();
    [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('FAILED');
    expect(d.attempts).toHaveLength(5);
  });

  it('a 3xx is a failure and is never followed', async () => {
    const canary = await startWebhookReceiver();
    cleanups.push(() => canary.close());
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0.05');
    receiver.setHandler(() => ({ status: 302, headers: { location: `${canary.url}/v1/orderUpdate` } }));
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(2);
    expect(canary.connections).toBe(0);
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('FAILED');
    expect(d.attempts[0]).toMatchObject({ statusCode: 302 });
    expect(d.attempts[0].error).toMatch(
      /^Redirect \(HTTP 302 to http:\/\/127\.0\.0\.1:\d+\/v1\/orderUpdate\) not followed$/,
    );
  });

  it('410 disables the webhook until the merchant registers again', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    receiver.setHandler(() => ({ status: 410 }));
    // one order, so the second goes out only after the first is settled
    const orderId = newId();
    await record(t, [
      buildEvent({ merchantId: merchant.merchantId, orderId }),
      buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CONFIRMED' }),
    ]);
    await webhooks.drain();
    // the first 410 disables; the second delivery is failed without a request
    expect(receiver.requests).toHaveLength(1);
    const list = await deliveries(t, merchant.merchantId);
    expect(list.map((d) => d.status)).toEqual(['FAILED', 'FAILED']);
    const [second, first] = list;
    expect(first.attempts[0]).toMatchObject({ statusCode: 410 });
    expect(first.attempts[0].error).toMatch(/410 Gone: webhook disabled/);
    expect(second.attempts[0].statusCode).toBeNull();
    expect(second.attempts[0].error).toMatch(/Webhook disabled after HTTP 410/);
    const m = await t.app.inject({ url: `/admin/v1/merchants/${merchant.merchantId}`, headers: adminHeaders });
    expect(m.json().onboarding.webhookDisabledAt).toEqual(expect.any(String));

    // while disabled: no new deliveries, and a replay is refused with a reason
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    expect(await deliveries(t, merchant.merchantId)).toHaveLength(2);
    const refused = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/webhookDeliveries/${first.id}/retry`,
      headers: adminHeaders,
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      title: 'The merchant webhook is disabled after HTTP 410 until the merchant registers again',
      status: 409,
    });

    // registering again re-enables delivery
    receiver.setHandler(() => ({ status: 200 }));
    await onboard(t, merchant, receiver.url);
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(2);
    expect((await deliveries(t, merchant.merchantId))[0].status).toBe('DELIVERED');
  });

  it('429 with Retry-After is honoured', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    receiver.setHandler((_r, i) => (i === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 }));
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(2);
    const gap = receiver.requests[1].at - receiver.requests[0].at;
    expect(gap).toBeGreaterThanOrEqual(950);
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.attempts.map((a) => a.statusCode)).toEqual([429, 200]);
  });

  it('a receiver slower than the timeout is a failed attempt, retried', async () => {
    const { t, receiver, merchant, webhooks } = await setup({ config: { webhookTimeoutMs: 300 } });
    receiver.setHandler((_r, i) => (i === 0 ? { status: 200, delayMs: 2_000 } : { status: 200 }));
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    expect(receiver.requests).toHaveLength(2);
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('DELIVERED');
    expect(d.attempts[0]).toMatchObject({ statusCode: null, error: 'Timed out after 300 ms' });
    expect(d.attempts[0].durationMs).toBeGreaterThanOrEqual(290);
    expect(d.attempts[0].durationMs).toBeLessThan(1_500);
  });

  it('connection refused is recorded and retried', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0.05');
    const deadUrl = receiver.url;
    await receiver.close();
    await onboard(t, merchant, deadUrl);
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    await webhooks.drain();
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('FAILED');
    expect(d.attempts).toHaveLength(2);
    expect(d.attempts[0].error).toMatch(/ECONNREFUSED/);
  });
});
