// D38 weighing through HTTP, and D37's chosen cut on the order item: the rules of the decision
// one by one, in both profiles (D27, D28: a refused action is 422 for an opendelivery key), the
// timeline entry and the in-transaction listeners the platform feed hangs on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OdOrder } from '../../src/modules/opendelivery/index.js';
import { DEFAULT_WEIGHING_TOLERANCE_PERCENT, type OrderWeighed } from '../../src/modules/orders/index.js';
import { connectPos, createKey, expectOd, expectOdError } from '../opendelivery/od-support.js';
import { expectError } from '../support/expect-error.js';
import { createOrder, createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // The first answer compiles the contract's validators: a warm-up here keeps it out of a test's time.
  await t.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: adminHeaders });
});
afterAll(() => t.close());

const confirmBody = { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'PDV-1' };

function posCall(t: TestApp, token: string) {
  return (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

/** A butcher's catalog: picanha by KG with cuts, linguiça by KG, carvão by UN. */
async function butcher(t: TestApp, me: MerchantCredentials) {
  const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  const linguica = await createProduct(t.app, me.merchantId, { name: 'Linguiça', price: 27.9, unit: 'KG' });
  const carvao = await createProduct(t.app, me.merchantId, { name: 'Carvão', price: 25, unit: 'UN' });
  const cut = async (productId: string, payload: object) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/merchants/${me.merchantId}/products/${productId}/cuts`,
      headers: adminHeaders,
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { id: string };
  };
  const bife = await cut(picanha.id, { id: 'bife', name: 'Bife', spice: { id: 'alho', name: 'Alho' } });
  const inteira = await cut(picanha.id, { name: 'Peça inteira' });
  return { picanha, linguica, carvao, bife, inteira };
}

/** 1 kg picanha (cut in steaks with garlic), 0.5 kg linguiça, 2 carvão, delivery fee 7.90, cash on delivery. */
async function cashOrder(t: TestApp, me: MerchantCredentials) {
  const c = await butcher(t, me);
  const order = await createOrder(t.app, me.merchantId, {
    type: 'DELIVERY',
    items: [
      { productId: c.picanha.id, quantity: 1, cutId: 'bife' },
      { productId: c.linguica.id, quantity: 0.5 },
      { productId: c.carvao.id, quantity: 2 },
    ],
    otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 7.9 }],
    // 89.90 + 13.95 + 50.00 + 7.90 = 161.75
    payments: { methods: [{ value: 161.75, type: 'PENDING', method: 'CASH', changeFor: 170 }] },
  });
  return { ...c, order };
}

describe('the chosen cut on the order item (D37)', () => {
  it('is the item’s first option, free, named “cut – spice”, in both profiles', async () => {
    const me = await createMerchant(t.app);
    const c = await butcher(t, me);
    const order = await createOrder(t.app, me.merchantId, {
      type: 'TAKEOUT',
      items: [
        {
          productId: c.picanha.id,
          quantity: 1.2,
          cutId: 'bife',
          options: [{ name: 'Embalar a vácuo', quantity: 1, unitPrice: 2 }],
        },
        { productId: c.picanha.id, quantity: 0.8, cutId: c.inteira.id },
        { productId: c.linguica.id, quantity: 1 },
      ],
    });
    const free = { value: 0, currency: 'BRL' };
    const view = (await posCall(t, me.token)('GET', `/v1/orders/${order.id}`)).json();
    expect(view.items[0].options).toEqual([
      {
        id: 'bife',
        name: 'Bife – Alho',
        externalCode: 'bife',
        unit: 'UN',
        quantity: 1,
        unitPrice: free,
        totalPrice: free,
      },
      expect.objectContaining({ name: 'Embalar a vácuo', quantity: 1 }),
    ]);
    expect(view.items[1].options).toEqual([
      {
        id: c.inteira.id,
        name: 'Peça inteira',
        externalCode: c.inteira.id,
        unit: 'UN',
        quantity: 1,
        unitPrice: free,
        totalPrice: free,
      },
    ]);
    expect(view.items[2].options).toEqual([]);
    // 89.9 × 1.2 = 107.88, + 2.00 of the option; the cut costs nothing.
    expect(view.items[0].totalPrice).toEqual({ value: 109.88, currency: 'BRL' });

    // Open Delivery's option shape: a uuid id (the cut's own when it is one), the cut id as externalCode.
    const od = await connectPos(t.app, await createKey(t.app, me.merchantId, 'opendelivery'));
    const odView = (await od.get(`/v1/orders/${order.id}`)).json();
    expectOd(OdOrder, odView);
    expect(odView.items[0].options[0]).toEqual({
      index: 0,
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Bife – Alho',
      externalCode: 'bife',
      unit: 'UN',
      quantity: 1,
      unitPrice: free,
      totalPrice: free,
    });
    expect(odView.items[1].options[0]).toMatchObject({
      id: c.inteira.id,
      externalCode: c.inteira.id,
      name: 'Peça inteira',
    });
  });

  it('refuses a cut of another product, or no cut at all, naming the field', async () => {
    const me = await createMerchant(t.app);
    const c = await butcher(t, me);
    const res = (items: unknown[]) =>
      t.app.inject({
        method: 'POST',
        url: `/admin/v1/merchants/${me.merchantId}/orders`,
        headers: adminHeaders,
        payload: { type: 'TAKEOUT', items },
      });
    expectError(
      await res([
        { productId: c.linguica.id, quantity: 1 },
        { productId: c.linguica.id, quantity: 1, cutId: 'bife' },
      ]),
      400,
      "items[1].cutId is not a cut of this item's product",
    );
    expectError(
      await res([{ productId: c.picanha.id, quantity: 1, cutId: 'fatiado' }]),
      400,
      "items[0].cutId is not a cut of this item's product",
    );
    expectError(
      await res([{ productId: c.picanha.id, quantity: 1, cutId: '' }]),
      400,
      'items[0].cutId must NOT have fewer than 1 characters',
    );
  });
});

describe('weighing (D38)', () => {
  it('shows the weight, the ordered quantity, exact totals and the PENDING payment that follows', async () => {
    const me = await createMerchant(t.app);
    const { order } = await cashOrder(t, me);
    const pos = posCall(t, me.token);
    expect((await pos('POST', `/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    const polledBefore = await pos('GET', '/v1/events:polling');

    const weighed = await pos('POST', `/v1/orders/${order.id}/weighing`, {
      items: [
        { index: 0, quantity: 0.94 },
        { index: 1, quantity: 0.537 },
      ],
    });
    expect(weighed.statusCode, weighed.body).toBe(202);
    const view = (await pos('GET', `/v1/orders/${order.id}`)).json();
    // 89.90 × 0.94 = 84.506 → 84.51; 27.90 × 0.537 = 14.9823 → 14.98; carvão unchanged 50.00.
    expect(view.items.map((i: Record<string, unknown>) => [i.quantity, i.orderedQuantity, i.totalPrice])).toEqual([
      [0.94, 1, { value: 84.51, currency: 'BRL' }],
      [0.537, 0.5, { value: 14.98, currency: 'BRL' }],
      [2, undefined, { value: 50, currency: 'BRL' }],
    ]);
    expect(view.total).toEqual({
      itemsPrice: { value: 149.49, currency: 'BRL' },
      otherFees: { value: 7.9, currency: 'BRL' },
      discount: { value: 0, currency: 'BRL' },
      orderAmount: { value: 157.39, currency: 'BRL' },
    });
    expect(view.payments).toEqual({
      prepaid: 0,
      pending: 157.39,
      methods: [{ value: 157.39, currency: 'BRL', type: 'PENDING', method: 'CASH', changeFor: 170 }],
    });
    expect(view).not.toHaveProperty('weighingAdjustment');
    // No event reaches the POS: weighing is its own action (D38).
    expect((await pos('GET', '/v1/events:polling')).json()).toEqual(polledBefore.json());

    // Repeated: the last weighing of a line counts; orderedQuantity stays what was ordered.
    expect(
      (await pos('POST', `/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.2 }] })).statusCode,
    ).toBe(202);
    const again = (await pos('GET', `/v1/orders/${order.id}`)).json();
    expect(again.items[0]).toMatchObject({ quantity: 1.2, orderedQuantity: 1, totalPrice: { value: 107.88 } });
    expect(again.items[1]).toMatchObject({ quantity: 0.537, orderedQuantity: 0.5 });
    // 107.88 + 14.98 + 50 + 7.9 = 180.76: the cash now exceeds the change asked for, which follows.
    expect(again.payments.methods[0]).toEqual({
      value: 180.76,
      currency: 'BRL',
      type: 'PENDING',
      method: 'CASH',
      changeFor: 180.76,
    });

    // The operator's view: both weighings in the order's timeline, oldest first.
    const detail = (
      await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders })
    ).json();
    expect(detail.weighings).toEqual([
      {
        id: expect.any(String),
        keyId: me.keyId,
        weighedAt: expect.any(String),
        lines: [
          { index: 0, orderedQuantity: 1, quantity: 0.94 },
          { index: 1, orderedQuantity: 0.5, quantity: 0.537 },
        ],
        itemsPriceBefore: { value: 153.85, currency: 'BRL' },
        itemsPriceAfter: { value: 149.49, currency: 'BRL' },
        orderAmountAfter: { value: 157.39, currency: 'BRL' },
        weighingAdjustment: null,
      },
      expect.objectContaining({ lines: [{ index: 0, orderedQuantity: 1, quantity: 1.2 }] }),
    ]);
    expect(detail.events.map((e: { eventType: string }) => e.eventType)).toEqual(['CREATED', 'CONFIRMED']);
    const summary = (
      await t.app.inject({ method: 'GET', url: `/admin/v1/merchants/${me.merchantId}/orders`, headers: adminHeaders })
    ).json();
    expect(summary[0].orderAmount).toBe(180.76);
  });

  it('settles a prepaid order through weighingAdjustment (negative: a refund)', async () => {
    const me = await createMerchant(t.app);
    const c = await butcher(t, me);
    const order = await createOrder(t.app, me.merchantId, {
      type: 'TAKEOUT',
      items: [{ productId: c.picanha.id, quantity: 1.5 }],
      discounts: [{ amount: 10, target: 'CART' }],
    });
    // 89.90 × 1.5 = 134.85, − 10 = 124.85, prepaid by card (the default payment).
    expect(order.payments).toMatchObject({ prepaid: 124.85, pending: 0 });
    const pos = posCall(t, me.token);
    await pos('POST', `/v1/orders/${order.id}/confirm`, confirmBody);
    expect(
      (await pos('POST', `/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.372 }] })).statusCode,
    ).toBe(202);
    const view = (await pos('GET', `/v1/orders/${order.id}`)).json();
    // 89.90 × 1.372 = 123.3428 → 123.34; − 10 = 113.34; paid 124.85: refund 11.51.
    expect(view.total.orderAmount).toEqual({ value: 113.34, currency: 'BRL' });
    expect(view.payments).toMatchObject({ prepaid: 124.85, pending: 0 });
    expect(view.payments.methods[0].value).toBe(124.85);
    expect(view.weighingAdjustment).toEqual({ value: -11.51, currency: 'BRL' });
    // Heavier than ordered: the platform charges the difference.
    await pos('POST', `/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.61 }] });
    const heavier = (await pos('GET', `/v1/orders/${order.id}`)).json();
    // 89.90 × 1.61 = 144.739 → 144.74; − 10 = 134.74; + 9.89 to charge.
    expect(heavier.weighingAdjustment).toEqual({ value: 9.89, currency: 'BRL' });
    const detail = (
      await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders })
    ).json();
    expect(detail.weighingAdjustment).toEqual({ value: 9.89, currency: 'BRL' });
    expect(detail.weighings.map((w: { weighingAdjustment: unknown }) => w.weighingAdjustment)).toEqual([
      { value: -11.51, currency: 'BRL' },
      { value: 9.89, currency: 'BRL' },
    ]);
  });

  it('refuses, naming items[i].quantity with the allowed range, and applies nothing of the request', async () => {
    const me = await createMerchant(t.app);
    const { order } = await cashOrder(t, me);
    const pos = posCall(t, me.token);
    const weigh = (items: unknown) => pos('POST', `/v1/orders/${order.id}/weighing`, { items });
    // Not confirmed yet.
    expectError(await weigh([{ index: 0, quantity: 1 }]), 400, 'Order is CREATED');
    await pos('POST', `/v1/orders/${order.id}/confirm`, confirmBody);
    const before = (await pos('GET', `/v1/orders/${order.id}`)).json();

    expectError(
      await weigh([{ index: 0, quantity: 1.21 }]),
      400,
      'items[0].quantity must be between 0.8 and 1.2 (±20 % of the 1 kg ordered)',
    );
    expectError(
      await weigh([{ index: 0, quantity: 0.799 }]),
      400,
      'items[0].quantity must be between 0.8 and 1.2 (±20 % of the 1 kg ordered)',
    );
    // The first line is fine, the second is not: nothing is applied.
    expectError(
      await weigh([
        { index: 0, quantity: 0.94 },
        { index: 1, quantity: 0.7 },
      ]),
      400,
      'items[1].quantity must be between 0.4 and 0.6 (±20 % of the 0.5 kg ordered)',
    );
    expectError(
      await weigh([{ index: 2, quantity: 2 }]),
      400,
      'items[0].quantity cannot be applied: line 2 is sold by UN (only KG lines are weighed)',
    );
    expectError(
      await weigh([{ index: 3, quantity: 1 }]),
      400,
      'items[0].quantity cannot be applied: index 3 is not a line of the order (its lines are 0 to 2)',
    );
    expectError(
      await weigh([{ index: -1, quantity: 1 }]),
      400,
      'items[0].quantity cannot be applied: index -1 is not a line of the order (its lines are 0 to 2)',
    );
    expectError(await weigh([{ index: 0, quantity: 0 }]), 400, 'items[0].quantity must be greater than 0');
    expectError(await weigh([{ index: 0, quantity: 0.9405 }]), 400, 'items[0].quantity has more than 3 decimal places');
    expectError(
      await weigh([
        { index: 0, quantity: 1 },
        { index: 0, quantity: 1.1 },
      ]),
      400,
      'items[1].index names line 0 again (already weighed by items[0])',
    );
    expectError(await weigh([]), 400, 'items must NOT have fewer than 1 items');
    expectError(await pos('POST', `/v1/orders/${order.id}/weighing`, {}), 400, 'items is required');
    expect((await pos('GET', `/v1/orders/${order.id}`)).json()).toEqual(before);
    const { rows } = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM order_weighings WHERE order_id = $1',
      [order.id],
    );
    expect(rows[0].n).toBe(0);

    // The merchant's own tolerance (PATCH …/merchants/{id}), here ±5 %: 0.95 to 1.05 for 1 kg.
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { weighingTolerancePercent: 5 },
    });
    expect(patched.json()).toMatchObject({ id: me.merchantId, weighingTolerancePercent: 5 });
    expectError(
      await weigh([{ index: 0, quantity: 0.94 }]),
      400,
      'items[0].quantity must be between 0.95 and 1.05 (±5 % of the 1 kg ordered)',
    );
    expect((await weigh([{ index: 0, quantity: 1.05 }])).statusCode).toBe(202);

    // Ready: no more weighing; dispatched neither.
    expect((await pos('POST', `/v1/orders/${order.id}/readyForPickup`)).statusCode).toBe(202);
    expectError(await weigh([{ index: 0, quantity: 1 }]), 400, 'Order is READY_FOR_PICKUP');
    expect((await pos('POST', `/v1/orders/${order.id}/dispatch`, {})).statusCode).toBe(202);
    expectError(await weigh([{ index: 0, quantity: 1 }]), 400, 'Order is DISPATCHED');
  });

  it('is another merchant’s order: 404', async () => {
    const me = await createMerchant(t.app);
    const { order } = await cashOrder(t, me);
    const other = await connectPos(
      t.app,
      await createKey(
        t.app,
        (
          await t.app.inject({
            method: 'POST',
            url: '/admin/v1/merchants',
            headers: adminHeaders,
            payload: { name: 'Outro' },
          })
        ).json().id,
      ),
    );
    const res = await other.post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1 }] });
    expectError(res, 404, 'Order not found');
  });

  it('sets the tolerance from 0 to 100 % with at most 2 decimals; the merchant shows it', async () => {
    const me = await createMerchant(t.app);
    const patch = (payload: object) =>
      t.app.inject({ method: 'PATCH', url: `/admin/v1/merchants/${me.merchantId}`, headers: adminHeaders, payload });
    const detail = async () =>
      (
        await t.app.inject({ method: 'GET', url: `/admin/v1/merchants/${me.merchantId}`, headers: adminHeaders })
      ).json();
    // D38's default, the same number the client library copies.
    expect((await detail()).weighingTolerancePercent).toBe(DEFAULT_WEIGHING_TOLERANCE_PERCENT);
    expectError(await patch({ weighingTolerancePercent: 100.5 }), 400, 'weighingTolerancePercent must be <= 100');
    expectError(await patch({ weighingTolerancePercent: -1 }), 400, 'weighingTolerancePercent must be >= 0');
    expectError(
      await patch({ weighingTolerancePercent: 12.345 }),
      400,
      'weighingTolerancePercent has more than 2 decimal places',
    );
    expect((await patch({ weighingTolerancePercent: 12.5 })).json().weighingTolerancePercent).toBe(12.5);
    expect((await patch({ name: 'Novo nome' })).json()).toMatchObject({
      name: 'Novo nome',
      weighingTolerancePercent: 12.5,
    });
    expect((await detail()).weighingTolerancePercent).toBe(12.5);
  });
});

describe('weighing with an opendelivery key (D27, D28)', () => {
  it('weighs, shows Open Delivery’s order with the weighed line, and refuses in Open Delivery’s dialect', async () => {
    const me = await createMerchant(t.app);
    const { order } = await cashOrder(t, me);
    const od = await connectPos(t.app, await createKey(t.app, me.merchantId, 'opendelivery'));
    expectOdError(
      await od.post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1 }] }),
      422,
      'Order is CREATED',
    );
    expect((await od.post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expectOdError(
      await od.post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1.3 }] }),
      400,
      'items[0].quantity must be between 0.8 and 1.2 (±20 % of the 1 kg ordered)',
    );
    const res = await od.post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 0.94 }] });
    expect(res.statusCode, res.body).toBe(202);
    const view = (await od.get(`/v1/orders/${order.id}`)).json();
    expectOd(OdOrder, view);
    expect(view.items[0]).toMatchObject({
      quantity: 0.94,
      orderedQuantity: 1,
      totalPrice: { value: 84.51, currency: 'BRL' },
    });
    // 84.51 + 13.95 + 50.00 + 7.90
    expect(view.total.orderAmount).toEqual({ value: 156.36, currency: 'BRL' });
    expect(view.payments.pending).toBe(156.36);
    expect((await od.post(`/v1/orders/${order.id}/readyForPickup`)).statusCode).toBe(202);
    expectOdError(
      await od.post(`/v1/orders/${order.id}/weighing`, { items: [{ index: 0, quantity: 1 }] }),
      422,
      'Order is READY_FOR_PICKUP',
    );
  });
});

describe('weighing listeners (the platform feed’s hook, D36, D38)', () => {
  it('are called in the weighing’s transaction with the WEIGHED data; a failing one rolls the weighing back', async () => {
    const me = await createMerchant(t.app);
    const { order } = await cashOrder(t, me);
    const heard: OrderWeighed[] = [];
    let fail = false;
    // An app of its own on the same database, with a listener that can be made to fail.
    const own = await createTestApp({
      database: t.database,
      onWeighed: async (_tx, weighed) => {
        if (fail) throw new Error('feed unavailable');
        heard.push(weighed);
      },
    });
    const pos = posCall(own, me.token);
    await pos('POST', `/v1/orders/${order.id}/confirm`, confirmBody);
    try {
      await pos('POST', `/v1/orders/${order.id}/weighing`, { items: [{ index: 1, quantity: 0.45 }] });
      expect(heard).toEqual([
        {
          id: expect.any(String),
          merchantId: me.merchantId,
          orderId: order.id,
          occurredAt: expect.any(Date),
          keyId: me.keyId,
          data: {
            lines: [{ index: 1, orderedQuantity: 0.5, quantity: 0.45 }],
            // 27.90 × 0.45 = 12.555 → 12.56 (half up): 153.85 − 13.95 + 12.56 = 152.46
            itemsPriceBefore: { value: 153.85, currency: 'BRL' },
            itemsPriceAfter: { value: 152.46, currency: 'BRL' },
            weighingAdjustment: null,
          },
        },
      ]);
      const before = (await pos('GET', `/v1/orders/${order.id}`)).json();
      fail = true;
      const principal = {
        merchantId: me.merchantId,
        keyId: me.keyId,
        jti: 'test',
        expiresAt: 0,
        profile: 'cleaver' as const,
      };
      await expect(
        own.services.orders.weigh(principal, order.id, { items: [{ index: 1, quantity: 0.55 }] }),
      ).rejects.toThrow('feed unavailable');
      expect((await pos('GET', `/v1/orders/${order.id}`)).json()).toEqual(before);
      const detail = (
        await t.app.inject({ method: 'GET', url: `/admin/v1/orders/${order.id}`, headers: adminHeaders })
      ).json();
      expect(detail.weighings).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});
