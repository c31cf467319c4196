// PUT /v1/merchantUpdate's envelope (spec 4.3) and GET /v1/merchantStatus (spec 4.4, D16, D21).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { merchantBody, sampleCatalog, sync, syncStatus, upload } from '../support/catalog.js';
import { bearer, createMerchant, createTestApp, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_BODY_LIMIT: '4096' } });
});
afterAll(() => t.close());

const fresh = () => createMerchant(t.app);

describe('PUT /v1/merchantUpdate envelope (spec 4.3)', () => {
  let me: MerchantCredentials;
  beforeAll(async () => {
    me = await fresh();
  });

  const put = (payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'PUT',
      url: '/v1/merchantUpdate',
      headers: { ...bearer(me.token), ...headers },
      payload: payload as string,
    });

  it.each([
    [{ updatedObjects: [] }, 'entityType is required'],
    [{ entityType: 'PRODUCT', updatedObjects: [] }, 'entityType must be one of MERCHANT, ITEM, ITEM_OFFER'],
    [
      { entityType: 'MERCHANT', updatedObjects: [{ id: 'S' }] },
      'merchantStatus is required when entityType is MERCHANT',
    ],
    [
      { entityType: 'MERCHANT', merchantStatus: 'OPEN', updatedObjects: [{ id: 'S' }] },
      'merchantStatus must be one of AVAILABLE, UNAVAILABLE',
    ],
    [{ entityType: 'ITEM' }, 'updatedObjects is required'],
    [{ entityType: 'ITEM', updatedObjects: { id: 'x' } }, 'updatedObjects must be array'],
    [{ entityType: 'ITEM', updatedObjects: [], onlyAddProducts: 'yes' }, 'onlyAddProducts must be boolean'],
  ])('400 for %j', async (payload, title) => {
    const res = await put(payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title, status: 400 });
  });

  it('refuses a body that is not JSON, and one over the upload limit, with nothing queued', async () => {
    const notJson = await put('{"entityType":', { 'content-type': 'application/json' });
    expect(notJson.statusCode).toBe(400);
    expect(notJson.json()).toEqual({ title: 'Body is not valid JSON', status: 400 });
    const big = await put({ entityType: 'ITEM', updatedObjects: [{ id: 'x', ean: 'e'.repeat(20_000) }] });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ title: 'Request body is too large', status: 413 });
    const status = await t.app.inject({
      method: 'GET',
      url: `/v1/merchantStatus?merchantId=${me.merchantId}`,
      headers: bearer(me.token),
    });
    expect(status.statusCode).toBe(404);
    expect(status.json()).toEqual({ title: 'No catalog sync found', status: 404 });
  });

  it('accepts and ignores merchantStatus for ITEM and ITEM_OFFER, and does not validate inner objects', async () => {
    await upload(t, me, { entityType: 'ITEM', merchantStatus: 'NONSENSE', updatedObjects: [] });
    await upload(t, me, { entityType: 'ITEM_OFFER', merchantStatus: 42, updatedObjects: [42, 'x', null] });
    const status = await syncStatus(t, me);
    expect(status.status).toBe('PROCESSING');
    expect(status.moreInfo).toBeNull();
    await t.services.catalog.worker.drain();
    const done = await syncStatus(t, me);
    expect(done.status).toBe('FAIL');
    expect(done.moreInfo).toContain('itemOffer (itemOffers[0]): not an object');
  });
});
describe('GET /v1/merchantStatus (spec 4.4, D16, D21)', () => {
  it('404 before any upload, 404 for another merchant, 400 naming merchantId', async () => {
    const me = await fresh();
    const other = await fresh();
    const get = (query: string) =>
      t.app.inject({ method: 'GET', url: `/v1/merchantStatus${query}`, headers: bearer(me.token) });
    let res = await get(`?merchantId=${me.merchantId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ title: 'No catalog sync found', status: 404 });
    await sync(t, other, merchantBody(sampleCatalog()));
    res = await get(`?merchantId=${other.merchantId}`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ title: 'Merchant not found', status: 404 });
    res = await get('');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ title: 'merchantId is required (query)', status: 400 });
    res = await get('?merchantId=not-a-uuid');
    expect(res.statusCode).toBe(400);
    expect(res.json().title).toMatch(/^merchantId /);
    expect(res.json().status).toBe(400);
  });

  it('shows PROCESSING from the 204 on, then SUCCESS with counts and lastRead', async () => {
    const me = await fresh();
    await upload(t, me, merchantBody(sampleCatalog()));
    const processing = await syncStatus(t, me);
    expect(processing).toEqual({ status: 'PROCESSING', lastRead: clock.now().toISOString(), moreInfo: null });
    clock.advance(1000);
    expect(await t.services.catalog.worker.drain()).toBe(1);
    const done = await syncStatus(t, me);
    expect(done.status).toBe('SUCCESS');
    expect(done.lastRead).toBe(clock.now().toISOString());
    expect(done.moreInfo).toBe(
      'Categories: 2 created, 0 updated, 0 unchanged, 0 removed. Products: 3 created, 0 updated, 0 unchanged, 0 removed. Discarded: none.',
    );
  });
});
