// Property of D38's arithmetic on the pure functions (no database: many cases per run): for any
// order of KG and UN lines, any fees and discount, any payment (PENDING, PREPAID or both) and any
// weighing within the tolerance, intake then weighing give what the integer model of
// weighing-model.ts says, to the cent; a weight outside the tolerance is refused and changes
// nothing. The same property through HTTP, both profiles and both databases, is
// weighing.property.test.ts.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProductRow } from '../../src/modules/catalog/index.js';
import { buildOrder } from '../../src/modules/orders/order-intake.js';
import { weighOrder } from '../../src/modules/orders/order-weighing.js';
import { generatedRuns } from '../support/generated-inputs.js';
import {
  arbOrder,
  arbOutside,
  arbWeighing,
  expected,
  expectedPayments,
  intakePayments,
  type ModelOrder,
  num,
  reais,
} from './weighing-model.js';

const RUNS = generatedRuns(3_000, 200);

function intake(order: ModelOrder) {
  const products: ProductRow[] = order.lines.map((l, i) => ({
    id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    merchant_id: 'm',
    pdv_external_id: null,
    name: `P${i}`,
    description: '',
    price: String(num(l.price, 4)),
    unit: l.unit,
    status: 'AVAILABLE',
    stock: '0',
    external_code: '',
    ean: '',
    sku: '',
    scale_code: null,
    weight_min: null,
    weight_max: null,
    weight_step: null,
    lead_time_hours: null,
  }));
  const { prepaid, pending } = intakePayments(order);
  const methods = [
    ...(order.payment !== 'PENDING'
      ? [{ value: reais(prepaid), type: 'PREPAID' as const, method: 'CREDIT' as const }]
      : []),
    ...(order.payment !== 'PREPAID'
      ? [{ value: reais(pending), type: 'PENDING' as const, method: 'CASH' as const }]
      : []),
  ];
  let n = 0;
  return buildOrder(
    {
      type: 'DELIVERY',
      items: order.lines.map((l, i) => ({
        productId: products[i].id,
        quantity: l.unit === 'KG' ? num(l.ordered, 3) : Number(l.ordered),
      })),
      otherFees: [{ name: 'Taxa', type: 'DELIVERY_FEE', price: reais(order.fee) }],
      discounts: order.discount > 0n ? [{ amount: reais(order.discount), target: 'CART' }] : [],
      payments: { methods },
    },
    {
      orderId: '99999999-9999-4999-8999-999999999999',
      now: new Date('2026-03-02T15:00:00Z'),
      appId: '88888888-8888-4888-8888-888888888888',
      merchant: { id: 'm', name: 'Açougue' },
      products,
      ordersCountOnMerchant: 0,
      newId: () => `77777777-7777-4777-8777-${String(n++).padStart(12, '0')}`,
      randomDigits: () => '1234',
    },
  ).document;
}

const tolerancePercent = (order: ModelOrder) => String(num(order.tolerance, 2));

describe('weighing arithmetic (D38, D9)', () => {
  it('line totals, itemsPrice, orderAmount and payments follow the weights to the cent', () => {
    const arb = arbOrder.chain((order) => fc.tuple(fc.constant(order), arbWeighing(order), arbWeighing(order)));
    fc.assert(
      fc.property(arb, ([order, first, second]) => {
        const document = intake(order);
        const input = (w: Map<number, bigint>) => [...w].map(([index, g]) => ({ index, quantity: num(g, 3) }));
        const once = weighOrder(document, input(first), tolerancePercent(order));
        // A second weighing: the last weighing of a line counts, the others keep the first.
        const twice = weighOrder(once.document, input(second), tolerancePercent(order));
        const last = new Map([...first, ...second]);
        const model = expected(order, last);
        const doc = twice.document;

        expect(doc.items.map((i) => i.totalPrice.value)).toEqual(model.totals.map(reais));
        expect(doc.items.map((i) => i.quantity)).toEqual(
          order.lines.map((l, i) => (l.unit === 'KG' ? num(last.get(i) ?? l.ordered, 3) : Number(l.ordered))),
        );
        expect(doc.items.map((i) => i.orderedQuantity)).toEqual(
          order.lines.map((l, i) => (last.has(i) ? num(l.ordered, 3) : undefined)),
        );
        expect(doc.total.itemsPrice.value).toBe(reais(model.itemsPrice));
        expect(doc.total.orderAmount.value).toBe(reais(model.orderAmount));
        expect(twice.totals).toEqual({
          itemsPrice: String(reais(model.itemsPrice)),
          orderAmount: String(reais(model.orderAmount)),
        });
        expect(twice.itemsPriceBefore.value).toBe(reais(expected(order, first).itemsPrice));
        expect(twice.itemsPriceAfter.value).toBe(reais(model.itemsPrice));

        const pay = expectedPayments(order, model.orderAmount);
        expect(doc.payments.prepaid).toBe(reais(pay.prepaid));
        expect(doc.payments.pending).toBe(reais(pay.pending));
        const methodSum = doc.payments.methods.reduce((s, m) => s + BigInt(Math.round(m.value * 100)), 0n);
        expect(methodSum).toBe(pay.prepaid + pay.pending);
        for (const m of doc.payments.methods)
          if (m.changeFor !== undefined) expect(m.changeFor).toBeGreaterThanOrEqual(m.value);
        expect(doc.weighingAdjustment?.value).toBe(pay.adjustment === undefined ? undefined : reais(pay.adjustment));
        // It balances: what was paid, what is collected and what the platform settles make the amount.
        const adjustment = BigInt(Math.round((doc.weighingAdjustment?.value ?? 0) * 100));
        expect(pay.prepaid + pay.pending + adjustment).toBe(model.orderAmount);
      }),
      { numRuns: RUNS },
    );
  });

  it('outside the tolerance nothing changes: the request is refused naming the line’s field', () => {
    const arb = arbOrder.chain((order) =>
      fc.tuple(fc.constant(order), arbWeighing(order), arbOutside(order), fc.nat()),
    );
    fc.assert(
      fc.property(arb, ([order, valid, outside, at]) => {
        const document = intake(order);
        const snapshot = JSON.stringify(document);
        // The bad line anywhere in a request of otherwise valid lines.
        const lines = [...valid]
          .filter(([i]) => i !== outside.index)
          .map(([index, g]) => ({ index, quantity: num(g, 3) }));
        const position = at % (lines.length + 1);
        lines.splice(position, 0, { index: outside.index, quantity: num(outside.grams, 3) });
        expect(() => weighOrder(document, lines, tolerancePercent(order))).toThrow(
          new RegExp(`^items\\[${position}\\]\\.quantity must be between `),
        );
        expect(JSON.stringify(document)).toBe(snapshot);
      }),
      { numRuns: RUNS },
    );
  });
});
