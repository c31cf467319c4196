// D45 under kill -9, on PostgreSQL with real `cleaver serve` processes: a line is written in the
// transaction of the change it counts, and a closing in one transaction per batch, so a process
// killed while orders conclude, or while statements close, neither loses nor doubles anything.
//   1. An API process concluding orders (many at once) is killed; after a restart every order
//      that is CONCLUDED has exactly one ORDER line, every other order none, and concluding the
//      rest counts each of them once.
//   2. A worker closing 6,000 statements whose periods ended is killed mid-way; another worker
//      closes the rest: every statement CLOSED once, with totals equal to its lines' sums and
//      exactly one `settlement STATEMENT_CLOSED` feed item.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminHeaders } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, stopAllCleavers } from './processes.js';

const ORDERS = 120;
const STATEMENTS = 6_000;

if (testDbKind() === 'postgres') {
  describe('statements when a process is killed', () => {
    let database: TestDatabase;
    let client: pg.Client;
    const env = () => ({ DATABASE_URL: database.url as string, CLEAVER_RATE_LIMIT_AUTH: '100000' });

    beforeAll(async () => {
      database = await createTestDatabase();
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await client?.end();
      await database?.close();
    });

    async function merchantWithKey(api: CleaverProcess) {
      const m = await call(api.url, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue Queda' });
      const merchantId = (m.json as { id: string }).id;
      const k = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, adminHeaders, {});
      const t = await call(
        api.url,
        'POST',
        '/oauth/token',
        {},
        {
          client_id: merchantId,
          client_secret: (k.json as { clientSecret: string }).clientSecret,
          grant_type: 'client_credentials',
        },
      );
      return { merchantId, auth: { authorization: `Bearer ${(t.json as { access_token: string }).access_token}` } };
    }

    const linesPerOrder = async () =>
      (
        await client.query<{ order_id: string; kind: string; n: number }>(
          `SELECT order_id, kind, count(*)::int AS n FROM statement_lines WHERE order_id IS NOT NULL
            GROUP BY order_id, kind`,
        )
      ).rows;

    test('an API process killed while orders conclude: nothing lost, nothing doubled', async () => {
      let api = await startCleaver('api', env());
      const { merchantId, auth } = await merchantWithKey(api);
      const p = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/products`, adminHeaders, {
        name: 'Fraldinha',
        price: 49.9,
        unit: 'KG',
      });
      const productId = (p.json as { id: string }).id;
      const orderIds: string[] = [];
      for (let i = 0; i < ORDERS; i++) {
        const o = await call(api.url, 'POST', `/admin/v1/merchants/${merchantId}/orders`, adminHeaders, {
          type: 'TAKEOUT',
          items: [{ productId, quantity: 1 + (i % 3) }],
          payments: { methods: [{ value: Math.round(4990 * (1 + (i % 3))) / 100, type: 'PENDING', method: 'CASH' }] },
        });
        expect(o.status).toBe(201);
        const id = (o.json as { id: string }).id;
        const c = await call(api.url, 'POST', `/v1/orders/${id}/confirm`, auth, {
          createdAt: new Date().toISOString(),
          orderExternalCode: `PDV-${i}`,
        });
        expect(c.status).toBe(202);
        orderIds.push(id);
      }
      // Conclusions in flight, 16 at a time, and the process killed once a third are counted.
      const conclude = (url: string | undefined, id: string) =>
        call(url, 'POST', `/admin/v1/orders/${id}/events`, adminHeaders, { eventType: 'CONCLUDED' }).catch(() => null);
      const queue = [...orderIds];
      const running = Array.from({ length: 16 }, async () => {
        for (let id = queue.shift(); id; id = queue.shift()) await conclude(api.url, id);
      });
      await expect
        .poll(async () => (await linesPerOrder()).filter((r) => r.kind === 'ORDER').length, {
          timeout: 60_000,
          interval: 10,
        })
        .toBeGreaterThanOrEqual(ORDERS / 3);
      api.child.kill('SIGKILL');
      await Promise.all(running);

      api = await startCleaver('api', env());
      const statuses = await client.query<{ id: string; status: string }>(
        'SELECT id, status FROM orders WHERE id = ANY($1::uuid[])',
        [orderIds],
      );
      const concluded = new Set(statuses.rows.filter((r) => r.status === 'CONCLUDED').map((r) => r.id));
      expect(concluded.size).toBeGreaterThan(0);
      expect(concluded.size).toBeLessThan(ORDERS);
      const counted = await linesPerOrder();
      expect(counted.every((r) => r.n === 1)).toBe(true);
      expect(new Set(counted.filter((r) => r.kind === 'ORDER').map((r) => r.order_id))).toEqual(concluded);

      // The rest concluded after the restart: each counted once, none twice.
      for (const id of orderIds.filter((o) => !concluded.has(o))) {
        const r = await call(api.url, 'POST', `/admin/v1/orders/${id}/events`, adminHeaders, {
          eventType: 'CONCLUDED',
        });
        expect(r.status).toBe(202);
      }
      const after = await linesPerOrder();
      expect(after.filter((r) => r.kind === 'ORDER').map((r) => [r.n])).toEqual(orderIds.map(() => [1]));
      expect(after.filter((r) => r.kind === 'COMMISSION')).toHaveLength(ORDERS);
      expect(after.filter((r) => r.kind === 'COLLECTED_BY_MERCHANT')).toHaveLength(ORDERS);
      await api.stop();
    }, 300_000);

    test('a worker killed while closing: each statement closed once, with its feed item', async () => {
      // 6,000 statements of merchants of their own, their periods over, each with three lines.
      await client.query(
        `WITH s AS (
           INSERT INTO statements (id, merchant_id, period_start, period_end, state, created_at)
           SELECT gen_random_uuid(), gen_random_uuid(), now() - interval '8 days', now() - interval '1 day', 'OPEN', now()
             FROM generate_series(1, $1) RETURNING id)
         INSERT INTO statement_lines (id, statement_id, kind, value, order_id, occurred_at)
         SELECT gen_random_uuid(), s.id, k.kind, k.value, gen_random_uuid(), now() - interval '2 days'
           FROM s CROSS JOIN (VALUES ('ORDER', 100.5), ('COMMISSION', 12.06), ('COLLECTED_BY_MERCHANT', 40)) AS k (kind, value)`,
        [STATEMENTS],
      );
      const closedCount = async () =>
        (await client.query<{ n: number }>(`SELECT count(*)::int AS n FROM statements WHERE state = 'CLOSED'`)).rows[0]
          .n;
      const a = await startCleaver('worker', env());
      await expect.poll(closedCount, { timeout: 60_000, interval: 5 }).toBeGreaterThan(0);
      a.child.kill('SIGKILL');
      const closedAtKill = await closedCount();
      const b = await startCleaver('worker', env());
      await expect.poll(closedCount, { timeout: 120_000, interval: 100 }).toBe(STATEMENTS);

      const wrong = await client.query(
        `SELECT s.id FROM statements s
           JOIN (SELECT statement_id, sum(value) FILTER (WHERE kind = 'ORDER') AS gross,
                        sum(value) FILTER (WHERE kind = 'COMMISSION') AS commission,
                        sum(value) FILTER (WHERE kind = 'COLLECTED_BY_MERCHANT') AS collected
                   FROM statement_lines GROUP BY statement_id) l ON l.statement_id = s.id
          WHERE (s.totals->>'gross')::numeric <> l.gross OR (s.totals->>'commission')::numeric <> l.commission
             OR (s.totals->>'collectedByMerchant')::numeric <> l.collected
             OR (s.totals->>'net')::numeric <> l.gross - l.commission - l.collected`,
      );
      expect(wrong.rows).toEqual([]);
      const feed = await client.query<{ items: number; statements: number }>(
        `SELECT count(*)::int AS items, count(DISTINCT data->>'statementId')::int AS statements FROM feed_items
          WHERE kind = 'settlement' AND type = 'STATEMENT_CLOSED'`,
      );
      const total = STATEMENTS;
      expect(feed.rows[0]).toEqual({ items: total, statements: total });
      // The kill came mid-way (some closed by A, the rest by B), not after A had finished.
      expect(closedAtKill).toBeLessThan(total);
      await b.stop();
    }, 300_000);
  });
}
