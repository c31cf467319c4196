import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { adminHeaders, bearer } from '../support/test-app.js';
import { createTestDatabase, type TestDatabase, testDbKind } from '../support/test-db.js';
import { type CleaverProcess, call, startCleaver, stopAllCleavers } from './processes.js';

// Proof (architecture.md#database-outage): a `cleaver serve` process under steady load (order reads, creations
// and confirmations) loses PostgreSQL for ~3 s. The shared PostgreSQL server keeps running for
// everyone else: the process reaches it through a TCP proxy that the test cuts and restores.

const OUTAGE_MS = 3_000;

if (testDbKind() === 'postgres') {
  describe('PostgreSQL unreachable under steady load', () => {
    let database: TestDatabase;
    let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
    let server: CleaverProcess;

    beforeAll(async () => {
      database = await createTestDatabase();
      const target = new URL(database.url as string);
      proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const viaProxy = new URL(target);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      server = await startCleaver('all', {
        DATABASE_URL: viaProxy.toString(),
        CLEAVER_RATE_LIMIT_READ: '1000000',
        CLEAVER_RATE_LIMIT_WRITE: '1000000',
        CLEAVER_RATE_LIMIT_AUTH: '1000000',
      });
    }, 120_000);

    afterAll(async () => {
      await stopAllCleavers();
      await proxy?.close();
      await database?.close();
    });

    test('503 with Retry-After during the outage, nothing acknowledged is lost, 2xx within 5 s of the return', async () => {
      const base = server.url;
      const m = await call(base, 'POST', '/admin/v1/merchants', adminHeaders, { name: 'Açougue Sem Luz' });
      expect(m.status).toBe(201);
      const merchantId = (m.json as { id: string }).id;
      const k = await call(base, 'POST', `/admin/v1/merchants/${merchantId}/integrationKeys`, adminHeaders, {});
      const { clientSecret } = k.json as { clientSecret: string };
      const t = await call(
        base,
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
      const p = await call(base, 'POST', `/admin/v1/merchants/${merchantId}/products`, adminHeaders, {
        name: 'Fraldinha',
        price: 59.9,
        unit: 'KG',
      });
      const productId = (p.json as { id: string }).id;

      const created: string[] = [];
      const confirmed: string[] = [];
      const unexpected: string[] = [];
      const outage = { from: 0, to: 0 };
      let restoredAt = 0;
      let firstOkAfterRestore = 0;
      const during: number[] = [];
      let stop = false;

      const record = (what: string, r: Awaited<ReturnType<typeof call>>) => {
        const now = Date.now();
        if (r.status >= 200 && r.status < 300) {
          if (restoredAt && !firstOkAfterRestore) firstOkAfterRestore = now;
          return true;
        }
        if (r.status === 503) {
          during.push(now);
          const body = r.json as { title?: unknown; status?: unknown } | undefined;
          if (!r.headers.get('retry-after') || typeof body?.title !== 'string' || body.status !== 503) {
            unexpected.push(`${what}: 503 without Retry-After or {title, status}: ${r.text}`);
          }
          return false;
        }
        unexpected.push(`${what}: ${r.status} ${r.text.slice(0, 200)}`);
        return false;
      };

      const client = async () => {
        while (!stop) {
          try {
            const c = await call(base, 'POST', `/admin/v1/merchants/${merchantId}/orders`, adminHeaders, {
              type: 'DELIVERY',
              items: [{ productId, quantity: 1 }],
            });
            if (!record('create', c)) continue;
            const id = (c.json as { id: string }).id;
            created.push(id);
            if (!record('read', await call(base, 'GET', `/v1/orders/${id}`, bearer(token)))) continue;
            const confirm = await call(base, 'POST', `/v1/orders/${id}/confirm`, bearer(token), {
              createdAt: new Date().toISOString(),
              orderExternalCode: `PDV-${created.length}`,
            });
            if (record('confirm', confirm)) confirmed.push(id);
          } catch (error) {
            const cause = (error as Error & { cause?: Error }).cause;
            unexpected.push(`transport: ${(error as Error).message} ${cause?.message ?? ''} alive=${server.alive()}`);
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };

      const clients = Array.from({ length: 4 }, client);
      await new Promise((r) => setTimeout(r, 1_500));
      const beforeCut = created.length;
      await proxy.cut();
      outage.from = Date.now();
      await new Promise((r) => setTimeout(r, OUTAGE_MS));
      await proxy.restore();
      restoredAt = Date.now();
      outage.to = restoredAt;
      const deadline = restoredAt + 8_000;
      while (!firstOkAfterRestore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      await new Promise((r) => setTimeout(r, 1_000)); // steady again
      stop = true;
      await Promise.all(clients);

      expect([...new Set(unexpected)], server.output().slice(-3000)).toEqual([]);
      expect(beforeCut).toBeGreaterThan(0);
      expect(during.length).toBeGreaterThan(0); // the outage was felt ...
      expect(server.alive(), server.output()).toBe(true); // ... and survived
      expect(firstOkAfterRestore).toBeGreaterThan(0);
      expect(firstOkAfterRestore - restoredAt).toBeLessThan(5_000);

      // Everything the clients were told succeeded is there.
      for (const id of created) {
        const order = await call(base, 'GET', `/admin/v1/orders/${id}`, adminHeaders);
        expect(order.status, id).toBe(200);
        if (confirmed.includes(id)) expect((order.json as { status: string }).status).toBe('CONFIRMED');
      }
      const live = await fetch(`${base}/health/ready`);
      expect(live.status).toBe(200);
      console.log(
        `outage: ${created.length} orders created (${beforeCut} before the cut), ${confirmed.length} confirmed, ` +
          `${during.length} answers 503, first 2xx ${firstOkAfterRestore - restoredAt} ms after the return`,
      );
    }, 60_000);
  });
}
