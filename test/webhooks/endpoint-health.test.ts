// Webhook endpoint health and bulk actions (issue "Running for years", item 2): each merchant's
// endpoint is healthy, failing (since when, last error) or disabled (why), from its attempts;
// changes are operator notices and metrics; failed deliveries are retried in bulk, and
// everything since a time is sent again in order. A delivery held behind an earlier one says so.
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { updateEndpointHealth } from '../../src/modules/webhooks/webhooks-repository.js';
import { expectError } from '../support/expect-error.js';
import { createSimpleOrder } from '../support/orders.js';
import { hookStatements } from '../support/statement-hook.js';
import { adminHeaders, bearer } from '../support/test-app.js';
import { closeAfterEach, deliveries, onboard, setup } from '../support/webhook-kit.js';

closeAfterEach();

const health = async (t: Awaited<ReturnType<typeof setup>>['t'], merchantId: string) => {
  const res = await t.app.inject({ url: `/admin/v1/merchants/${merchantId}/webhookHealth`, headers: adminHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};

const notices = async (t: Awaited<ReturnType<typeof setup>>['t'], merchantId: string) => {
  const res = await t.app.inject({ url: `/admin/v1/notices?merchantId=${merchantId}`, headers: adminHeaders });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Array<{ kind: string; message: string; detail: Record<string, string> }>;
};

describe('endpoint health', () => {
  it('unknown, then failing since the first failure with the last error, then healthy again; each change a notice', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0,0');
    expect(await health(t, merchant.merchantId)).toMatchObject({ state: 'unknown', failingSince: null });

    receiver.setHandler(() => ({ status: 503 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const failing = await health(t, merchant.merchantId);
    expect(failing).toMatchObject({
      state: 'failing',
      url: `${receiver.url}/v1/orderUpdate`,
      lastError: 'HTTP 503',
      lastSuccessAt: null,
      disabledAt: null,
    });
    expect(Date.parse(failing.failingSince)).toBeLessThanOrEqual(Date.parse(failing.lastAttemptAt));

    receiver.setHandler(() => ({ status: 200 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    expect(await health(t, merchant.merchantId)).toMatchObject({ state: 'healthy', failingSince: null });

    expect((await notices(t, merchant.merchantId)).map((n) => n.kind)).toEqual([
      'webhook.recovered',
      'webhook.failing',
    ]);
    const metrics = await t.app.inject({ url: '/metrics' });
    expect(metrics.body).toContain('cleaver_webhook_endpoints{state="healthy"} 1');
  });

  it('failing longer than the configured period: disabled with the reason, a notice, 409 on retries', async () => {
    const clock = manualClock(new Date('2026-03-02T12:00:00Z'));
    const { t, receiver, merchant, webhooks } = await setup(
      { clock, env: { CLEAVER_WEBHOOK_DISABLE_AFTER_HOURS: '24' } },
      '0,0,0',
    );
    receiver.setHandler(() => ({ status: 500 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    expect(await webhooks.disableLongFailing()).toBe(0);
    clock.advance(25 * 3_600_000);
    expect(await webhooks.disableLongFailing()).toBe(1);
    expect(await health(t, merchant.merchantId)).toMatchObject({
      state: 'disabled',
      disabledReason: 'failing for more than 24 h',
    });
    expect((await notices(t, merchant.merchantId))[0]).toMatchObject({ kind: 'webhook.disabled' });
    const retry = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookDeliveries/retryFailed`,
      headers: adminHeaders,
    });
    expectError(retry, 409, 'The merchant webhook is disabled until the merchant registers its ordersWebhookURL again');
    // Registering again lifts it (with a fresh token: a day has gone by).
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: {
        client_id: merchant.merchantId,
        client_secret: merchant.clientSecret,
        grant_type: 'client_credentials',
      },
    });
    await onboard(t, { token: token.json().access_token }, receiver.url);
    expect((await health(t, merchant.merchantId)).disabledAt).toBeNull();
  });

  it('a 410 disables with that reason', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0');
    receiver.setHandler(() => ({ status: 410 }));
    await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    expect(await health(t, merchant.merchantId)).toMatchObject({
      state: 'disabled',
      disabledReason: 'HTTP 410 Gone from the receiver',
    });
  });

  it('a burst of attempts: health in a few statements, ending on the latest outcome', async () => {
    // Results finishing one by one over 0.6 s, the last a failure. Each would be a results batch,
    // and each batch its own health statement, but health is written at most every 250 ms.
    const { t, receiver, merchant, webhooks } = await setup({}, '0');
    receiver.setHandler((_request, index) =>
      index === 11 ? { status: 503, delayMs: 600 } : { status: 200, delayMs: 50 * index },
    );
    let healthStatements = 0;
    const undo = hookStatements(t.database.db, (sql) => {
      if (sql.includes('INSERT INTO webhook_endpoint_health')) healthStatements += 1;
    });
    try {
      for (let i = 0; i < 12; i++) await createSimpleOrder(t.app, merchant.merchantId);
      await webhooks.drain({ maxWaitMs: 5_000 });
    } finally {
      undo();
    }
    expect(receiver.requests).toHaveLength(12);
    expect(healthStatements).toBeGreaterThanOrEqual(1);
    expect(healthStatements).toBeLessThanOrEqual(5);
    expect(await health(t, merchant.merchantId)).toMatchObject({ state: 'failing', lastError: 'HTTP 503' });
    expect((await notices(t, merchant.merchantId)).map((n) => n.kind)).toEqual(['webhook.failing']);
  });

  it('outcomes folded together: the last to finish decides, failing since the failures after the last success', async () => {
    const { t, merchant } = await setup();
    const at = (s: number) => new Date(Date.UTC(2026, 2, 2, 12, 0, s));
    const outcome = (ok: boolean, s: number) => ({
      merchantId: merchant.merchantId,
      ok,
      error: ok ? null : `HTTP 50${s}`,
      at: at(s),
    });
    // In the order they finished: a failure, a success, then two failures (the slower one had
    // started first).
    const changes = await updateEndpointHealth(t.database.db, [
      outcome(false, 1),
      outcome(true, 2),
      outcome(false, 4),
      outcome(false, 3),
    ]);
    expect(changes).toMatchObject([{ merchant_id: merchant.merchantId, previous: null, state: 'failing' }]);
    expect(await health(t, merchant.merchantId)).toMatchObject({
      state: 'failing',
      failingSince: at(3).toISOString(),
      lastError: 'HTTP 503',
      lastSuccessAt: at(2).toISOString(),
      lastAttemptAt: at(4).toISOString(),
    });
    // Still failing, but a success in between: the new run of failures starts later.
    expect(await updateEndpointHealth(t.database.db, [outcome(true, 5), outcome(false, 6)])).toEqual([]);
    expect(await health(t, merchant.merchantId)).toMatchObject({
      state: 'failing',
      failingSince: at(6).toISOString(),
      lastSuccessAt: at(5).toISOString(),
      lastAttemptAt: at(6).toISOString(),
    });
    // Failing on: the run goes on from where it started.
    await updateEndpointHealth(t.database.db, [outcome(false, 7)]);
    expect(await health(t, merchant.merchantId)).toMatchObject({ state: 'failing', failingSince: at(6).toISOString() });
  });
});

describe('bulk actions', () => {
  it('retryFailed sends every FAILED delivery again, in order, with the same webhook-ids', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0');
    receiver.setHandler(() => ({ status: 500 }));
    const order = await createSimpleOrder(t.app, merchant.merchantId);
    await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(merchant.token),
      payload: { createdAt: order.createdAt, orderExternalCode: 'X' },
    });
    await webhooks.drain({ maxWaitMs: 2_000 });
    const failed = await deliveries(t, merchant.merchantId, '?status=FAILED');
    expect(failed.map((d) => d.eventType).sort()).toEqual(['CONFIRMED', 'CREATED']);

    receiver.setHandler(() => ({ status: 200 }));
    receiver.requests.length = 0;
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookDeliveries/retryFailed`,
      headers: adminHeaders,
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 202, body: { requeued: 2 } });
    await webhooks.drain({ maxWaitMs: 2_000 });
    expect(receiver.requests.map((r) => JSON.parse(r.body).eventType)).toEqual(['CREATED', 'CONFIRMED']);
    expect(new Set(receiver.requests.map((r) => r.headers['webhook-id']))).toEqual(
      new Set(failed.map((d) => d.webhookId)),
    );
    expect(await deliveries(t, merchant.merchantId, '?status=FAILED')).toEqual([]);
  });

  it('recover re-sends everything since a time, delivered ones too, in order', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0');
    const first = await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const since = new Date().toISOString();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await createSimpleOrder(t.app, merchant.merchantId);
    const third = await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    receiver.requests.length = 0;
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookDeliveries/recover`,
      headers: adminHeaders,
      payload: { since },
    });
    expect({ status: res.statusCode, body: res.json() }).toEqual({ status: 202, body: { requeued: 2 } });
    await webhooks.drain({ maxWaitMs: 2_000 });
    expect(receiver.requests.map((r) => JSON.parse(r.body).orderId)).toEqual([second.id, third.id]);
    expect(receiver.requests.every((r) => JSON.parse(r.body).orderId !== first.id)).toBe(true);
    const bad = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookDeliveries/recover`,
      headers: adminHeaders,
      payload: { since: 'yesterday' },
    });
    expectError(bad, 400, 'since must be an ISO 8601 date-time');
  });
});

describe('ordering, visible', () => {
  it('a pending delivery behind an earlier one of its order names what it waits for', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,3600');
    receiver.setHandler(() => ({ status: 500 }));
    const order = await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.runOnce(); // CREATED fails, retry in an hour
    await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(merchant.token),
      payload: { createdAt: order.createdAt, orderExternalCode: 'X' },
    });
    const list = await deliveries(t, merchant.merchantId);
    const created = list.find((d) => d.eventType === 'CREATED');
    const confirmed = list.find((d) => d.eventType === 'CONFIRMED') as unknown as { waitingFor: unknown };
    expect(confirmed.waitingFor).toEqual({ deliveryId: created?.id, eventType: 'CREATED' });
    expect((created as unknown as { waitingFor: unknown }).waitingFor).toBeNull();
  });
});
