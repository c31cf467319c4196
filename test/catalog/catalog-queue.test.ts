// The sync queue (D16), the merchant-record cache (D24) and the read budget (D23).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import {
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  sync,
  upload,
} from '../support/catalog.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_BODY_LIMIT: '4096' } });
});
afterAll(() => t.close());

const fresh = () => createMerchant(t.app);

describe('queue and worker (D16)', () => {
  it('applies a merchant’s uploads one at a time in arrival order', async () => {
    const me = await fresh();
    await upload(t, me, merchantBody(sampleCatalog()));
    await upload(t, me, { entityType: 'ITEM_OFFER', updatedObjects: [{ itemId: 'P1', price: { value: 1 } }] });
    await upload(t, me, { entityType: 'ITEM_OFFER', updatedObjects: [{ itemId: 'P1', price: { value: 2 } }] });
    expect(await t.services.catalog.worker.drain()).toBe(3);
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.price).toBe(2);
    const history = await operatorSyncs(t, me.merchantId);
    expect(history.map((s) => s.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
  });

  it('hand-made content shows in the cached record at once', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    expect((await merchantRecord(t, me)).products).toHaveLength(3);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products`,
      headers: adminHeaders,
      payload: { name: 'Carvão', price: 25, unit: 'UN' },
    });
    expect(res.statusCode).toBe(201);
    const r = await merchantRecord(t, me);
    expect(r.products.find((p) => p.id === res.json().id)).toMatchObject({ pdv_external_id: null, price: 25 });
  });

  it('a POS that saw SUCCESS reads its own changes through the cache (D24)', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.price).toBe(89.9);
    await merchantRecord(t, me); // cached now
    const status = await sync(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [{ itemId: 'P1', price: { value: 10 } }],
    });
    expect(status.status).toBe('SUCCESS');
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.price).toBe(10);
  });
});
describe('read-route budget (D23)', () => {
  it('GET /v1/merchant and GET /v1/merchantStatus share the read limit', async () => {
    const small = await createTestApp({ env: { CLEAVER_RATE_LIMIT_READ: '2' } });
    try {
      const me = await createMerchant(small.app);
      const headers = bearer(me.token);
      const first = await small.app.inject({ method: 'GET', url: '/v1/merchant', headers });
      expect(first.statusCode).toBe(200);
      const second = await small.app.inject({
        method: 'GET',
        url: `/v1/merchantStatus?merchantId=${me.merchantId}`,
        headers,
      });
      expect(second.statusCode).toBe(404);
      const third = await small.app.inject({ method: 'GET', url: '/v1/merchant', headers });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toEqual({ title: 'Too Many Requests', status: 429 });
      // Uploads are in the write group: still accepted.
      const put = await small.app.inject({
        method: 'PUT',
        url: '/v1/merchantUpdate',
        headers,
        payload: { entityType: 'ITEM', updatedObjects: [] },
      });
      expect(put.statusCode).toBe(204);
    } finally {
      await small.close();
    }
  });
});
