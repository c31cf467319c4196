// D42 in the console: the order page shows a weighing that asks the customer, with its deadline
// and the lines before and after, and then the decision, in English and in Portuguese.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login } from './console-session.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the merchant page’s scale labels (D41, D42)', () => {
  it('lists the layouts and the weighing policy, in both languages', async () => {
    const me = await createMerchant(t.app, 'Açougue Etiqueta');
    const s = await login(t.app);
    const none = await s.get(`/console/merchants/${me.merchantId}`);
    expect(none.body).toContain('No scale label layouts: the POS weighs by kilograms only.');
    expect(none.body).toContain('Out of tolerance: the weighing is refused.');
    await t.app.inject({
      method: 'PUT',
      url: '/v1/merchant/scaleLabelLayouts',
      headers: bearer(me.token),
      payload: [{ prefix: '2', codeDigits: 6, value: 'WEIGHT', valueDigits: 5, decimals: 3 }],
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { weighingOutOfTolerance: 'ASK', weighingApprovalSeconds: 120 },
    });
    const page = await s.get(`/console/merchants/${me.merchantId}`);
    expect(page.body).toContain('<td data-label="Value">weight (kg)</td>');
    expect(page.body).toContain('Out of tolerance: the customer is asked, for 120 s; then: reject.');
    const pt = await s.get(`/console/merchants/${me.merchantId}`, { cookie: 'cleaver_lang=pt-BR' });
    expect(pt.body).toContain('Etiquetas de balança');
    expect(pt.body).toContain('Fora da tolerância: o cliente é consultado por 120 s; depois: recusar.');
  });
});

describe('the order page’s weighing out of tolerance (D42)', () => {
  it('shows it waiting with its deadline and lines, then the decision, in both languages', async () => {
    const me = await createMerchant(t.app, 'Açougue Pergunta');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { weighingOutOfTolerance: 'ASK' },
    });
    expect(patched.statusCode).toBe(200);
    const order = await createOrder(t.app, me.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: picanha.id, quantity: 1 }],
    });
    const pos = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, headers: bearer(me.token), payload });
    expect(
      (await pos(`/v1/orders/${order.id}/confirm`, { createdAt: order.createdAt, orderExternalCode: 'C-1' }))
        .statusCode,
    ).toBe(202);
    const asked = await pos(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.5 }] });
    expect(asked.json().state).toBe('PENDING_APPROVAL');

    const s = await login(t.app);
    const waiting = await s.get(`/console/orders/${order.id}`);
    expect(waiting.statusCode).toBe(200);
    expect(waiting.body).toContain('Weighing out of tolerance');
    expect(waiting.body).toContain('waiting for the customer');
    expect(waiting.body).toContain('The customer decides until');
    expect(waiting.body).toContain('out of tolerance');
    const pt = await s.get(`/console/orders/${order.id}`, { cookie: 'cleaver_lang=pt-BR' });
    expect(pt.body).toContain('Pesagem fora da tolerância');
    expect(pt.body).toContain('aguardando o cliente');

    const decided = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${order.id}/weighings/${asked.json().weighingId}/decision`,
      headers: adminHeaders,
      payload: { decision: 'ACCEPT' },
    });
    expect(decided.statusCode).toBe(200);
    const after = await s.get(`/console/orders/${order.id}`);
    expect(after.body).toContain('Decision: accept (by the platform, for the customer)');
    const ptAfter = await s.get(`/console/orders/${order.id}`, { cookie: 'cleaver_lang=pt-BR' });
    expect(ptAfter.body).toContain('Decisão: aceitar (pela plataforma, pelo cliente)');
  });
});
