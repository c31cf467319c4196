// The client against a real server for the catalog: upload-and-wait (spec 3.2, 4.3, 4.4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, createMerchant } from '../../../test/support/test-app.js';
import {
  CatalogSyncTimeoutError,
  createOperatorClient,
  createPosClient,
  type MerchantUpdateRequest,
  type OperatorClient,
  type PosClient,
} from '../src/index.js';
import { type FailingProxy, type RunningApp, startApp, startAppWorkers, startFailingProxy } from './support.js';

const catalog: MerchantUpdateRequest = {
  entityType: 'MERCHANT',
  merchantStatus: 'AVAILABLE',
  updatedObjects: [
    {
      id: 'loja-1',
      categories: [
        { id: 'bovinos', name: 'Bovinos', index: 0, status: 'AVAILABLE', itemOfferId: ['o-picanha', 'o-burger'] },
      ],
      itemOffers: [
        { id: 'o-picanha', itemId: 'picanha', price: { value: 89.9 }, status: 'AVAILABLE' },
        { id: 'o-burger', itemId: 'burger', price: { value: 9.5 }, status: 'AVAILABLE' },
      ],
      items: [
        { id: 'picanha', name: 'Picanha', unit: 'KG' },
        { id: 'burger', name: 'Hambúrguer 180 g', unit: 'UN' },
      ],
    },
  ],
};

describe('pos-client against a real server: catalog upload-and-wait', () => {
  let server: RunningApp;
  let workers: { stop(): Promise<void> };
  let proxy: FailingProxy;
  let _op: OperatorClient;

  beforeAll(async () => {
    server = await startApp({ env: { CLEAVER_RATE_LIMIT_AUTH: '1000' } });
    workers = await startAppWorkers(server);
    proxy = await startFailingProxy(server.url);
    _op = createOperatorClient({ baseUrl: server.url, adminToken: ADMIN_TOKEN });
  });
  afterAll(async () => {
    await proxy?.close();
    await workers?.stop();
    await server?.close();
  });

  async function newMerchant(): Promise<{ merchantId: string; clientSecret: string; client: PosClient }> {
    const m = await createMerchant(server.app);
    return {
      merchantId: m.merchantId,
      clientSecret: m.clientSecret,
      client: createPosClient({ baseUrl: proxy.url, clientId: m.merchantId, clientSecret: m.clientSecret }),
    };
  }

  it('uploadCatalog waits for SUCCESS, reporting progress, with exactly one upload', async () => {
    const { client, merchantId } = await newMerchant();
    proxy.requests.length = 0;
    const seen: string[] = [];
    const result = await client.uploadCatalog(catalog, {
      wait: true,
      intervalMs: 50,
      timeoutMs: 20_000,
      onProgress: (s) => seen.push(s.status),
    });
    expect(result?.status).toBe('SUCCESS');
    expect(seen.at(-1)).toBe('SUCCESS');
    expect(seen.slice(0, -1).every((s) => s === 'PROCESSING')).toBe(true);
    expect(proxy.requests.filter((r) => r.path === '/v1/merchantUpdate')).toHaveLength(1);
    expect(proxy.requests.filter((r) => r.path === `/v1/merchantStatus?merchantId=${merchantId}`)).toHaveLength(
      seen.length,
    );
    const merchant = await client.getMerchant();
    expect(merchant.products.map((p) => p.pdv_external_id).sort()).toEqual(['burger', 'picanha']);
  });

  it('a FAIL is returned with its moreInfo and never resent (spec 3.2)', async () => {
    const { client } = await newMerchant();
    proxy.requests.length = 0;
    const broken = structuredClone(catalog);
    if (broken.entityType !== 'MERCHANT') throw new Error('unreachable');
    broken.updatedObjects[0].itemOffers.push({ id: 'o-ghost', itemId: 'ghost', price: { value: 1 } });
    broken.updatedObjects[0].categories[0].itemOfferId!.push('o-ghost');
    const result = await client.uploadCatalog(broken, { wait: true, intervalMs: 50, timeoutMs: 20_000 });
    expect(result?.status).toBe('FAIL');
    expect(result?.moreInfo).toContain('ghost');
    expect(proxy.requests.filter((r) => r.path === '/v1/merchantUpdate')).toHaveLength(1);
  });

  it('times out while still PROCESSING, without resending (a server whose workers are stopped)', async () => {
    const idle = await startApp();
    try {
      const m = await createMerchant(idle.app);
      const idleProxy = await startFailingProxy(idle.url);
      const client = createPosClient({ baseUrl: idleProxy.url, clientId: m.merchantId, clientSecret: m.clientSecret });
      const seen: string[] = [];
      const error = await client
        .uploadCatalog(catalog, { wait: true, timeoutMs: 300, intervalMs: 50, onProgress: (s) => seen.push(s.status) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CatalogSyncTimeoutError);
      expect((error as CatalogSyncTimeoutError).lastStatus).toMatchObject({ status: 'PROCESSING' });
      expect(seen.length).toBeGreaterThan(1);
      expect(idleProxy.requests.filter((r) => r.path === '/v1/merchantUpdate')).toHaveLength(1);
      await idleProxy.close();
    } finally {
      await idle.close();
    }
  });
});
