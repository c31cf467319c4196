// Issue "Hardening" 7 (D31): a `--role worker` process rides out a PostgreSQL outage and resumes
// by itself. Its own PostgreSQL cluster is stopped and started again (never the shared one); an
// API process on the same cluster places orders before and after; a webhook receiver on
// 127.0.0.1 shows the worker delivering again.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type OwnPostgres, startOwnPostgres } from '../support/own-services.js';
import { adminHeaders } from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, startReceiver, stopAllCleavers } from './processes.js';

if (testDbKind() === 'postgres') {
  describe('a worker process and a database outage', () => {
    let pg: OwnPostgres;
    let api: CleaverProcess;
    let worker: CleaverProcess;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;

    beforeAll(async () => {
      pg = await startOwnPostgres();
      receiver = await startReceiver(200);
      const env = { DATABASE_URL: pg.url, CLEAVER_RATE_LIMIT_AUTH: '100000' };
      api = await startCleaver('api', env);
      worker = await startCleaver('worker', env);
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await receiver?.close();
      pg?.destroy();
    });

    async function placeOrder(merchantId: string, productId: string): Promise<string> {
      const res = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/orders`, adminHeaders, {
        type: 'TAKEOUT',
        items: [{ productId, quantity: 1 }],
      });
      expect(res.status).toBe(201);
      return (res.json as { id: string }).id;
    }

    const deliveredFor = (orderId: string) => receiver.deliveries.some((d) => d.body.includes(orderId));

    test('the worker stays up while PostgreSQL is down, says so, and delivers again once it is back', async () => {
      const m = await call(api.url, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue do Apagão' });
      const merchantId = (m.json as { id: string }).id;
      const k = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, adminHeaders, {});
      const { clientSecret } = k.json as { clientSecret: string };
      const t = await call(
        api.url,
        'POST',
        '/oauth/token',
        {},
        {
          client_id: merchantId,
          client_secret: clientSecret,
          grant_type: 'client_credentials',
        },
      );
      const token = (t.json as { access_token: string }).access_token;
      const onboarded = await call(
        api.url,
        'PUT',
        '/v1/merchantOnboarding',
        { authorization: `Bearer ${token}` },
        {
          ordersWebhookURL: receiver.url,
        },
      );
      expect(onboarded.status).toBe(200);
      const p = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/products`, adminHeaders, {
        name: 'Picanha',
        price: 89.9,
        unit: 'KG',
      });
      const productId = (p.json as { id: string }).id;

      const before = await placeOrder(merchantId, productId);
      await expect.poll(() => deliveredFor(before), { timeout: 10_000, interval: 50 }).toBe(true);

      pg.stop();
      // Long enough for every reconnect and claim to fail several times over.
      await new Promise((resolve) => setTimeout(resolve, 4_000));
      expect(worker.alive()).toBe(true);
      const ready = await fetch(`${worker.url}/health/ready`);
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ title: 'Database unreachable', status: 503 });
      expect((await fetch(`${worker.url}/health/live`)).status).toBe(200);
      expect(worker.output()).toMatch(/retrying/);

      pg.start();
      await expect
        .poll(async () => (await fetch(`${worker.url}/health/ready`)).status, { timeout: 15_000, interval: 200 })
        .toBe(200);
      let after = '';
      await expect
        .poll(
          async () => {
            if (!after) {
              const res = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/orders`, adminHeaders, {
                type: 'TAKEOUT',
                items: [{ productId, quantity: 2 }],
              });
              if (res.status === 201) after = (res.json as { id: string }).id;
            }
            return after !== '' && deliveredFor(after);
          },
          { timeout: 20_000, interval: 200 },
        )
        .toBe(true);
      expect(worker.alive()).toBe(true);

      // And it still stops cleanly, with exit code 0.
      await worker.stop();
      expect(worker.exitCode()).toBe(0);
    }, 90_000);
  });
}
