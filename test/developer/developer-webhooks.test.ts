// GET /v1/developer/webhooks: a POS reads, with its own token, the health of its
// merchant's webhook endpoint as the operator API gives it (healthy, failing since, last error,
// disabled) and the latest attempts with what its endpoint answered; never another merchant's.
import { describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant } from '../support/test-app.js';
import { closeAfterEach, setup } from '../support/webhook-kit.js';

closeAfterEach();

describe('GET /v1/developer/webhooks', () => {
  it('says the endpoint is failing, as operators see it, with each attempt and its answer', async () => {
    // One attempt, then a retry an hour away: failing, though no delivery has FAILED yet.
    const { t, receiver, merchant, webhooks } = await setup({}, '0,3600');
    const before = await t.app.inject({ url: '/v1/developer/webhooks', headers: bearer(merchant.token) });
    expect(before.statusCode).toBe(200);
    expect(before.json()).toMatchObject({ endpoint: { state: 'unknown', lastAttemptAt: null }, attempts: [] });

    receiver.setHandler(() => ({ status: 500, body: 'receiver exploded' }));
    const order = await createSimpleOrder(t.app, merchant.merchantId);
    await webhooks.drain({ maxWaitMs: 2_000 });

    const res = await t.app.inject({ url: '/v1/developer/webhooks', headers: bearer(merchant.token) });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    const operator = await t.app.inject({
      url: `/admin/v1/merchants/${merchant.merchantId}/webhookHealth`,
      headers: adminHeaders,
    });
    expect(body.endpoint).toEqual(operator.json());
    expect(body.endpoint).toMatchObject({
      state: 'failing',
      lastError: 'HTTP 500',
      url: `${receiver.url}/v1/orderUpdate`,
    });
    expect(body.attempts).toHaveLength(1);
    expect(body.attempts[0]).toMatchObject({
      orderId: order.id,
      eventType: 'CREATED',
      deliveryStatus: 'PENDING',
      attemptNo: 1,
      statusCode: 500,
      error: 'HTTP 500',
      target: `${receiver.url}/v1/orderUpdate`,
      responseSnippet: 'receiver exploded',
    });

    // Healthy again after an answer of 2xx; the newest attempt first.
    receiver.setHandler(() => ({ status: 200, body: 'ok' }));
    await webhooks.retryDelivery(body.attempts[0].deliveryId);
    await webhooks.drain({ maxWaitMs: 2_000 });
    const after = (
      await t.app.inject({ url: '/v1/developer/webhooks?limit=1', headers: bearer(merchant.token) })
    ).json();
    expect(after.endpoint).toMatchObject({ state: 'healthy', failingSince: null });
    expect(after.attempts).toHaveLength(1);
    expect(after.attempts[0]).toMatchObject({ attemptNo: 2, statusCode: 200, deliveryStatus: 'DELIVERED' });

    // Another merchant's POS sees its own endpoint only: none registered, no attempts.
    const other = await createMerchant(t.app, 'Açougue Vizinho');
    const theirs = await t.app.inject({ url: '/v1/developer/webhooks', headers: bearer(other.token) });
    expect(theirs.json()).toMatchObject({
      endpoint: { merchantId: other.merchantId, url: null, state: 'unknown' },
      attempts: [],
    });
  });
});
