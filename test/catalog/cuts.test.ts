// D37: cuts and spices through the operator API, in GET /v1/merchant for both profiles (spec
// 2.5: `cuts` absent when none), and the removal rule of spec 4.3: the upload never writes or
// removes cuts, except that a product the upload removes takes its cuts with it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPos, createKey } from '../opendelivery/od-support.js';
import { merchantBody, merchantRecord, productByPdv, sampleCatalog, sync } from '../support/catalog.js';
import { expectError } from '../support/expect-error.js';
import { createProduct } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The first answer compiles the contract's validators: a warm-up here keeps it out of a test's time.
  await t.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: adminHeaders });
});
afterAll(() => t.close());

const cutsUrl = (merchantId: string, productId: string) =>
  `/admin/v1/merchants/${merchantId}/products/${productId}/cuts`;

function addCut(t: TestApp, merchantId: string, productId: string, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: cutsUrl(merchantId, productId),
    headers: adminHeaders,
    payload: payload as object,
  });
}

describe('operator API: add, list, remove (D37)', () => {
  it('adds cuts with and without ids and spices, lists them on the product, removes one', async () => {
    const me = await createMerchant(t.app);
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const steak = await addCut(t, me.merchantId, picanha.id, {
      id: 'bife',
      name: ' Bife ',
      spice: { id: 'alho', name: 'Alho' },
    });
    expect(steak.statusCode, steak.body).toBe(201);
    expect(steak.json()).toEqual({ id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } });
    const whole = await addCut(t, me.merchantId, picanha.id, { name: 'Peça inteira' });
    expect(whole.statusCode).toBe(201);
    expect(whole.json()).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Peça inteira', spice: null });
    const seasoned = await addCut(t, me.merchantId, picanha.id, { name: 'Cubos', spice: { name: 'Sal grosso' } });
    expect(seasoned.json().spice).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Sal grosso' });

    const product = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${me.merchantId}/products/${picanha.id}`,
      headers: adminHeaders,
    });
    expect(product.statusCode).toBe(200);
    expect(product.json()).toMatchObject({ id: picanha.id, name: 'Picanha', price: 89.9, unit: 'KG' });
    expect(product.json().cuts).toEqual([steak.json(), whole.json(), seasoned.json()]);
    const list = await t.app.inject({ method: 'GET', url: cutsUrl(me.merchantId, picanha.id), headers: adminHeaders });
    expect(list.json()).toEqual([steak.json(), whole.json(), seasoned.json()]);

    const removed = await t.app.inject({
      method: 'DELETE',
      url: `${cutsUrl(me.merchantId, picanha.id)}/bife`,
      headers: adminHeaders,
    });
    expect(removed.statusCode).toBe(204);
    const after = await t.app.inject({ method: 'GET', url: cutsUrl(me.merchantId, picanha.id), headers: adminHeaders });
    expect(after.json()).toEqual([whole.json(), seasoned.json()]);
    // A cut as it reads back, `spice: null` and all, is accepted as it is.
    const plain = await addCut(t, me.merchantId, picanha.id, { id: 'moida', name: 'Moída', spice: null });
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toEqual({ id: 'moida', name: 'Moída', spice: null });
    const again = await t.app.inject({
      method: 'DELETE',
      url: `${cutsUrl(me.merchantId, picanha.id)}/bife`,
      headers: adminHeaders,
    });
    expectError(again, 404, 'Cut not found');
  });

  it('answers 400 naming the field, 404 for an unknown product, 409 for a repeated id', async () => {
    const me = await createMerchant(t.app);
    const p = await createProduct(t.app, me.merchantId, { name: 'Fraldinha', price: 54.9, unit: 'KG' });
    expectError(await addCut(t, me.merchantId, p.id, {}), 400, 'name is required');
    expectError(await addCut(t, me.merchantId, p.id, { name: '   ' }), 400, 'name must not be empty');
    expectError(await addCut(t, me.merchantId, p.id, { name: 'Bife', spice: {} }), 400, 'spice.name is required');
    expectError(
      await addCut(t, me.merchantId, p.id, { name: 'Bife', spice: { name: ' ' } }),
      400,
      'spice.name must not be empty',
    );
    expectError(
      await addCut(t, me.merchantId, p.id, { name: 'Bife', id: '' }),
      400,
      'id must NOT have fewer than 1 characters',
    );

    const other = await createMerchant(t.app, 'Outro açougue');
    const foreign = await createProduct(t.app, other.merchantId, { name: 'Cupim', price: 40, unit: 'KG' });
    expectError(await addCut(t, me.merchantId, foreign.id, { name: 'Bife' }), 404, 'Product not found');
    expectError(
      await addCut(t, me.merchantId, '00000000-0000-4000-8000-000000000000', { name: 'Bife' }),
      404,
      'Product not found',
    );
    expectError(
      await t.app.inject({
        method: 'GET',
        url: `/admin/v1/merchants/${me.merchantId}/products/${foreign.id}`,
        headers: adminHeaders,
      }),
      404,
      'Product not found',
    );

    expect((await addCut(t, me.merchantId, p.id, { id: 'tiras', name: 'Tiras' })).statusCode).toBe(201);
    expectError(
      await addCut(t, me.merchantId, p.id, { id: 'tiras', name: 'Tiras finas' }),
      409,
      'The product already has a cut with id tiras',
    );
    // The same id on another product is another cut.
    const q = await createProduct(t.app, me.merchantId, { name: 'Maminha', price: 45, unit: 'KG' });
    expect((await addCut(t, me.merchantId, q.id, { id: 'tiras', name: 'Tiras' })).statusCode).toBe(201);
  });
});

describe('GET /v1/merchant lists cuts on their product, in both profiles (spec 2.5, D37)', () => {
  it('shows cuts where a product has them and leaves `cuts` out where it has none', async () => {
    const me = await createMerchant(t.app);
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const carvao = await createProduct(t.app, me.merchantId, { name: 'Carvão', price: 25, unit: 'UN' });
    await addCut(t, me.merchantId, picanha.id, { id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } });
    await addCut(t, me.merchantId, picanha.id, { id: 'inteira', name: 'Peça inteira' });
    const od = await connectPos(t.app, await createKey(t.app, me.merchantId, 'opendelivery'));

    const fromCleaver = await merchantRecord(t, me);
    const odAnswer = await od.get('/v1/merchant');
    expect(odAnswer.statusCode).toBe(200);
    for (const record of [fromCleaver, odAnswer.json()]) {
      const byId = new Map(record.products.map((p: { id: string }) => [p.id, p]));
      expect(byId.get(picanha.id)).toMatchObject({
        cuts: [
          { id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } },
          { id: 'inteira', name: 'Peça inteira', spice: null },
        ],
      });
      expect(byId.get(carvao.id)).not.toHaveProperty('cuts');
    }

    // A removal shows at once: the catalog version moves, so no process serves the cached record (D24).
    await t.app.inject({ method: 'DELETE', url: `${cutsUrl(me.merchantId, picanha.id)}/bife`, headers: adminHeaders });
    await t.app.inject({
      method: 'DELETE',
      url: `${cutsUrl(me.merchantId, picanha.id)}/inteira`,
      headers: adminHeaders,
    });
    const after = await merchantRecord(t, me);
    expect(after.products.find((p) => p.id === picanha.id)).not.toHaveProperty('cuts');
  });
});

describe('catalog uploads and cuts (spec 4.3, D37)', () => {
  it('an upload keeps the cuts of the products it updates and removes those of the products it removes', async () => {
    const me = await createMerchant(t.app);
    await sync(t, me, merchantBody(sampleCatalog()));
    const record = await merchantRecord(t, me);
    const p1 = productByPdv(record, 'P1')?.id as string;
    const p2 = productByPdv(record, 'P2')?.id as string;
    expect((await addCut(t, me.merchantId, p1, { id: 'bife', name: 'Bife' })).statusCode).toBe(201);
    expect((await addCut(t, me.merchantId, p2, { id: 'tiras', name: 'Tiras' })).statusCode).toBe(201);

    // ITEM and ITEM_OFFER uploads update P1 and P2: their cuts stay.
    await sync(t, me, { entityType: 'ITEM', updatedObjects: [{ id: 'P1', ean: '7890000000099' }] });
    await sync(t, me, {
      entityType: 'ITEM_OFFER',
      updatedObjects: [{ itemId: 'P2', price: { value: 60 }, status: 'AVAILABLE' }],
    });
    const updated = await merchantRecord(t, me);
    expect(productByPdv(updated, 'P1')?.cuts).toEqual([{ id: 'bife', name: 'Bife', spice: null }]);
    expect(productByPdv(updated, 'P2')?.cuts).toEqual([{ id: 'tiras', name: 'Tiras', spice: null }]);

    // A MERCHANT upload without P2 removes it, and its cuts with it; P1 keeps its cut.
    const catalog = sampleCatalog();
    catalog.categories[0].itemOfferId = ['O1'];
    catalog.itemOffers = catalog.itemOffers.filter((o) => o.id !== 'O2');
    catalog.items = catalog.items.filter((i) => i.id !== 'P2');
    expect((await sync(t, me, merchantBody(catalog))).status).toBe('SUCCESS');
    const after = await merchantRecord(t, me);
    expect(productByPdv(after, 'P2')).toBeUndefined();
    expect(productByPdv(after, 'P1')?.cuts).toEqual([{ id: 'bife', name: 'Bife', spice: null }]);
    const { rows } = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM product_cuts WHERE product_id = $1',
      [p2],
    );
    expect(rows[0].n).toBe(0);
  });
});
