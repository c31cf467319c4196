// Butchery in the console (D37, D38): a product's page lists its cuts and spices, an admin adds
// and removes them, a viewer only reads; the order page shows the chosen cut, the weighed line
// with what was ordered, the prepaid order's adjustment, and each weighing in the timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../operators-access/support.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login, loginAs } from './console-session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function viewerSession() {
  const viewer = await createOperator(t.app, 'viewer');
  return loginAs(t.app, viewer.email, viewer.password);
}

describe('the product page (D37)', () => {
  it('adds and removes cuts; the catalog links to the page; a viewer sees no form', async () => {
    const me = await createMerchant(t.app, 'Açougue Console');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const s = await login(t.app);
    const href = `/console/merchants/${me.merchantId}/products/${picanha.id}`;

    const catalog = await s.get(`/console/merchants/${me.merchantId}/catalog`);
    expect(catalog.body).toContain(`<a href="${href}">Picanha</a>`);
    const empty = await s.get(href);
    expect(empty.statusCode).toBe(200);
    expect(empty.body).toContain('No cuts: customers order this product as it is.');

    const added = await s.post(`${href}/cuts`, { name: 'Bife', spice: 'Alho', id: 'bife' });
    expect(added.statusCode).toBe(303);
    const page = await s.get(added.headers.location as string);
    expect(page.body).toContain('Done: cut Bife added.');
    expect(page.body).toMatch(
      /<tr><th scope="row" data-label="Cut">Bife<\/th><td data-label="Spice">Alho <code class="small">[0-9a-f-]{36}<\/code><\/td>\s*<td data-label="Cut id"><code class="wrap">bife<\/code><\/td>/,
    );
    expect((await s.post(`${href}/cuts`, { name: 'Peça inteira' })).statusCode).toBe(303);
    const cuts = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/merchants/${me.merchantId}/products/${picanha.id}/cuts`,
      headers: adminHeaders,
    });
    expect(cuts.json().map((c: { name: string }) => c.name)).toEqual(['Bife', 'Peça inteira']);

    const bad = await s.post(`${href}/cuts`, { name: '  ' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Cut name must not be empty.');
    const dup = await s.post(`${href}/cuts`, { name: 'Bife grosso', id: 'bife' });
    expect(dup.statusCode).toBe(409);

    const viewer = await viewerSession();
    const read = await viewer.get(href);
    expect(read.body).toContain('data-label="Cut">Bife</th>');
    expect(read.body).not.toContain('Add cut');
    expect(read.body).not.toContain('/cuts/remove');
    expect((await viewer.post(`${href}/cuts`, { name: 'Cubos' })).statusCode).toBe(403);

    const removed = await s.post(`${href}/cuts/remove`, { cutId: 'bife', confirm: 'yes' });
    expect(removed.statusCode).toBe(303);
    expect((await s.get(href)).body).not.toContain('data-label="Cut">Bife</th>');
    expect(
      (await s.get(`/console/merchants/${me.merchantId}/products/00000000-0000-4000-8000-000000000000`)).statusCode,
    ).toBe(404);
  });
});

describe('the order page (D37, D38)', () => {
  it('shows the chosen cut, the weighed line, the adjustment and the weighing in the timeline', async () => {
    const me = await createMerchant(t.app, 'Açougue Balança');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products/${picanha.id}/cuts`,
      headers: adminHeaders,
      payload: { id: 'bife', name: 'Bife', spice: { name: 'Alho' } },
    });
    const order = await createOrder(t.app, me.merchantId, {
      type: 'TAKEOUT',
      items: [{ productId: picanha.id, quantity: 1, cutId: 'bife' }],
    });
    const pos = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: bearer(me.token), payload });
    await pos(`/v1/orders/${order.id}/confirm`, { createdAt: order.createdAt, orderExternalCode: 'C-1' });
    expect((await pos(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 0.94 }] })).statusCode).toBe(
      202,
    );

    const s = await login(t.app);
    const page = await s.get(`/console/orders/${order.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<span class="badge badge-muted">cut</span> Bife – Alho');
    expect(page.body).toMatch(
      /0\.94 KG <span class="badge badge-ok">weighed<\/span><br><span class="muted small">ordered 1 KG<\/span>/,
    );
    // 89.90 × 0.94 = 84.51; prepaid 89.90: 5.39 to refund.
    expect(page.body).toContain('R$84.51');
    expect(page.body).toContain('<dt>Weighing adjustment (to refund)</dt><dd>-R$5.39</dd>');
    const pt = await s.get(`/console/orders/${order.id}`, { 'accept-language': 'pt-BR' });
    expect(pt.body).toContain('<dt>Ajuste da pesagem (a reembolsar)</dt><dd>-R$ 5,39</dd>');
    const timeline = await s.get(`/console/orders/${order.id}/timeline`);
    expect(timeline.body).toContain('<strong>Weighed</strong>');
    expect(timeline.body).toContain('line 0 Picanha: 0.94 kg (ordered 1 kg)');
    const timelinePt = await s.get(`/console/orders/${order.id}/timeline`, { 'accept-language': 'pt-BR' });
    expect(timelinePt.body).toContain('linha 0 Picanha: 0,94 kg (pedido 1 kg)');
  });
});
