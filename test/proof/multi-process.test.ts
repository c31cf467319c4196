import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminHeaders, bearer } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, startReceiver, stopAllCleavers } from './processes.js';

// Proof (architecture.md#several-processes): two API processes and one worker on one PostgreSQL and one Redis.
// The full order flow goes through both API processes alternately; the rate limit, revocation,
// polling and webhook delivery hold across them.

const redisUrl = process.env.TEST_REDIS_URL;
const READ_LIMIT = 100;

if (testDbKind() === 'postgres' && redisUrl) {
  describe('two API processes and a worker on one PostgreSQL and one Redis', () => {
    let database: TestDatabase;
    let a: CleaverProcess;
    let b: CleaverProcess;
    let worker: CleaverProcess;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let merchantId: string;
    const api = () => [a.url, b.url];

    async function key(via: string | undefined) {
      const k = await call(via, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, adminHeaders, {});
      expect(k.status).toBe(201);
      const { keyId, clientSecret } = k.json as { keyId: string; clientSecret: string };
      const t = await call(
        via,
        'POST',
        '/oauth/token',
        {},
        {
          client_id: merchantId,
          client_secret: clientSecret,
          grant_type: 'client_credentials',
        },
      );
      expect(t.status).toBe(200);
      return { keyId, clientSecret, token: (t.json as { access_token: string }).access_token };
    }

    beforeAll(async () => {
      database = await createTestDatabase();
      receiver = await startReceiver(200);
      const env = {
        DATABASE_URL: database.url as string,
        REDIS_URL: redisUrl,
        CLEAVER_RATE_LIMIT_READ: String(READ_LIMIT),
        CLEAVER_RATE_LIMIT_WRITE: '100000',
        CLEAVER_RATE_LIMIT_AUTH: '100000',
        CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,1,1,1',
      };
      [a, b, worker] = await Promise.all([
        startCleaver('api', env),
        startCleaver('api', env),
        startCleaver('worker', env),
      ]);
      const m = await call(a.url, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue Dois Processos' });
      expect(m.status).toBe(201);
      merchantId = (m.json as { id: string }).id;
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await receiver?.close();
      await database?.close();
    });

    test('the full order flow through both API processes, polling the same on both', async () => {
      const pos = await key(b.url);
      const product = await call(b.url, 'POST', `/admin/v1/merchants/${merchantId}/products`, adminHeaders, {
        name: 'Picanha',
        price: 89.9,
        unit: 'KG',
      });
      expect(product.status).toBe(201);
      const productId = (product.json as { id: string }).id;
      const onboard = await call(a.url, 'PUT', '/v1/merchantOnboarding', bearer(pos.token), {
        ordersWebhookURL: receiver.url,
      });
      expect(onboard.status).toBe(200);

      const orderIds: string[] = [];
      for (let i = 0; i < 4; i++) {
        const created = await call(api()[i % 2], 'POST', `/admin/v1/merchants/${merchantId}/orders`, adminHeaders, {
          type: 'DELIVERY',
          items: [{ productId, quantity: 1 + i }],
        });
        expect(created.status, created.text).toBe(201);
        orderIds.push((created.json as { id: string }).id);
      }

      // Polling: both processes see the same pending events of the key.
      const poll = async (via: string | undefined) => {
        const r = await call(via, 'GET', '/v1/events:polling', bearer(pos.token));
        expect([200, 204]).toContain(r.status);
        return ((r.json ?? []) as Array<{ eventId: string; orderId: string; eventType: string }>)
          .map((e) => `${e.orderId}:${e.eventType}:${e.eventId}`)
          .sort();
      };
      const fromA = await poll(a.url);
      expect(fromA).toHaveLength(4);
      expect(await poll(b.url)).toEqual(fromA);

      // Each step through the other process than the one before.
      const steps: Array<[string, unknown]> = [
        ['confirm', { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' }],
        ['readyForPickup', undefined],
        ['dispatch', {}],
        ['delivered', undefined],
      ];
      let turn = 0;
      for (const orderId of orderIds) {
        for (const [action, body] of steps) {
          const r = await call(api()[turn++ % 2], 'POST', `/v1/orders/${orderId}/${action}`, bearer(pos.token), body);
          expect(r.status, `${action}: ${r.text}`).toBe(202);
        }
        for (const via of api()) {
          const order = await call(via, 'GET', `/v1/orders/${orderId}`, bearer(pos.token));
          expect(order.status).toBe(200);
          expect((order.json as { lastEvent: string }).lastEvent).toBe('DELIVERED');
          const operator = await call(via, 'GET', `/admin/v1/orders/${orderId}`, adminHeaders);
          expect((operator.json as { status: string }).status).toBe('DELIVERED');
        }
      }

      // Both processes list the same 20 events (CREATED + 4 steps per order); acknowledged
      // through one, they are gone on the other.
      const pending = await poll(b.url);
      expect(pending).toHaveLength(20);
      expect(await poll(a.url)).toEqual(pending);
      const ack = pending.map((p) => {
        const [orderId, eventType, id] = p.split(':');
        return { id, orderId, eventType };
      });
      const acked = await call(a.url, 'POST', '/v1/events/acknowledgment', bearer(pos.token), ack);
      expect(acked.status, acked.text).toBe(202);
      expect(await poll(b.url)).toEqual([]);
      expect(await poll(a.url)).toEqual([]);

      // Webhooks: the receiver answers 200, so each webhook-id arrives exactly once although
      // two API processes recorded the events and the worker delivers them.
      await expect
        .poll(() => receiver.deliveries.length, { timeout: 20_000, interval: 100 })
        .toBeGreaterThanOrEqual(20);
      await new Promise((r) => setTimeout(r, 1_500)); // a duplicate would arrive now
      const ids = receiver.deliveries.map((d) => String(d.headers['webhook-id']));
      expect(ids.every((id) => id !== 'undefined')).toBe(true);
      expect(new Set(ids).size).toBe(ids.length);
    }, 60_000);

    test(`the read limit (${READ_LIMIT}/min) holds across both processes within 5 %`, async () => {
      const { token } = await key(a.url);
      const statuses: number[] = [];
      const total = 160;
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async () => {
          while (next < total) {
            const i = next++;
            const r = await call(api()[i % 2], 'GET', '/v1/merchant', bearer(token));
            statuses.push(r.status);
            if (r.status === 429) {
              expect(r.json).toMatchObject({ status: 429 });
              expect(r.headers.get('retry-after')).toBeTruthy();
            }
          }
        }),
      );
      const ok = statuses.filter((s) => s === 200).length;
      expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
      expect(ok).toBeGreaterThanOrEqual(READ_LIMIT * 0.95);
      expect(ok).toBeLessThanOrEqual(READ_LIMIT * 1.05);
    }, 60_000);

    async function untilRefusedOnBoth(token: string): Promise<number> {
      const started = Date.now();
      const refused = new Set<string>();
      while (refused.size < 2 && Date.now() - started < 5_000) {
        for (const via of api()) {
          if (refused.has(String(via))) continue;
          const r = await call(via, 'GET', '/v1/merchant', bearer(token));
          if (r.status === 401) refused.add(String(via));
          else expect(r.status).toBe(200);
        }
        await new Promise((r) => setTimeout(r, 25));
      }
      expect(refused.size).toBe(2);
      return Date.now() - started;
    }

    test('a deleted key and a revoked token are refused by both processes within 1 s', async () => {
      const deleted = await key(a.url);
      for (const via of api()) expect((await call(via, 'GET', '/v1/merchant', bearer(deleted.token))).status).toBe(200);
      const del = await call(
        a.url,
        'DELETE',
        `/admin/v1/merchants/${merchantId}/integrationKeys/${deleted.keyId}`,
        adminHeaders,
      );
      expect(del.status).toBe(204);
      expect(await untilRefusedOnBoth(deleted.token)).toBeLessThan(1000);

      const revoked = await key(b.url);
      for (const via of api()) expect((await call(via, 'GET', '/v1/merchant', bearer(revoked.token))).status).toBe(200);
      const rev = await call(
        b.url,
        'POST',
        '/oauth/revoke',
        {},
        {
          token: revoked.token,
          client_id: merchantId,
          client_secret: revoked.clientSecret,
        },
      );
      expect(rev.status, rev.text).toBe(200);
      expect(await untilRefusedOnBoth(revoked.token)).toBeLessThan(1000);
    }, 30_000);

    test('no process died', () => {
      for (const p of [a, b, worker]) expect(p.alive(), p.output()).toBe(true);
    });
  });
}
