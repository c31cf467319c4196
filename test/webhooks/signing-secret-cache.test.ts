// Signing secrets (D10) are looked up at most once a second per merchant and key, not once per
// claimed batch (src/modules/webhooks/webhook-worker.ts, `secretFor`); a key deleted in this
// process is never used again, cache or not. Statements counted on the real database handle.
import { describe, expect, it } from 'vitest';
import { createSimpleOrder } from '../support/orders.js';
import { hookStatements } from '../support/statement-hook.js';
import { adminHeaders } from '../support/test-app.js';
import { closeAfterEach, setup, verifyStandard } from '../support/webhook-kit.js';

closeAfterEach();

describe('signing secret lookups', () => {
  it('batches claimed within a second share one lookup; after a second it is looked up again', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    let lookups = 0;
    const undo = hookStatements(t.database.db, (sql) => {
      if (sql.includes('FROM integration_keys WHERE id = $1')) lookups += 1;
    });
    try {
      for (let i = 0; i < 3; i++) await createSimpleOrder(t.app, merchant.merchantId);
      for (let i = 0; i < 3; i++) expect(await webhooks.runOnce(1)).toBe(1);
      expect(receiver.requests).toHaveLength(3);
      expect(lookups).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 1_100));
      await createSimpleOrder(t.app, merchant.merchantId);
      expect(await webhooks.runOnce(1)).toBe(1);
      expect(lookups).toBe(2);
    } finally {
      undo();
    }
    for (const request of receiver.requests) {
      expect(() => verifyStandard(merchant.clientSecret, request.body, request.headers)).not.toThrow();
    }
  });

  it('a key deleted here is not used again, though its secret was looked up a moment ago', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    await createSimpleOrder(t.app, merchant.merchantId);
    expect(await webhooks.runOnce()).toBe(1);
    // A second key, then the registering one deleted: the next delivery signs with the second.
    const created = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys`,
      headers: adminHeaders,
      payload: { name: 'second' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const second = created.json() as { keyId: string; clientSecret: string };
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchant.merchantId}/integrationKeys/${merchant.keyId}`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await createSimpleOrder(t.app, merchant.merchantId);
    expect(await webhooks.runOnce()).toBe(1);
    const [first, next] = receiver.requests;
    expect(() => verifyStandard(merchant.clientSecret, first?.body ?? '', first?.headers ?? {})).not.toThrow();
    expect(() => verifyStandard(second.clientSecret, next?.body ?? '', next?.headers ?? {})).not.toThrow();
    expect(() => verifyStandard(merchant.clientSecret, next?.body ?? '', next?.headers ?? {})).toThrow();
  });
});
