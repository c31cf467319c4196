// MERCHANT uploads (spec 4.3, D17, D19): what is created, kept, updated, discarded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import {
  categoryByPdv,
  categoryProductPdvs,
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  sync,
} from '../support/catalog.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-01T12:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_BODY_LIMIT: '4096' } });
});
afterAll(() => t.close());

const fresh = () => createMerchant(t.app);

interface FeedItem {
  type: string;
  data: { status: string; counts: unknown; changedProductIds: string[] };
}

/** The merchant's catalog items on the platform feed (D36), oldest first. */
async function catalogFeed(merchantId: string): Promise<FeedItem[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/feed?kinds=catalog&merchantId=${merchantId}&limit=1000`,
    headers: adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: FeedItem[] }).items.filter((i) => i.type === 'SYNC_FINISHED');
}

describe('MERCHANT uploads (spec 4.3)', () => {
  it('creates the record: categories, products, links, media, merchant status and POS id', async () => {
    const me = await fresh();
    const status = await sync(t, me, merchantBody(sampleCatalog(), { merchantStatus: 'UNAVAILABLE' }));
    expect(status.status).toBe('SUCCESS');
    const r = await merchantRecord(t, me);
    expect(r.id).toBe(me.merchantId);
    expect(r.status).toBe('UNAVAILABLE');
    expect(r.TTL).toBe(60);
    expect(r.lastUpdate).toBe(clock.now().toISOString());
    expect(r.categories.map((c) => [c.pdv_external_id, c.name, c.index, c.status])).toEqual([
      ['C1', 'Bovinos', 0, 'AVAILABLE'],
      ['C2', 'Suínos', 1, 'AVAILABLE'],
    ]);
    expect(categoryProductPdvs(r, 'C1')).toEqual(['P1', 'P2']);
    expect(categoryProductPdvs(r, 'C2')).toEqual(['P3']);
    const p1 = productByPdv(r, 'P1');
    expect(p1).toMatchObject({
      name: 'Picanha',
      description: 'Peça inteira',
      price: 89.9,
      unit: 'KG',
      status: 'AVAILABLE',
      stock: 0,
      externalCode: '1001',
      ean: '7890000000011',
      sku: '',
      media: ['https://img.example/picanha.jpg'],
    });
    expect(p1).not.toHaveProperty('cuts');
    expect(productByPdv(r, 'P3')).toMatchObject({ price: 32, unit: 'UN', status: 'UNAVAILABLE', media: [] });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
    });
    expect(detail.json().pdvExternalId).toBe('STORE-1');
    expect(detail.json().lastCatalogSync).toMatchObject({
      status: 'SUCCESS',
      source: 'UPLOAD',
      entityType: 'MERCHANT',
    });
  });

  it('keeps name, description, unit and category index from creation; updates price, status, codes, category name and status', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    const second = sampleCatalog();
    second.categories[0] = { ...second.categories[0], name: 'Carnes bovinas', index: 7, status: 'UNAVAILABLE' };
    second.items[0] = {
      ...second.items[0],
      name: 'Picanha renamed',
      description: 'changed',
      unit: 'UN',
      externalCode: '2001',
      ean: '789',
      image: { url: 'https://img.example/new.jpg' },
    };
    second.itemOffers[0] = { ...second.itemOffers[0], price: { value: 99.99 }, status: 'UNAVAILABLE' };
    const status = await sync(t, me, merchantBody(second));
    expect(status.status).toBe('SUCCESS');
    // Only C1 and P1 changed: the others were matched and left as they were.
    expect(status.moreInfo).toBe(
      'Categories: 0 created, 1 updated, 1 unchanged, 0 removed. Products: 0 created, 1 updated, 2 unchanged, 0 removed. Discarded: none.',
    );
    const r = await merchantRecord(t, me);
    expect(categoryByPdv(r, 'C1')).toMatchObject({ name: 'Carnes bovinas', index: 0, status: 'UNAVAILABLE' });
    expect(productByPdv(r, 'P1')).toMatchObject({
      name: 'Picanha',
      description: 'Peça inteira',
      unit: 'KG',
      price: 99.99,
      status: 'UNAVAILABLE',
      externalCode: '2001',
      ean: '789',
      media: ['https://img.example/new.jpg'],
    });
  });

  it('reports what changed: an identical re-push is all unchanged; one new price is 1 updated (moreInfo, catalogSyncs, feed)', async () => {
    const me = await fresh();
    const first = await sync(t, me, merchantBody(sampleCatalog()));
    expect(first.moreInfo).toBe(
      'Categories: 2 created, 0 updated, 0 unchanged, 0 removed. Products: 3 created, 0 updated, 0 unchanged, 0 removed. Discarded: none.',
    );
    const idOf = (r: Awaited<ReturnType<typeof merchantRecord>>, pdv: string) => productByPdv(r, pdv)?.id;
    const record = await merchantRecord(t, me);
    expect((await catalogFeed(me.merchantId)).at(-1)?.data.changedProductIds).toEqual(
      ['P1', 'P2', 'P3'].map((pdv) => idOf(record, pdv)).sort(),
    );

    clock.advance(1000);
    const again = await sync(t, me, merchantBody(sampleCatalog()));
    expect(again).toMatchObject({ status: 'SUCCESS' });
    expect(again.moreInfo).toBe(
      'Categories: 0 created, 0 updated, 2 unchanged, 0 removed. Products: 0 created, 0 updated, 3 unchanged, 0 removed. Discarded: none.',
    );
    const unchangedCounts = {
      categories: { created: 0, updated: 0, unchanged: 2, removed: 0 },
      products: { created: 0, updated: 0, unchanged: 3, removed: 0 },
    };
    expect((await operatorSyncs(t, me.merchantId))[0].details).toMatchObject({ counts: unchangedCounts });
    expect((await catalogFeed(me.merchantId)).at(-1)?.data).toMatchObject({
      status: 'SUCCESS',
      counts: unchangedCounts,
      changedProductIds: [],
    });

    clock.advance(1000);
    const cheaper = sampleCatalog();
    cheaper.itemOffers[1] = { ...cheaper.itemOffers[1], price: { value: 49.9 } };
    const priced = await sync(t, me, merchantBody(cheaper));
    expect(priced.moreInfo).toBe(
      'Categories: 0 created, 0 updated, 2 unchanged, 0 removed. Products: 0 created, 1 updated, 2 unchanged, 0 removed. Discarded: none.',
    );
    const pricedCounts = {
      categories: { created: 0, updated: 0, unchanged: 2, removed: 0 },
      products: { created: 0, updated: 1, unchanged: 2, removed: 0 },
    };
    expect((await operatorSyncs(t, me.merchantId))[0].details).toMatchObject({ counts: pricedCounts });
    expect((await catalogFeed(me.merchantId)).at(-1)?.data).toMatchObject({
      counts: pricedCounts,
      changedProductIds: [idOf(record, 'P2')],
    });
    expect(productByPdv(await merchantRecord(t, me), 'P2')?.price).toBe(49.9);

    // An image alone changes its product; a product moved between categories changes both.
    clock.advance(1000);
    const moved = structuredClone(cheaper);
    moved.items[2] = { ...moved.items[2], image: { url: 'https://img.example/linguica.jpg' } };
    moved.categories[0].itemOfferId = ['O1'];
    moved.categories[1].itemOfferId = ['O3', 'O2'];
    const movedStatus = await sync(t, me, merchantBody(moved));
    expect(movedStatus.moreInfo).toBe(
      'Categories: 0 created, 2 updated, 0 unchanged, 0 removed. Products: 0 created, 1 updated, 2 unchanged, 0 removed. Discarded: none.',
    );
    expect((await catalogFeed(me.merchantId)).at(-1)?.data.changedProductIds).toEqual([idOf(record, 'P3')]);

    // The same catalog once more, onlyAddProducts true: nothing to change either.
    clock.advance(1000);
    const onlyAdd = await sync(t, me, merchantBody(moved, { onlyAddProducts: true }));
    expect(onlyAdd.moreInfo).toBe(
      'Categories: 0 created, 0 updated, 2 unchanged, 0 removed. Products: 0 created, 0 updated, 3 unchanged, 0 removed. Discarded: none.',
    );
  });

  it('uses the category index only at creation and the payload position when index is absent', async () => {
    const me = await fresh();
    const spec = sampleCatalog();
    delete spec.categories[1].index;
    await sync(t, me, merchantBody(spec));
    expect(categoryByPdv(await merchantRecord(t, me), 'C2')?.index).toBe(1);
  });

  it('discards and reports broken chains and malformed objects, applies the rest, and ends FAIL', async () => {
    const me = await fresh();
    const spec = sampleCatalog();
    spec.categories.push(
      { name: 'No id', itemOfferId: ['O1'] },
      { id: 'C9', itemOfferId: ['O1'] },
      { id: 'C3', name: 'Aves', itemOfferId: ['O4', 'O5', 'O6', 'GHOST'] },
    );
    spec.itemOffers.push(
      { id: 'O4', itemId: 'P4', price: {} },
      { id: 'O5', itemId: 'NOPE', price: { value: 10 } },
      { id: 'O6', itemId: 'P6', price: { value: 12 } },
      { itemId: 'P2', price: { value: 1 } },
    );
    spec.items.push({ id: 'P4', name: 'Frango' }, { id: 'P6', description: 'no name' });
    const status = await sync(t, me, merchantBody(spec));
    expect(status.status).toBe('FAIL');
    const info = status.moreInfo ?? '';
    expect(info).toContain('Categories: 3 created');
    expect(info).toContain('Products: 3 created');
    expect(info).toContain('category (categories[2]): id is missing');
    expect(info).toContain('category "C9" (categories[3]): name is missing');
    expect(info).toContain('itemOffer "O4" (itemOffers[3]): price.value is missing');
    expect(info).toContain('itemOffer "O5" (itemOffers[4]): itemId "NOPE" matches no item');
    expect(info).toContain('item "P6" (items[4]): name is missing');
    expect(info).toContain('itemOffer "O6" (itemOffers[5]): item "P6" was discarded');
    expect(info).toContain('itemOffer (itemOffers[6]): id is missing: no category can reach it');
    expect(info).toContain('category link "C3" (categories[4]): itemOfferId[3] "GHOST" matches no itemOffer');
    expect(info).toContain('item "P4" (items[3]): no itemOffer in a valid category reaches it');
    const r = await merchantRecord(t, me);
    expect(r.categories.map((c) => c.pdv_external_id).sort()).toEqual(['C1', 'C2', 'C3']);
    expect(r.products.map((p) => p.pdv_external_id).sort()).toEqual(['P1', 'P2', 'P3']);
    expect(categoryProductPdvs(r, 'C3')).toEqual([]);
    const [latest] = await operatorSyncs(t, me.merchantId);
    const details = latest.details as { counts: { discarded: Record<string, number> }; discarded: unknown[] };
    expect(details.counts.discarded).toEqual({ updatedObjects: 0, categories: 2, itemOffers: 4, items: 2, links: 1 });
    expect(details.discarded).toContainEqual({
      kind: 'itemOffers',
      id: 'O4',
      index: 3,
      reason: 'price.value is missing',
    });
  });

  it('turns a text serving into 0 instead of discarding the item', async () => {
    const me = await fresh();
    const spec = sampleCatalog();
    spec.items[2] = { ...spec.items[2], serving: 'four people' };
    expect((await sync(t, me, merchantBody(spec))).status).toBe('SUCCESS');
    expect(productByPdv(await merchantRecord(t, me), 'P3')).toBeDefined();
  });

  it('processes nothing when updatedObjects[0] has no id (spec 3.2)', async () => {
    const me = await fresh();
    const body = merchantBody(sampleCatalog(), { merchantStatus: 'UNAVAILABLE' });
    delete (body.updatedObjects as Array<Record<string, unknown>>)[0].id;
    const status = await sync(t, me, body);
    expect(status).toMatchObject({
      status: 'FAIL',
      moreInfo: 'updatedObjects[0].id is missing: nothing was processed',
    });
    const r = await merchantRecord(t, me);
    expect(r.status).toBe('AVAILABLE');
    expect(r.categories).toEqual([]);
    expect(r.products).toEqual([]);
  });

  it('never writes stock', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    await t.database.db.query(`UPDATE products SET stock = 12.5 WHERE pdv_external_id = 'P1' AND merchant_id = $1`, [
      me.merchantId,
    ]);
    const spec = sampleCatalog();
    spec.items[0] = { ...spec.items[0], stock: 99 };
    (spec.itemOffers[0] as Record<string, unknown>).stock = 99;
    await sync(t, me, merchantBody(spec));
    expect(productByPdv(await merchantRecord(t, me), 'P1')?.stock).toBe(12.5);
  });
});
