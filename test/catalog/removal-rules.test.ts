// onlyAddProducts and the removal rules of spec 4.3.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import {
  type CatalogSpec,
  categoryByPdv,
  categoryProductPdvs,
  merchantBody,
  merchantRecord,
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
    expect(status.moreInfo).toContain('Categories: 1 created, 1 updated, 0 unchanged, 0 removed.');
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
      'Categories: 1 created, 1 updated, 0 unchanged, 1 removed. Products: 1 created, 1 updated, 0 unchanged, 2 removed. Discarded: none.',
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
