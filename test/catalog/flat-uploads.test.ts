// ITEM and ITEM_OFFER uploads (D18): existing products only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { merchantBody, merchantRecord, productByPdv, sampleCatalog, sync } from '../support/catalog.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_BODY_LIMIT: '4096' } });
});
afterAll(() => t.close());

const fresh = () => createMerchant(t.app);

describe('ITEM and ITEM_OFFER uploads (D18)', () => {
  it('ITEM updates codes and image of existing products, ignores creation-only fields, reports unknown ids', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    const status = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P2', name: 'Ignored', unit: 'UN', ean: '111', externalCode: '9', image: { url: 'https://i/p2.png' } },
        { id: 'UNKNOWN', ean: '1' },
        { id: 'P3', ean: 5 },
      ],
    });
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toContain('Products: 0 created, 1 updated, 0 unchanged, 0 removed.');
    expect(status.moreInfo).toContain('item "UNKNOWN" (items[1]): no product has this pdv_external_id');
    expect(status.moreInfo).toContain('item "P3" (items[2]): ean must be a string');
    const p2 = productByPdv(await merchantRecord(t, me), 'P2');
    expect(p2).toMatchObject({
      name: 'Alcatra',
      unit: 'KG',
      ean: '111',
      externalCode: '9',
      media: ['https://i/p2.png'],
    });
    // The same values again change nothing; a new image alone is a change.
    const same = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P2', ean: '111', externalCode: '9', image: { url: 'https://i/p2.png' } },
        { id: 'P1', ean: '7890000000011' },
      ],
    });
    expect(same).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Products: 0 created, 0 updated, 2 unchanged, 0 removed. Discarded: none.',
    });
    const image = await sync(t, me, {
      entityType: 'ITEM',
      updatedObjects: [
        { id: 'P2', ean: '111', image: { url: 'https://i/p2-new.png' } },
        { id: 'P1', ean: '7890000000011' },
      ],
    });
    expect(image.moreInfo).toBe('Products: 0 created, 1 updated, 1 unchanged, 0 removed. Discarded: none.');
  });

  it('ITEM with a first entry lacking id processes nothing', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    const status = await sync(t, me, { entityType: 'ITEM', updatedObjects: [{ ean: '1' }, { id: 'P1', ean: '2' }] });
    expect(status).toMatchObject({
      status: 'FAIL',
      moreInfo: 'updatedObjects[0].id is missing: nothing was processed',
    });
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.ean).toBe('7890000000011');
  });

  it('ITEM_OFFER sets price and availability by itemId; unknown itemId is discarded', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    const status = await sync(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        { itemId: 'P1', price: { value: 70.5 }, status: 'UNAVAILABLE' },
        { itemId: 'P3', status: 'AVAILABLE' },
        { itemId: 'P2', price: { value: 'ten' } },
        { itemId: 'GONE', price: { value: 1 } },
      ],
    });
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toContain('Products: 0 created, 2 updated, 0 unchanged, 0 removed.');
    expect(status.moreInfo).toContain('itemOffer "P2" (itemOffers[2]): price.value must be a number');
    expect(status.moreInfo).toContain('itemOffer "GONE" (itemOffers[3]): no product has this pdv_external_id');
    const r = await merchantRecord(t, me);
    expect(productByPdv(r, 'P1')).toMatchObject({ price: 70.5, status: 'UNAVAILABLE' });
    expect(productByPdv(r, 'P3')).toMatchObject({ price: 32, status: 'AVAILABLE' });
    expect(productByPdv(r, 'P2')).toMatchObject({ price: 54.5 });
    const clean = await sync(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [{ itemId: 'P2', price: { value: 1 } }],
    });
    expect(clean).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Products: 0 created, 1 updated, 0 unchanged, 0 removed. Discarded: none.',
    });
    const again = await sync(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [
        { itemId: 'P2', price: { value: 1 } },
        { itemId: 'P1', status: 'UNAVAILABLE' },
      ],
    });
    expect(again).toMatchObject({
      status: 'SUCCESS',
      moreInfo: 'Products: 0 created, 0 updated, 2 unchanged, 0 removed. Discarded: none.',
    });
  });
});
