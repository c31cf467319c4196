// The marketplace follows a merchant's catalog (D36, D37; docs/platform-feed.md, "Following a
// merchant's catalog"): GET /admin/v1/merchants/{merchantId}/products lists every product by name
// with its cuts, a page at a time with the Link header, searchable by q; the feed's catalog items
// then carry every change: SYNC_FINISHED names the products removed as well as those changed, and
// a cut added or removed and a product or category made by hand each write an item.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchantBody, merchantRecord, productByPdv, sampleCatalog, sync } from '../support/catalog.js';
import { expectError } from '../support/expect-error.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Listed {
  id: string;
  pdv_external_id: string | null;
  name: string;
  price: number;
  unit: string;
  status: string;
  externalCode: string;
  cuts: { id: string; name: string; spice: { id: string; name: string } | null }[];
}

interface Item {
  type: string;
  data: Record<string, unknown>;
}

async function catalogItems(merchantId: string): Promise<Item[]> {
  const res = await t.app.inject({
    url: `/admin/v1/feed?kinds=catalog&merchantId=${merchantId}&limit=1000`,
    headers: adminHeaders,
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { items: Item[] }).items;
}

async function post(url: string, payload: Record<string, unknown>): Promise<{ id: string }> {
  const res = await t.app.inject({ method: 'POST', url, headers: adminHeaders, payload });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('following a catalog: the product list and the catalog feed items', () => {
  it('lists products by name with their cuts, a page at a time through Link, and finds them by q', async () => {
    const me = await createMerchant(t.app);
    expect((await sync(t, me, merchantBody(sampleCatalog()))).status).toBe('SUCCESS');
    const picanha = productByPdv(await merchantRecord(t, me), 'P1')?.id as string;
    const base = `/admin/v1/merchants/${me.merchantId}`;
    await post(`${base}/products/${picanha}/cuts`, { id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } });
    const costela = await post(`${base}/products`, { name: 'Costela', price: 39.9, unit: 'KG' });

    const names: string[] = [];
    let url: string | undefined = `${base}/products?limit=3`;
    const pages: Listed[][] = [];
    while (url) {
      const res: { statusCode: number; body: string; headers: Record<string, unknown>; json(): unknown } =
        await t.app.inject({ url, headers: adminHeaders });
      expect(res.statusCode, res.body).toBe(200);
      const items = res.json() as Listed[];
      pages.push(items);
      names.push(...items.map((p) => p.name));
      url = /^<([^>]+)>; rel="next"$/.exec(String(res.headers.link ?? ''))?.[1];
    }
    expect(pages.map((p) => p.length)).toEqual([3, 1]);
    expect(names).toEqual(['Alcatra', 'Costela', 'Linguiça', 'Picanha']);
    const all = pages.flat();
    expect(all.find((p) => p.name === 'Picanha')).toMatchObject({
      id: picanha,
      pdv_external_id: 'P1',
      price: 89.9,
      unit: 'KG',
      status: 'AVAILABLE',
      externalCode: '1001',
      cuts: [{ id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } }],
    });
    expect(all.find((p) => p.name === 'Costela')).toMatchObject({ id: costela.id, pdv_external_id: null, cuts: [] });

    const found = await t.app.inject({ url: `${base}/products?q=pica`, headers: adminHeaders });
    expect(found.statusCode).toBe(200);
    expect((found.json() as Listed[]).map((p) => p.name)).toEqual(['Picanha']);
    expect(found.headers.link).toBeUndefined();
    const byPdv = await t.app.inject({ url: `${base}/products?q=P3`, headers: adminHeaders });
    expect((byPdv.json() as Listed[]).map((p) => p.name)).toEqual(['Linguiça']);
  });

  it('refuses a bad cursor or limit naming it, and an unknown merchant with 404', async () => {
    const me = await createMerchant(t.app);
    const base = `/admin/v1/merchants/${me.merchantId}/products`;
    expectError(await t.app.inject({ url: `${base}?cursor=nope`, headers: adminHeaders }), 400, 'cursor is not valid');
    const limit = await t.app.inject({ url: `${base}?limit=0`, headers: adminHeaders });
    expect(limit.statusCode).toBe(400);
    expect(limit.json()).toMatchObject({ status: 400, title: expect.stringContaining('limit') });
    expectError(
      await t.app.inject({
        url: '/admin/v1/merchants/00000000-0000-4000-8000-000000000000/products',
        headers: adminHeaders,
      }),
      404,
      'Merchant not found',
    );
  });

  it('SYNC_FINISHED names removed products; cuts and hand-made products and categories write their items', async () => {
    const me = await createMerchant(t.app);
    await sync(t, me, merchantBody(sampleCatalog()));
    const record = await merchantRecord(t, me);
    const [p1, p3] = [productByPdv(record, 'P1')?.id as string, productByPdv(record, 'P3')?.id as string];
    const base = `/admin/v1/merchants/${me.merchantId}`;

    // A full catalog without P3: P3 goes, and the item says so.
    const smaller = sampleCatalog();
    smaller.categories[1].itemOfferId = [];
    smaller.itemOffers.pop();
    smaller.items.pop();
    expect((await sync(t, me, merchantBody(smaller))).status).toBe('SUCCESS');

    await post(`${base}/products/${p1}/cuts`, { id: 'bife', name: 'Bife' });
    await post(`${base}/products/${p1}/cuts`, { id: 'cubos', name: 'Cubos', spice: { id: 'alho', name: 'Alho' } });
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${base}/products/${p1}/cuts/bife`,
      headers: adminHeaders,
    });
    expect(removed.statusCode).toBe(204);
    const category = await post(`${base}/categories`, { name: 'Promoções' });
    const product = await post(`${base}/products`, { name: 'Costela', price: 39.9, unit: 'KG' });

    const items = await catalogItems(me.merchantId);
    expect(items.map((i) => i.type)).toEqual([
      'SYNC_FINISHED',
      'SYNC_FINISHED',
      'CUTS_CHANGED',
      'CUTS_CHANGED',
      'CUTS_CHANGED',
      'CATEGORY_CHANGED',
      'PRODUCT_CHANGED',
    ]);
    expect(items[0].data).toMatchObject({ removedProductIds: [] });
    expect(items[1].data).toMatchObject({ status: 'SUCCESS', changedProductIds: [], removedProductIds: [p3] });
    const cubos = { id: 'cubos', name: 'Cubos', spice: { id: 'alho', name: 'Alho' } };
    expect(items.slice(2, 5).map((i) => i.data)).toEqual([
      { productId: p1, change: 'ADDED', cutId: 'bife', cuts: [{ id: 'bife', name: 'Bife', spice: null }] },
      { productId: p1, change: 'ADDED', cutId: 'cubos', cuts: [{ id: 'bife', name: 'Bife', spice: null }, cubos] },
      { productId: p1, change: 'REMOVED', cutId: 'bife', cuts: [cubos] },
    ]);
    expect(items[5].data).toEqual({ categoryId: category.id, change: 'CREATED', by: 'operator' });
    expect(items[6].data).toEqual({ productId: product.id, change: 'CREATED', by: 'operator' });

    // A refused cut (its id taken) writes nothing.
    const again = await t.app.inject({
      method: 'POST',
      url: `${base}/products/${p1}/cuts`,
      headers: adminHeaders,
      payload: { id: 'cubos', name: 'Cubos' },
    });
    expectError(again, 409, 'The product already has a cut with id cubos');
    expect(await catalogItems(me.merchantId)).toHaveLength(7);
  });
});

describe('the product list shows availability and stock (D43)', () => {
  it('shows each product available or paused with its reason and until, and its counted stock', async () => {
    const me = await createMerchant(t.app);
    expect((await sync(t, me, merchantBody(sampleCatalog()))).status).toBe('SUCCESS');
    const record = await merchantRecord(t, me);
    const picanha = productByPdv(record, 'P1')?.id as string;
    const alcatra = productByPdv(record, 'P2')?.id as string;
    const base = `/admin/v1/merchants/${me.merchantId}`;
    const until = new Date(Date.now() + 3_600_000).toISOString();
    const set = await t.app.inject({
      method: 'POST',
      url: `${base}/availability`,
      headers: adminHeaders,
      payload: {
        items: [
          { productId: picanha, available: false, reason: 'QUALITY', until },
          { productId: alcatra, available: true, stock: { quantity: 12.5 } },
        ],
      },
    });
    expect(set.statusCode, set.body).toBe(200);
    const res = await t.app.inject({ url: `${base}/products`, headers: adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    const byId = new Map((res.json() as (Listed & { availability: unknown })[]).map((p) => [p.id, p.availability]));
    expect(byId.get(picanha)).toEqual({
      productId: picanha,
      pdvId: 'P1',
      available: false,
      reason: 'QUALITY',
      until,
      stock: null,
    });
    expect(byId.get(alcatra)).toEqual({
      productId: alcatra,
      pdvId: 'P2',
      available: true,
      reason: null,
      until: null,
      stock: { quantity: 12.5 },
    });
    const untouched = [...byId.entries()].filter(([id]) => id !== picanha && id !== alcatra);
    expect(untouched.length).toBeGreaterThan(0);
    for (const [id, a] of untouched) {
      expect(a).toMatchObject({ productId: id, reason: null, until: null, stock: null });
    }
  });
});
