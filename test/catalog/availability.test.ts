// D43 through HTTP: the POS and operators pause, resume and count products without an upload;
// intake refuses what is paused or beyond the stock; confirmation takes, weighing moves and
// cancellation gives back stock in the order's own transaction; a timed pause ends by itself;
// two confirmations racing for the last unit leave one short, never a negative stock.
import { describe, expect } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { endDuePauses } from '../../src/workers.js';
import { expectError } from '../support/expect-error.js';
import { appTest } from '../support/fixtures.js';
import { confirmBody } from '../support/order-session.js';
import { createProduct } from '../support/orders.js';
import { adminHeaders, bearer, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-12-20T12:00:00Z'));
const it = appTest({ clock, env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' } });

const pos = (t: TestApp, me: MerchantCredentials) => ({
  post: (url: string, payload?: unknown) =>
    t.app.inject({ method: 'POST', url, headers: bearer(me.token), payload: payload as object }),
  get: (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(me.token) }),
  delete: (url: string) => t.app.inject({ method: 'DELETE', url, headers: bearer(me.token) }),
});

async function intake(t: TestApp, merchantId: string, items: unknown[]) {
  return t.app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/orders`,
    headers: adminHeaders,
    payload: { type: 'TAKEOUT', items },
  });
}

async function feedItems(t: TestApp, merchantId: string, type: string) {
  const { rows } = await t.database.db.query<{ data: Record<string, unknown> }>(
    'SELECT data FROM feed_items WHERE merchant_id = $1 AND type = $2 ORDER BY seq',
    [merchantId, type],
  );
  return rows.map((r) => r.data);
}

async function productStock(t: TestApp, me: MerchantCredentials, productId: string) {
  const record = (await pos(t, me).get('/v1/merchant')).json() as {
    products: Array<{ id: string; status: string; stock: number; availability?: Record<string, unknown> }>;
  };
  return record.products.find((p) => p.id === productId);
}

describe('availability without a catalog upload (D43)', () => {
  it('a timed pause refuses intake, shows in GET /v1/merchant and ends by itself', async ({ t, me }) => {
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const until = new Date(clock.now().getTime() + 60_000).toISOString();
    const paused = await pos(t, me).post('/v1/merchant/availability', {
      items: [{ productId: picanha.id, available: false, reason: 'QUALITY', until }],
    });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toEqual({
      items: [{ productId: picanha.id, pdvId: null, available: false, reason: 'QUALITY', until, stock: null }],
    });
    expect(await productStock(t, me, picanha.id)).toMatchObject({
      status: 'UNAVAILABLE',
      availability: { available: false, reason: 'QUALITY', until },
    });
    expectError(
      await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 1 }]),
      400,
      `items[0] names an unavailable product (QUALITY until ${until})`,
    );

    clock.advance(61_000);
    expect(await endDuePauses(t.services)).toBeGreaterThanOrEqual(1);
    expect(await productStock(t, me, picanha.id)).toMatchObject({
      status: 'AVAILABLE',
      availability: { available: true },
    });
    expect((await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 1 }])).statusCode).toBe(201);
    const changes = await feedItems(t, me.merchantId, 'AVAILABILITY_CHANGED');
    expect(changes.map((c) => (c.items as Array<{ available: boolean }>)[0]?.available)).toEqual([false, true]);
  });

  it('stock by weight: confirmation takes, weighing replaces, cancellation gives back; unavailable at 0', async ({
    t,
    me,
  }) => {
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const counted = await pos(t, me).post('/v1/merchant/availability', {
      items: [{ productId: picanha.id, available: true, stock: { quantity: 2 } }],
    });
    expect(counted.json().items[0]).toMatchObject({ available: true, stock: { quantity: 2 } });

    expectError(
      await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 2.5 }]),
      400,
      'items[0].quantity is more than the stock left (2.000 kg left)',
    );
    const order = (await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 1.5 }])).json();
    // Intake takes nothing; confirmation does.
    expect((await productStock(t, me, picanha.id))?.stock).toBe(2);
    expect((await pos(t, me).post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expect((await productStock(t, me, picanha.id))?.stock).toBe(0.5);

    const weighed = await pos(t, me).post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.7 }] });
    expect(weighed.statusCode, weighed.body).toBe(202);
    expect((await productStock(t, me, picanha.id))?.stock).toBe(0.3);
    // The case was counted again: a heavier weighing than what is left is refused.
    await pos(t, me).post('/v1/merchant/availability', {
      items: [{ productId: picanha.id, available: true, stock: { quantity: 0.05 } }],
    });
    expectError(
      await pos(t, me).post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.8 }] }),
      400,
      'items[0].quantity is more than the stock left (0.050 kg left)',
    );

    const cancelled = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${order.id}/events`,
      headers: adminHeaders,
      payload: { eventType: 'CANCELLED' },
    });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
    expect((await productStock(t, me, picanha.id))?.stock).toBe(1.75);

    // Down to zero: OUT_OF_STOCK by itself.
    const all = (await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 1.75 }])).json();
    expect((await pos(t, me).post(`/v1/orders/${all.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expect(await productStock(t, me, picanha.id)).toMatchObject({
      status: 'UNAVAILABLE',
      stock: 0,
      availability: { available: false, reason: 'OUT_OF_STOCK', until: null, stock: { quantity: 0 } },
    });
    expectError(
      await intake(t, me.merchantId, [{ productId: picanha.id, quantity: 0.1 }]),
      400,
      'items[0] names an unavailable product (OUT_OF_STOCK)',
    );
    const stocks = (await feedItems(t, me.merchantId, 'AVAILABILITY_CHANGED')).map(
      (c) => (c.items as Array<{ stock: { quantity: number } }>)[0]?.stock.quantity,
    );
    expect(stocks).toEqual([2, 0.5, 0.3, 0.05, 1.75, 0]);
  });

  it('a KG product is out of stock at its weight minimum, not only at zero', async ({ t, me }) => {
    const fraldinha = await createProduct(t.app, me.merchantId, { name: 'Fraldinha', price: 54.9, unit: 'KG' });
    // weight {min, max, step} comes with a catalog upload (D42); written here directly.
    await t.database.db.query('UPDATE products SET weight_min = 0.5, weight_max = 5, weight_step = 0.1 WHERE id = $1', [
      fraldinha.id,
    ]);
    await pos(t, me).post('/v1/merchant/availability', {
      items: [{ productId: fraldinha.id, available: true, stock: { quantity: 1.2 } }],
    });
    const order = (await intake(t, me.merchantId, [{ productId: fraldinha.id, quantity: 0.7 }])).json();
    expect((await pos(t, me).post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expect(await productStock(t, me, fraldinha.id)).toMatchObject({
      status: 'UNAVAILABLE',
      stock: 0.5,
      availability: { available: false, reason: 'OUT_OF_STOCK', stock: { quantity: 0.5 } },
    });
  });

  it('two confirmations racing for the last unit: one wins, the other is told the stock left', async ({ t, me }) => {
    const leitoa = await createProduct(t.app, me.merchantId, { name: 'Leitoa', price: 450, unit: 'UN' });
    await pos(t, me).post('/v1/merchant/availability', {
      items: [{ productId: leitoa.id, available: true, stock: { quantity: 1 } }],
    });
    const a = (await intake(t, me.merchantId, [{ productId: leitoa.id, quantity: 1 }])).json();
    const b = (await intake(t, me.merchantId, [{ productId: leitoa.id, quantity: 1 }])).json();
    const answers = await Promise.all([a, b].map((o) => pos(t, me).post(`/v1/orders/${o.id}/confirm`, confirmBody)));
    expect(answers.map((r) => r.statusCode).sort()).toEqual([202, 400]);
    const loser = answers.find((r) => r.statusCode === 400);
    if (loser) expectError(loser, 400, 'items[0].quantity is more than the stock left (0 units left)');
    expect((await productStock(t, me, leitoa.id))?.stock).toBe(0);
  });

  it('names the field of every bad item, and writes nothing of a refused request', async ({ t, me }) => {
    const alcatra = await createProduct(t.app, me.merchantId, { name: 'Alcatra', price: 59.9, unit: 'KG' });
    const ovo = await createProduct(t.app, me.merchantId, { name: 'Ovo caipira', price: 1.5, unit: 'UN' });
    const send = (items: unknown[]) => pos(t, me).post('/v1/merchant/availability', { items });
    expectError(
      await send([
        { productId: alcatra.id, available: false },
        { productId: '5f0c8c4e-8f5e-4f43-9e0c-000000000000', available: false },
      ]),
      400,
      'items[1].productId is not a product of this merchant',
    );
    expectError(
      await send([{ productId: alcatra.id, available: false, until: '2020-01-01T00:00:00Z' }]),
      400,
      'items[0].until must be in the future',
    );
    expectError(
      await send([{ productId: ovo.id, available: true, stock: { quantity: 2.5 } }]),
      400,
      'items[0].stock.quantity must be a whole number for a UN product',
    );
    expectError(
      await send([{ productId: alcatra.id, available: true, stock: { quantity: 1.2345 } }]),
      400,
      'items[0].stock.quantity has more than 3 decimal places',
    );
    expectError(
      await send([{ productId: alcatra.id, available: true, reason: 'QUALITY' }]),
      400,
      'items[0].reason and items[0].until apply to available: false only',
    );
    expectError(await send([{ available: false }]), 400, 'items[0].productId or items[0].pdvId is required');
    const tooMany = await send(Array.from({ length: 101 }, () => ({ productId: alcatra.id, available: true })));
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().title).toContain('items');
    expect(await feedItems(t, me.merchantId, 'AVAILABILITY_CHANGED')).toEqual([]);
    expect((await productStock(t, me, alcatra.id))?.availability).toBeUndefined();
  });

  it('the operator pauses a product by POS code; the store pause shows in the status route', async ({ t, me }) => {
    const costela = await createProduct(t.app, me.merchantId, { name: 'Costela', price: 39.9, unit: 'KG' });
    const answer = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/availability`,
      headers: adminHeaders,
      payload: { items: [{ productId: costela.id, available: false, reason: 'NOT_TODAY' }] },
    });
    expect(answer.json()).toEqual({
      items: [{ productId: costela.id, pdvId: null, available: false, reason: 'NOT_TODAY', until: null, stock: null }],
    });

    const until = new Date(clock.now().getTime() + 30 * 60_000).toISOString();
    const paused = await pos(t, me).post('/v1/merchant/pause', { reason: 'Falta de energia', until });
    expect(paused.json()).toEqual({ status: 'UNAVAILABLE', pause: { reason: 'Falta de energia', until } });
    expect((await pos(t, me).get(`/v1/merchant/${me.merchantId}/status`)).json()).toEqual({
      status: 'UNAVAILABLE',
      services: [],
      orderingAppMerchantId: me.merchantId,
      pause: { reason: 'Falta de energia', until },
    });
    expect((await pos(t, me).get('/v1/merchant')).json()).toMatchObject({
      status: 'UNAVAILABLE',
      pause: { reason: 'Falta de energia', until },
    });
    expectError(
      await pos(t, me).post('/v1/merchant/pause', { reason: 'x', until: '2020-01-01T00:00:00Z' }),
      400,
      'until must be in the future',
    );

    clock.advance(31 * 60_000);
    await endDuePauses(t.services);
    expect((await pos(t, me).get(`/v1/merchant/${me.merchantId}/status`)).json()).toMatchObject({
      status: 'AVAILABLE',
      pause: null,
    });
    const switches = await feedItems(t, me.merchantId, 'STATUS_CHANGED');
    expect(switches).toEqual([
      { status: 'UNAVAILABLE', by: 'pos', pause: { reason: 'Falta de energia', until } },
      { status: 'AVAILABLE', by: 'pause', pause: null },
    ]);

    const again = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/pause`,
      headers: adminHeaders,
      payload: { reason: 'Inventário', until: new Date(clock.now().getTime() + 60_000).toISOString() },
    });
    expect(again.json().status).toBe('UNAVAILABLE');
    const resumed = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${me.merchantId}/pause`,
      headers: adminHeaders,
    });
    expect(resumed.json()).toEqual({ status: 'AVAILABLE', pause: null });
  });
});
