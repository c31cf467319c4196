import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import {
  type CatalogSpec,
  categoryByPdv,
  categoryProductPdvs,
  merchantBody,
  merchantRecord,
  operatorSyncs,
  productByPdv,
  sampleCatalog,
  sync,
  syncStatus,
  upload,
} from './catalog-helpers.js';

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
      'Categories: 2 created, 0 updated, 0 removed. Products: 3 created, 0 updated, 0 removed. Discarded: none.',
    );
  });
});

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
    expect(status.moreInfo).toBe(
      'Categories: 0 created, 2 updated, 0 removed. Products: 0 created, 3 updated, 0 removed. Discarded: none.',
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

describe('onlyAddProducts and removal rules (spec 4.3)', () => {
  async function seeded() {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    // Hand-made content: a category and a product in a POS category.
    const cat = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/categories`,
      headers: adminHeaders,
      payload: { name: 'Promoções' },
    });
    const c1 = categoryByPdv(await merchantRecord(t, me), 'C1');
    const prod = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products`,
      headers: adminHeaders,
      payload: { name: 'Carvão', price: 25, unit: 'UN', categoryId: c1?.id },
    });
    expect(prod.statusCode).toBe(201);
    return { me, handCategoryId: cat.json().id as string, handProductId: prod.json().id as string };
  }

  /** C1 now holds only P2; C2 and P1, P3 are absent; new C4 with P5. */
  function smaller(): CatalogSpec {
    return {
      categories: [
        { id: 'C1', name: 'Bovinos', itemOfferId: ['O2'] },
        { id: 'C4', name: 'Novidades', itemOfferId: ['O5'] },
      ],
      itemOffers: [
        { id: 'O2', itemId: 'P2', price: { value: 50 } },
        { id: 'O5', itemId: 'P5', price: { value: 5 } },
      ],
      items: [
        { id: 'P2', name: 'Alcatra' },
        { id: 'P5', name: 'Sal grosso' },
      ],
    };
  }

  it('onlyAddProducts true adds and updates but never unlinks or removes', async () => {
    const { me, handProductId } = await seeded();
    const status = await sync(t, me, merchantBody(smaller(), { onlyAddProducts: true }));
    expect(status.status).toBe('SUCCESS');
    expect(status.moreInfo).toContain('Categories: 1 created, 1 updated, 0 removed.');
    const r = await merchantRecord(t, me);
    expect(r.categories.map((c) => c.pdv_external_id).sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
      'C1',
      'C2',
      'C4',
      null,
    ]);
    expect(r.products.map((p) => p.pdv_external_id ?? 'hand').sort()).toEqual(['P1', 'P2', 'P3', 'P5', 'hand']);
    // Positions follow the latest upload; nothing was unlinked.
    expect(categoryProductPdvs(r, 'C1').sort()).toEqual(['P1', 'P2', handProductId].sort());
    expect(productByPdv(r, 'P2')?.price).toBe(50);
  });

  it('onlyAddProducts false replaces links and removes absent POS records, keeping hand-made content', async () => {
    const { me, handProductId, handCategoryId } = await seeded();
    await t.database.db.query(
      `INSERT INTO product_cuts (id, product_id, name, spice_id, spice_name)
       SELECT 'K1', id, 'Bife', 'S1', 'Alho' FROM products WHERE merchant_id = $1 AND pdv_external_id IN ('P1', 'P2')`,
      [me.merchantId],
    );
    const before = await merchantRecord(t, me);
    expect(productByPdv(before, 'P2')?.cuts).toEqual([{ id: 'K1', name: 'Bife', spice: { id: 'S1', name: 'Alho' } }]);
    const status = await sync(t, me, merchantBody(smaller()));
    expect(status.status).toBe('SUCCESS');
    expect(status.moreInfo).toBe(
      'Categories: 1 created, 1 updated, 1 removed. Products: 1 created, 1 updated, 2 removed. Discarded: none.',
    );
    const r = await merchantRecord(t, me);
    expect(r.categories.map((c) => c.pdv_external_id ?? c.id).sort()).toEqual(['C1', 'C4', handCategoryId].sort());
    expect(r.products.map((p) => p.pdv_external_id ?? p.id).sort()).toEqual(['P2', 'P5', handProductId].sort());
    // The hand-made product keeps its link to the POS category; P1's link went with P1.
    expect(categoryProductPdvs(r, 'C1')).toEqual(['P2', handProductId]);
    expect(productByPdv(r, 'P2')?.cuts).toHaveLength(1);
    // P1's image and cut went with it: the product is gone and nothing points at it.
    const ids = new Set(r.products.map((p) => p.id));
    for (const c of r.categories) for (const id of c.productsId) expect(ids.has(id)).toBe(true);
  });

  it('unlinks a product moved out of a category when onlyAddProducts is false', async () => {
    const me = await fresh();
    await sync(t, me, merchantBody(sampleCatalog()));
    const moved = sampleCatalog();
    moved.categories[0].itemOfferId = ['O1'];
    moved.categories[1].itemOfferId = ['O3', 'O2'];
    expect((await sync(t, me, merchantBody(moved))).status).toBe('SUCCESS');
    const r = await merchantRecord(t, me);
    expect(categoryProductPdvs(r, 'C1')).toEqual(['P1']);
    expect(categoryProductPdvs(r, 'C2')).toEqual(['P3', 'P2']);
  });

  it('removes nothing when anything in the upload is malformed', async () => {
    const { me } = await seeded();
    const spec = smaller();
    spec.items.push({ id: 'BROKEN' });
    const status = await sync(t, me, merchantBody(spec));
    expect(status.status).toBe('FAIL');
    expect(status.moreInfo).toContain('Nothing was removed: the upload had discarded objects.');
    const r = await merchantRecord(t, me);
    expect(
      r.products
        .map((p) => p.pdv_external_id)
        .filter(Boolean)
        .sort(),
    ).toEqual(['P1', 'P2', 'P3', 'P5']);
    expect(categoryProductPdvs(r, 'C1').slice(0, 2)).toEqual(['P1', 'P2']);
    expect(categoryByPdv(r, 'C2')).toBeDefined();
  });

  it('removes nothing when the upload has no valid category', async () => {
    const { me } = await seeded();
    const status = await sync(t, me, merchantBody({ categories: [{ id: 'X' }], itemOffers: [], items: [] }));
    expect(status.status).toBe('FAIL');
    const emptyStatus = await sync(t, me, merchantBody({ categories: [], itemOffers: [], items: [] }));
    expect(emptyStatus.status).toBe('SUCCESS');
    expect(emptyStatus.moreInfo).toContain('Nothing was removed: the upload had no valid category.');
    const r = await merchantRecord(t, me);
    expect(r.products.filter((p) => p.pdv_external_id).length).toBe(3);
    expect(r.categories.filter((c) => c.pdv_external_id).length).toBe(2);
  });
});

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
    expect(status.moreInfo).toContain('Products: 0 created, 1 updated, 0 removed.');
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
    expect(status.moreInfo).toContain('Products: 0 created, 2 updated, 0 removed.');
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
      moreInfo: 'Products: 0 created, 1 updated, 0 removed. Discarded: none.',
    });
  });
});

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
