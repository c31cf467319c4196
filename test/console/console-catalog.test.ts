// Catalog and sandbox in the console: what the POS uploaded (and what was discarded, and why),
// products made by hand, and an order placed from the catalog.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { merchantBody, sampleCatalog, sync } from '../support/catalog.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login } from './console-session.js';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('catalog', () => {
  it('shows categories, products and a failed sync with what was discarded and why', async () => {
    const me = await createMerchant(t.app, 'Açougue do Zé');
    const spec = sampleCatalog();
    spec.itemOffers.push({ id: 'O9', itemId: 'NOPE', price: { value: 10 }, status: 'AVAILABLE' });
    const status = await sync(t, me, merchantBody(spec));
    expect(status.status).toBe('FAIL');
    const s = await login(t.app);

    const list = await s.get('/console/merchants');
    expect(list.body).toMatch(
      /<td data-label="Last catalog sync"><span class="badge badge-bad" title="FAIL" data-code="FAIL">Failed<\/span> <time/,
    );

    const page = await s.get(`/console/merchants/${me.merchantId}/catalog`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(
      /<a href="[^"]+categoryId=[0-9a-f-]{36}">Bovinos<\/a> <span class="badge badge-ok" title="AVAILABLE" data-code="AVAILABLE">Available<\/span> <span class="badge badge-info">POS<\/span> <code>C1<\/code> · \d+ products/,
    );
    expect(page.body).toMatch(
      /Picanha<\/a><br><span class="muted small">Peça inteira<\/span><\/th>\s*<td data-label="Price" class="num">R\$89\.90<\/td><td data-label="Unit">KG<\/td>/,
    );
    expect(page.body).toContain(
      '<span class="badge badge-bad" title="FAIL" data-code="FAIL">Failed</span> <strong>Upload</strong>',
    );
    expect(page.body).toContain('itemOffer &quot;O9&quot; (itemOffers[3]): itemId &quot;NOPE&quot; matches no item');
    expect(page.body).toContain('<summary>1 discarded object</summary>');
    expect(page.body).toContain(
      '<tr><td data-label="Kind"><code>itemOffers</code></td><td data-label="POS id">O9</td><td data-label="Position">3</td><td data-label="Why" class="wrap">itemId &quot;NOPE&quot; matches no item</td></tr>',
    );

    const merchantPage = await s.get(`/console/merchants/${me.merchantId}`);
    expect(merchantPage.body).toContain('<div><dt>Products</dt><dd>3 (2 available)</dd></div>');

    // The same upload again: the newest sync says nothing changed.
    await sync(t, me, merchantBody(spec));
    const again = await s.get(`/console/merchants/${me.merchantId}/catalog`);
    expect(again.body).toContain(
      'Categories: 0 created, 0 updated, 2 unchanged, 0 removed. Products: 0 created, 0 updated, 3 unchanged, 0 removed.',
    );
  });

  it('adds products and categories by hand, refusing bad input with an HTML error', async () => {
    const me = await createMerchant(t.app);
    const s = await login(t.app);
    const cat = await s.post(`/console/merchants/${me.merchantId}/catalog/categories`, { name: 'Aves' });
    expect(cat.statusCode).toBe(303);
    const record = await t.services.catalog.getMerchantRecord(me.merchantId);
    const categoryId = record.categories[0].id;
    const added = await s.post(`/console/merchants/${me.merchantId}/catalog/products`, {
      name: 'Coxa de frango',
      price: '19,90',
      unit: 'KG',
      categoryId,
    });
    expect(added.statusCode).toBe(303);
    const page = await s.get(added.headers.location as string);
    expect(page.body).toContain('Done: product Coxa de frango added.');
    expect(page.body).toMatch(
      /Coxa de frango<\/a><\/th>\s*<td data-label="Price" class="num">R\$19\.90<\/td><td data-label="Unit">KG<\/td><td data-label="Status"><span class="badge badge-ok" title="AVAILABLE" data-code="AVAILABLE">Available<\/span><\/td>\s*<td data-label="Availability">[\s\S]*?<\/td>\s*<td data-label="Origin"><span class="badge badge-muted">hand-made<\/span>/,
    );
    const bad = await s.post(`/console/merchants/${me.merchantId}/catalog/products`, {
      name: 'X',
      price: 'abc',
      unit: 'KG',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(bad.body).toContain('The price must be an amount such as 12.90 or 12,90.');
  });
});

describe('sandbox', () => {
  it('places an order from the catalog and opens it', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes');
    await sync(t, me, merchantBody(sampleCatalog()));
    const s = await login(t.app);
    const page = await s.get(`/console/sandbox?merchantId=${me.merchantId}`);
    expect(page.statusCode).toBe(200);
    const record = await t.services.catalog.getMerchantRecord(me.merchantId);
    const picanha = record.products.find((p) => p.name === 'Picanha')?.id as string;
    const alcatra = record.products.find((p) => p.name === 'Alcatra')?.id as string;
    expect(page.body).toContain(`name="qty_${picanha}"`);
    expect(page.body).not.toContain('Linguiça'); // UNAVAILABLE: not orderable

    const placed = await s.post('/console/sandbox/orders', {
      merchantId: me.merchantId,
      type: 'TAKEOUT',
      customerName: 'Maria <b>',
      [`qty_${picanha}`]: '1,5',
      [`qty_${alcatra}`]: '0',
    });
    expect(placed.statusCode).toBe(303);
    const orderId = /orders\/([0-9a-f-]{36})/.exec(placed.headers.location as string)?.[1] as string;
    const order = await t.services.orders.getAnyOrder(orderId);
    expect(order.type).toBe('TAKEOUT');
    expect(order.document.items.map((i) => [i.name, i.quantity])).toEqual([['Picanha', 1.5]]);
    const view = await s.get(placed.headers.location as string);
    expect(view.body).toContain('Maria &lt;b&gt;');
    expect(view.body).toContain('Assign pickup area');

    for (const [form, title] of [
      [
        { merchantId: me.merchantId, type: 'DELIVERY', customerName: 'A' },
        'Choose a quantity for at least one product.',
      ],
      [
        { merchantId: me.merchantId, type: 'DELIVERY', customerName: 'A', [`qty_${picanha}`]: '-1' },
        'Quantities must be numbers such as 2 or 1.5.',
      ],
      [
        { merchantId: me.merchantId, type: 'BOAT', customerName: 'A' },
        '“BOAT” is not one of the choices for Order type.',
      ],
    ] as const) {
      const res = await s.post('/console/sandbox/orders', form);
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain(title);
    }
  });

  it('is not offered in production', async () => {
    const prod = await createTestApp({
      env: { CLEAVER_ENV: 'production', CLEAVER_APP_ID: '0c6a9f9e-5b0f-4d84-9d2c-6a0e2b1f3c4d' },
    });
    try {
      const s = await login(prod.app);
      const res = await s.get('/console/sandbox');
      expect(res.statusCode).toBe(404);
      expect(res.body).toContain('There is no such page.');
      expect((await s.get('/console/merchants')).body).not.toContain('href="/console/sandbox"');
    } finally {
      await prod.close();
    }
  });
});
