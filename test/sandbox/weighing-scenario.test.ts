// The sandbox's butchery (D37, D38): scenario orders choose the first cut of a product that has
// cuts, and the `weighing` scenario gives a POS an order of KG lines, paid online, to confirm,
// weigh and make ready; the totals follow the weights and the prepaid difference is settled.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_WRITE: '10000', CLEAVER_RATE_LIMIT_READ: '10000' } });
});
afterAll(() => t.close());

describe('the weighing scenario', () => {
  it('places KG lines with the chosen cut; the POS weighs them and the order follows the weights', async () => {
    const me = await createMerchant(t.app, 'Açougue Cenário da Balança');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    await createProduct(t.app, me.merchantId, { name: 'Fraldinha', price: 54.9, unit: 'KG' });
    await createProduct(t.app, me.merchantId, { name: 'Carvão', price: 25, unit: 'UN' });
    const cut = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products/${picanha.id}/cuts`,
      headers: adminHeaders,
      payload: { id: 'bife', name: 'Bife', spice: { name: 'Alho' } },
    });
    expect(cut.statusCode).toBe(201);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.app.inject({ method, url, headers: bearer(me.token), ...(payload ? { payload } : {}) });

    const listed = (await call('GET', '/v1/sandbox/scenarios')).json() as Array<{ name: string; description: string }>;
    expect(listed.find((s) => s.name === 'weighing')?.description).toContain('POST /v1/orders/{orderId}/weighing');
    const played = await call('POST', '/v1/sandbox/scenarios', { scenario: 'weighing' });
    expect(played.statusCode, played.body).toBe(201);
    const orderId = played.json().orders[0].id as string;
    const order = (await call('GET', `/v1/orders/${orderId}`)).json();
    // Only KG products; Fraldinha precedes Picanha in the catalog (by name), Picanha with its cut.
    expect(order.items.map((i: { name: string; unit: string }) => [i.name, i.unit])).toEqual([
      ['Fraldinha', 'KG'],
      ['Picanha', 'KG'],
    ]);
    expect(order.items[1].options[0]).toMatchObject({ id: 'bife', name: 'Bife – Alho', unitPrice: { value: 0 } });
    expect(order.payments.methods[0].type).toBe('PREPAID');

    expect(
      (await call('POST', `/v1/orders/${orderId}/confirm`, { createdAt: order.createdAt, orderExternalCode: 'S-1' }))
        .statusCode,
    ).toBe(202);
    const lines = order.items.map((i: { quantity: number }, index: number) => ({
      index,
      quantity: Math.round(i.quantity * 0.97 * 1000) / 1000,
    }));
    expect((await call('POST', `/v1/orders/${orderId}/weighing`, { items: lines })).statusCode).toBe(202);
    expect((await call('POST', `/v1/orders/${orderId}/readyForPickup`)).statusCode).toBe(202);
    const after = (await call('GET', `/v1/orders/${orderId}`)).json();
    expect(after.items.map((i: { orderedQuantity: number }) => i.orderedQuantity)).toEqual(
      order.items.map((i: { quantity: number }) => i.quantity),
    );
    expect(after.weighingAdjustment.value).toBeLessThan(0);
    expect(after.weighingAdjustment.value).toBeCloseTo(
      after.total.orderAmount.value - order.total.orderAmount.value,
      2,
    );
  });
});
