// Issue "Hardening" 10: a catalog sync whose worker dies (kill -9) mid-apply is taken over within
// seconds, not after a fixed 2-minute lease. Real processes on one PostgreSQL: an API process
// takes the upload, worker A starts applying 20,000 items and is killed, worker B re-runs it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { adminHeaders } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, stopAllCleavers } from './processes.js';

const ITEMS = 20_000;

function bigCatalog() {
  const categories = Array.from({ length: 20 }, (_, c) => ({
    id: `C${c}`,
    name: `Categoria ${c}`,
    index: c,
    status: 'AVAILABLE',
    itemOfferId: Array.from({ length: ITEMS / 20 }, (_, i) => `O${c * (ITEMS / 20) + i}`),
  }));
  const itemOffers = Array.from({ length: ITEMS }, (_, i) => ({
    id: `O${i}`,
    itemId: `I${i}`,
    price: { value: 10 + (i % 90) + 0.9 },
    status: 'AVAILABLE',
  }));
  const items = Array.from({ length: ITEMS }, (_, i) => ({
    id: `I${i}`,
    name: `Corte ${i}`,
    unit: i % 2 ? 'KG' : 'UN',
    description: 'Carne bovina',
  }));
  return {
    entityType: 'MERCHANT',
    merchantStatus: 'AVAILABLE',
    updatedObjects: [{ id: 'LOJA-1', categories, itemOffers, items }],
  };
}

if (testDbKind() === 'postgres') {
  describe('a worker killed mid-sync', () => {
    let database: TestDatabase;
    let api: CleaverProcess;
    let client: pg.Client;

    beforeAll(async () => {
      database = await createTestDatabase();
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
      api = await startCleaver('api', { DATABASE_URL: database.url as string, CLEAVER_RATE_LIMIT_AUTH: '100000' });
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await client?.end();
      await database?.close();
    });

    const syncRow = async () =>
      (
        await client.query<{ status: string; attempts: number; lease_owner: string | null }>(
          'SELECT status, attempts, lease_owner FROM catalog_syncs ORDER BY seq DESC LIMIT 1',
        )
      ).rows[0];

    test('is taken over by another worker within 10 s of the crash', async () => {
      const m = await call(api.url, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue Atacado' });
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
      const auth = { authorization: `Bearer ${(t.json as { access_token: string }).access_token}` };
      const uploaded = await call(api.url, 'PUT', '/v1/merchantUpdate', auth, bigCatalog());
      expect(uploaded.status).toBe(204);

      const a = await startCleaver('worker', { DATABASE_URL: database.url as string });
      await expect.poll(async () => (await syncRow()).attempts, { timeout: 20_000, interval: 20 }).toBe(1);
      // A holds the lease and is applying: kill it without warning.
      a.child.kill('SIGKILL');
      const crashedAt = Date.now();
      const b = await startCleaver('worker', { DATABASE_URL: database.url as string });
      await expect.poll(async () => (await syncRow()).attempts, { timeout: 15_000, interval: 50 }).toBe(2);
      const retakenAfterMs = Date.now() - crashedAt;
      expect(retakenAfterMs).toBeLessThan(10_000);
      await expect.poll(async () => (await syncRow()).status, { timeout: 60_000, interval: 100 }).toBe('SUCCESS');
      const record = await call(api.url, 'GET', '/v1/merchant', auth);
      expect((record.json as { products: unknown[] }).products).toHaveLength(ITEMS);
      await b.stop();
    }, 120_000);
  });
}
