// Property of D43 through HTTP, on both databases: for any counted stock of a KG product and any
// sequence of intakes, confirmations, weighings and cancellations, the stock is always its start
// minus what the confirmed, non-cancelled orders hold (the ordered quantity, or the weighed one
// once weighed), never negative; an intake or weighing that would take more than is left is a
// 400 naming the line's quantity and changes nothing. The expectations come from a gram-integer
// model, not from the service's code.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatedRuns } from '../support/generated-inputs.js';
import { createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

/** Sequences run through HTTP: each is a product and up to ten commands of two or three requests. */
const RUNS = generatedRuns(40, 4);

type Command =
  | { kind: 'intake'; grams: number }
  | { kind: 'confirm'; pick: number }
  | { kind: 'weigh'; pick: number; percent: number }
  | { kind: 'cancel'; pick: number };

const arbCommand: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constant('intake' as const), grams: fc.integer({ min: 100, max: 1500 }) }),
  fc.record({ kind: fc.constant('confirm' as const), pick: fc.nat(20) }),
  fc.record({ kind: fc.constant('weigh' as const), pick: fc.nat(20), percent: fc.integer({ min: 85, max: 115 }) }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }),
);

interface ModelOrder {
  id: string;
  ordered: number;
  status: 'CREATED' | 'CONFIRMED' | 'CANCELLED';
  /** Grams of stock the order holds. */
  holds: number;
}

const kg = (grams: number) => grams / 1000;

let t: TestApp;
let me: MerchantCredentials;
beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' } });
  me = await createMerchant(t.app, 'Açougue Estoque');
});
afterAll(() => t.close());

describe('counted stock under any sequence of order changes (D43)', () => {
  it('is the start minus what confirmed, non-cancelled orders hold, never negative', async () => {
    const pos = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: bearer(me.token), payload: payload as object });
    const admin = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url: `/admin/v1${url}`, headers: adminHeaders, payload: payload as object });

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 500, max: 4000 }),
        fc.array(arbCommand, { minLength: 1, maxLength: 10 }),
        async (start, commands) => {
          const product = await createProduct(t.app, me.merchantId, { name: 'Alcatra', price: 10, unit: 'KG' });
          const counted = await pos('POST', '/v1/merchant/availability', {
            items: [{ productId: product.id, available: true, stock: { quantity: kg(start) } }],
          });
          expect(counted.statusCode, counted.body).toBe(200);
          let stock = start;
          const orders: ModelOrder[] = [];
          const stockNow = async () => {
            const record = (await pos('GET', '/v1/merchant')).json() as {
              products: Array<{ id: string; availability?: { stock: { quantity: number } | null } }>;
            };
            return record.products.find((p) => p.id === product.id)?.availability?.stock?.quantity;
          };

          for (const c of commands) {
            if (c.kind === 'intake') {
              const res = await admin(`/merchants/${me.merchantId}/orders`, {
                type: 'TAKEOUT',
                items: [{ productId: product.id, quantity: kg(c.grams) }],
              });
              if (c.grams > stock) {
                expect(res.json()).toEqual({
                  title: `items[0].quantity is more than the stock left (${kg(stock).toFixed(3)} kg left)`,
                  status: 400,
                });
              } else {
                expect(res.statusCode, res.body).toBe(201);
                orders.push({ id: res.json().id, ordered: c.grams, status: 'CREATED', holds: 0 });
              }
            } else if (orders.length > 0) {
              const order = orders[c.pick % orders.length] as ModelOrder;
              if (c.kind === 'confirm') {
                const res = await pos('POST', `/v1/orders/${order.id}/confirm`, {
                  createdAt: new Date().toISOString(),
                  orderExternalCode: 'PROP',
                });
                if (order.status !== 'CREATED') expect(res.statusCode).toBe(400);
                else if (order.ordered > stock) {
                  expect(res.json()).toEqual({
                    title: `items[0].quantity is more than the stock left (${kg(stock).toFixed(3)} kg left)`,
                    status: 400,
                  });
                } else {
                  expect(res.statusCode, res.body).toBe(202);
                  stock -= order.ordered;
                  order.holds = order.ordered;
                  order.status = 'CONFIRMED';
                }
              } else if (c.kind === 'weigh') {
                const weighed = Math.round((order.ordered * c.percent) / 100);
                const res = await pos('POST', `/v1/orders/${order.id}/weighing`, {
                  items: [{ index: 0, quantity: kg(weighed) }],
                });
                if (order.status !== 'CONFIRMED') expect(res.statusCode).toBe(400);
                else if (weighed - order.holds > stock) {
                  expect(res.json()).toEqual({
                    title: `items[0].quantity is more than the stock left (${kg(stock).toFixed(3)} kg left)`,
                    status: 400,
                  });
                } else {
                  expect(res.statusCode, res.body).toBe(202);
                  stock -= weighed - order.holds;
                  order.holds = weighed;
                }
              } else {
                const res = await admin(`/orders/${order.id}/events`, { eventType: 'CANCELLED' });
                if (order.status === 'CANCELLED') expect(res.statusCode).toBe(400);
                else {
                  expect(res.statusCode, res.body).toBeLessThan(300);
                  stock += order.holds;
                  order.holds = 0;
                  order.status = 'CANCELLED';
                }
              }
            }
            const seen = await stockNow();
            expect(seen).toBe(kg(stock));
            expect(seen).toBeGreaterThanOrEqual(0);
          }
          const held = orders.filter((o) => o.status !== 'CANCELLED').reduce((sum, o) => sum + o.holds, 0);
          expect(stock).toBe(start - held);
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});
