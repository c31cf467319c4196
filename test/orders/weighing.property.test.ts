// Property of D38 through HTTP, in both profiles and on both databases: for any order of KG and
// UN lines (operator intake), fees, a discount, any payment (PENDING, PREPAID or both) and the
// merchant's tolerance, a weighing within the tolerance (then a second one) gives line totals of
// unit price × weight rounded half up to cents, itemsPrice their sum, orderAmount = itemsPrice +
// otherFees − discount, and payments that balance it to the cent (PENDING follows, the prepaid
// rest is weighingAdjustment); a weighing outside the tolerance is refused and changes nothing.
// The expectations come from the integer model of weighing-model.ts, not from the service's code.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectPos, createKey, type OdPos } from '../opendelivery/od-support.js';
import { generatedRuns } from '../support/generated-inputs.js';
import { createOrder, createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
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

/** Orders placed, weighed and read through HTTP: each run is about fifteen requests. */
const RUNS = generatedRuns(150, 12);

let t: TestApp;
let me: MerchantCredentials;
let od: OdPos;
beforeAll(async () => {
  t = await createTestApp({
    env: {
      CLEAVER_RATE_LIMIT_AUTH: '1000000',
      CLEAVER_RATE_LIMIT_READ: '1000000',
      CLEAVER_RATE_LIMIT_WRITE: '1000000',
    },
  });
  me = await createMerchant(t.app, 'Açougue Propriedade');
  od = await connectPos(t.app, await createKey(t.app, me.merchantId, 'opendelivery'));
});
afterAll(() => t.close());

type Profile = 'cleaver' | 'opendelivery';

function call(profile: Profile, method: 'GET' | 'POST', url: string, payload?: unknown) {
  if (profile === 'opendelivery') return method === 'GET' ? od.get(url) : od.post(url, payload);
  return t.app.inject({
    method,
    url,
    headers: bearer(me.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function place(order: ModelOrder) {
  const products: Array<{ id: string }> = [];
  for (const [i, l] of order.lines.entries()) {
    products.push(await createProduct(t.app, me.merchantId, { name: `P${i}`, price: num(l.price, 4), unit: l.unit }));
  }
  const { prepaid, pending } = intakePayments(order);
  return createOrder(t.app, me.merchantId, {
    type: 'DELIVERY',
    items: order.lines.map((l, i) => ({
      productId: products[i].id,
      quantity: l.unit === 'KG' ? num(l.ordered, 3) : Number(l.ordered),
    })),
    otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: reais(order.fee) }],
    discounts: order.discount > 0n ? [{ amount: reais(order.discount), target: 'CART' }] : [],
    payments: {
      methods: [
        ...(order.payment !== 'PENDING' ? [{ value: reais(prepaid), type: 'PREPAID', method: 'CREDIT' }] : []),
        ...(order.payment !== 'PREPAID' ? [{ value: reais(pending), type: 'PENDING', method: 'CASH' }] : []),
      ],
    },
  });
}

const body = (w: Map<number, bigint>) => ({ items: [...w].map(([index, g]) => ({ index, quantity: num(g, 3) })) });

describe('weighing through HTTP (D38, D9)', () => {
  it('totals and payments follow the weights to the cent; outside the tolerance nothing changes', async () => {
    const arb = arbOrder.chain((order) =>
      fc.tuple(
        fc.constant(order),
        arbWeighing(order),
        arbWeighing(order),
        arbOutside(order),
        fc.constantFrom<Profile>('cleaver', 'opendelivery'),
      ),
    );
    await fc.assert(
      fc.asyncProperty(arb, async ([order, first, second, outside, profile]) => {
        const patched = await t.app.inject({
          method: 'PATCH',
          url: `/admin/v1/merchants/${me.merchantId}`,
          headers: adminHeaders,
          payload: { weighingTolerancePercent: num(order.tolerance, 2) },
        });
        expect(patched.statusCode, patched.body).toBe(200);
        const placed = await place(order);
        const url = `/v1/orders/${placed.id}`;
        const confirmed = await call(profile, 'POST', `${url}/confirm`, {
          createdAt: placed.createdAt,
          orderExternalCode: 'PROP',
        });
        expect(confirmed.statusCode).toBe(202);

        // Outside the tolerance: 400 naming the line's field, and the order as it was.
        const before = (await call(profile, 'GET', url)).json();
        const refused = await call(profile, 'POST', `${url}/weighing`, {
          items: [{ index: outside.index, quantity: num(outside.grams, 3) }],
        });
        expect(refused.statusCode).toBe(400);
        expect(refused.json().title).toMatch(/^items\[0\]\.quantity must be between /);
        expect((await call(profile, 'GET', url)).json()).toEqual(before);

        expect((await call(profile, 'POST', `${url}/weighing`, body(first))).statusCode).toBe(202);
        expect((await call(profile, 'POST', `${url}/weighing`, body(second))).statusCode).toBe(202);
        const last = new Map([...first, ...second]);
        const model = expected(order, last);
        const view = (await call(profile, 'GET', url)).json();

        expect(view.items.map((i: { totalPrice: { value: number } }) => i.totalPrice.value)).toEqual(
          model.totals.map(reais),
        );
        expect(view.items.map((i: { quantity: number }) => i.quantity)).toEqual(
          order.lines.map((l, i) => (l.unit === 'KG' ? num(last.get(i) ?? l.ordered, 3) : Number(l.ordered))),
        );
        expect(view.items.map((i: { orderedQuantity?: number }) => i.orderedQuantity)).toEqual(
          order.lines.map((l, i) => (last.has(i) ? num(l.ordered, 3) : undefined)),
        );
        expect(view.total).toEqual({
          itemsPrice: { value: reais(model.itemsPrice), currency: 'BRL' },
          otherFees: { value: reais(order.fee), currency: 'BRL' },
          discount: { value: reais(order.discount), currency: 'BRL' },
          orderAmount: { value: reais(model.orderAmount), currency: 'BRL' },
        });
        const pay = expectedPayments(order, model.orderAmount);
        expect({ prepaid: view.payments.prepaid, pending: view.payments.pending }).toEqual({
          prepaid: reais(pay.prepaid),
          pending: reais(pay.pending),
        });
        expect(view.weighingAdjustment).toEqual(
          pay.adjustment === undefined ? undefined : { value: reais(pay.adjustment), currency: 'BRL' },
        );
        const cents = (v: number) => BigInt(Math.round(v * 100));
        const methods = view.payments.methods as Array<{ value: number; type: string }>;
        const paid = methods.reduce((s, m) => s + cents(m.value), 0n);
        expect(paid + cents(view.weighingAdjustment?.value ?? 0)).toBe(model.orderAmount);
      }),
      { numRuns: RUNS },
    );
  });
});
