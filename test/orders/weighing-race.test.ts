// D38 under concurrency: two weighings and a dispatch of the same order sent at once. Every
// change of an order is a compare-and-set on its version (style.md#sql), so whatever order they
// land in, the order ends in one consistent state: each accepted weighing is one timeline entry
// and one listener call, the document and its numeric columns agree, the totals add up, and a
// weighing that lost to the dispatch changed nothing. On PostgreSQL the three really overlap (a
// pool of connections); on the embedded database they are serialised, and must still agree.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../src/lib/money.js';
import type { OrderWeighed } from '../../src/modules/orders/index.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

/** Rounds of the three-way race: each a fresh order, so each is an independent try. */
const ROUNDS = 8;

let t: TestApp;
const heard: OrderWeighed[] = [];
beforeAll(async () => {
  t = await createTestApp({
    env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' },
    onWeighed: async (_tx, w) => {
      heard.push(w);
    },
  });
  await t.app.inject({ method: 'GET', url: '/admin/v1/merchants', headers: adminHeaders });
});
afterAll(() => t.close());

const d = (n: number) => new Decimal(String(n));

describe('two weighings and a dispatch at once (D38)', () => {
  it('leave one outcome: no lost update, no half-write, the totals of the last accepted weighing', async () => {
    const me = await createMerchant(t.app, 'Açougue Corrida');
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const linguica = await createProduct(t.app, me.merchantId, { name: 'Linguiça', price: 27.9, unit: 'KG' });
    const post = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: bearer(me.token), payload: payload as object });
    const outcomes = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = await createOrder(t.app, me.merchantId, {
        type: 'DELIVERY',
        items: [
          { productId: picanha.id, quantity: 1 },
          { productId: linguica.id, quantity: 0.5 },
        ],
        otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 7.9 }],
        payments: { methods: [{ value: 111.75, type: 'PENDING', method: 'PIX' }] },
      });
      const confirmed = await post(`/v1/orders/${order.id}/confirm`, {
        createdAt: order.createdAt,
        orderExternalCode: `R-${round}`,
      });
      expect(confirmed.statusCode).toBe(202);
      const heardBefore = heard.length;

      const [a, b, dispatch] = await Promise.all([
        post(`/v1/orders/${order.id}/weighing`, {
          items: [
            { index: 0, quantity: 0.9 },
            { index: 1, quantity: 0.45 },
          ],
        }),
        post(`/v1/orders/${order.id}/weighing`, {
          items: [
            { index: 0, quantity: 1.1 },
            { index: 1, quantity: 0.55 },
          ],
        }),
        post(`/v1/orders/${order.id}/dispatch`, {}),
      ]);

      // Each call has one of its allowed answers; a refused weighing says why.
      expect([202, 409]).toContain(dispatch.statusCode);
      for (const w of [a, b]) {
        expect([202, 400, 409], w.body).toContain(w.statusCode);
        if (w.statusCode === 400) expect(w.json()).toEqual({ title: 'Order is DISPATCHED', status: 400 });
      }
      const accepted = [a, b].filter((w) => w.statusCode === 202).length;
      outcomes.add(`${accepted} weighing(s), dispatch ${dispatch.statusCode}`);

      const { rows } = await t.database.db.query<{
        version: number;
        status: string;
        items_price: string;
        order_amount: string;
        document: {
          items: Array<{
            quantity: number;
            orderedQuantity?: number;
            unitPrice: { value: number };
            totalPrice: { value: number };
          }>;
          total: Record<string, { value: number }>;
          payments: { pending: number; methods: Array<{ value: number }> };
        };
      }>('SELECT version, status, items_price::text, order_amount::text, document FROM orders WHERE id = $1', [
        order.id,
      ]);
      const row = rows[0];
      const weighings = await t.database.db.query<{ lines: Array<{ index: number; quantity: number }> }>(
        'SELECT lines FROM order_weighings WHERE order_id = $1 ORDER BY position',
        [order.id],
      );

      // No lost update: one version step per accepted change (confirm, each weighing, the dispatch).
      expect(row.version).toBe(1 + accepted + (dispatch.statusCode === 202 ? 1 : 0));
      expect(row.status).toBe(dispatch.statusCode === 202 ? 'DISPATCHED' : 'CONFIRMED');
      // One timeline entry and one listener call per accepted weighing, nothing for a refused one.
      expect(weighings.rows).toHaveLength(accepted);
      expect(heard.length - heardBefore).toBe(accepted);

      // The document shows the last accepted weighing, or none.
      const doc = row.document;
      const last = weighings.rows.at(-1);
      expect(doc.items.map((i) => i.quantity)).toEqual(last ? last.lines.map((l) => l.quantity) : [1, 0.5]);
      expect(doc.items.map((i) => i.orderedQuantity)).toEqual(last ? [1, 0.5] : [undefined, undefined]);
      // Totals add up to the cent, and the columns agree with the document.
      const lines = doc.items.map((i) =>
        d(i.unitPrice.value).times(d(i.quantity)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
      );
      expect(doc.items.map((i) => i.totalPrice.value)).toEqual(lines.map((x) => x.toNumber()));
      const itemsPrice = lines.reduce((s, x) => s.plus(x), new Decimal(0));
      const orderAmount = itemsPrice.plus(d(doc.total.otherFees.value)).minus(d(doc.total.discount.value));
      expect(doc.total.itemsPrice.value).toBe(itemsPrice.toNumber());
      expect(doc.total.orderAmount.value).toBe(orderAmount.toNumber());
      expect(new Decimal(row.items_price).equals(itemsPrice)).toBe(true);
      expect(new Decimal(row.order_amount).equals(orderAmount)).toBe(true);
      expect(doc.payments.pending).toBe(orderAmount.toNumber());
      expect(doc.payments.methods[0].value).toBe(orderAmount.toNumber());
    }
    // What the rounds saw, for the log: on PostgreSQL the interleavings vary from run to run.
    console.info(`weighing race outcomes (${process.env.TEST_DB}): ${[...outcomes].join('; ')}`);
  });
});
