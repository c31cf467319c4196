// D45's "must show", on both databases: a week of sandbox traffic (orders every day, weighed up
// and down, some cancelled at each stage, paid online, in cash or by card at the door) closes
// into a statement whose CSV, summed by hand, equals the concluded orders' totals less the
// commission and less what the shop collected itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { Decimal } from '../../src/lib/money.js';
import { confirmBody } from '../support/order-session.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const DAY = 86_400_000;
// Monday 2026-03-02, 08:00 in Sao Paulo.
const clock = manualClock(new Date('2026-03-02T11:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_ENV: 'sandbox' } });
});
afterAll(() => t.close());

/** A CSV of the service: header row, comma separated, quoted fields where needed. */
function parseCsv(text: string): Array<Record<string, string>> {
  const rows: string[][] = [];
  let field = '';
  let row: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += c;
  }
  const [header, ...body] = rows;
  return body.map((r) => Object.fromEntries((header ?? []).map((h, i) => [h, r[i] ?? ''])));
}

describe('a week of sandbox traffic (D45)', () => {
  it('closes into a statement whose CSV sums to the orders less commission and what the shop collected', async () => {
    const me = await createMerchant(t.app, 'Açougue Semana');
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${me.merchantId}`,
      headers: adminHeaders,
      payload: { commissionPercent: 11.5 },
    });
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const carvao = await createProduct(t.app, me.merchantId, { name: 'Carvão', price: 25, unit: 'UN' });
    const orderIds: string[] = [];
    let token = me.token;
    const pos = async (action: string, orderId: string, payload?: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/orders/${orderId}/${action}`,
        headers: bearer(token),
        payload,
      });
      expect(res.statusCode, `${action}: ${res.body}`).toBe(202);
    };
    const platform = async (orderId: string, payload: object) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/admin/v1/orders/${orderId}/events`,
        headers: adminHeaders,
        payload,
      });
      expect(res.statusCode, res.body).toBe(202);
    };

    for (let day = 0; day < 7; day++) {
      clock.set(new Date(Date.parse('2026-03-02T11:00:00Z') + day * DAY));
      const renewed = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { client_id: me.merchantId, client_secret: me.clientSecret, grant_type: 'client_credentials' },
      });
      token = renewed.json().access_token;
      for (let n = 0; n < 6; n++) {
        clock.advance(45 * 60_000);
        const kg = 1 + ((day + n) % 4) / 4; // 1, 1.25, 1.5, 1.75 kg
        const amount = new Decimal(89.9).times(kg).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).plus(25).plus(7.9);
        const pay = ['PREPAID', 'CASH', 'CARD'][n % 3];
        const order = await createOrder(t.app, me.merchantId, {
          type: 'DELIVERY',
          items: [
            { productId: picanha.id, quantity: kg },
            { productId: carvao.id, quantity: 1 },
          ],
          otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 7.9 }],
          payments: {
            methods: [
              pay === 'PREPAID'
                ? { value: amount.toNumber(), type: 'PREPAID', method: 'CREDIT' }
                : { value: amount.toNumber(), type: 'PENDING', method: pay === 'CASH' ? 'CASH' : 'DEBIT' },
            ],
          },
        });
        orderIds.push(order.id);
        // One order a day cancelled, each day at another stage: before confirmation, after it, on the way.
        const cancelAt = n === 5 ? day % 3 : -1;
        if (cancelAt === 0) {
          await platform(order.id, { eventType: 'CANCELLED', reason: 'Cliente desistiu' });
          continue;
        }
        await pos('confirm', order.id, confirmBody);
        // Weighed up, down or as ordered (within the 20 % tolerance).
        const weighed = new Decimal(kg)
          .times([1.08, 0.93, 1][n % 3] as number)
          .toDecimalPlaces(3)
          .toNumber();
        await pos('weighing', order.id, { items: [{ index: 0, quantity: weighed }] });
        if (cancelAt === 1) {
          await platform(order.id, { eventType: 'CANCELLED', reason: 'Sem estoque' });
          continue;
        }
        await pos('dispatch', order.id, { deliveryTrackingInfo: { status: 'ON_THE_WAY' } });
        if (cancelAt === 2) {
          await platform(order.id, { eventType: 'CANCELLED', reason: 'Endereço não encontrado' });
          continue;
        }
        await pos('delivered', order.id);
        await platform(order.id, { eventType: 'CONCLUDED' });
      }
    }

    // The week ends (Monday 2026-03-09 00:00 in Sao Paulo); the worker's pass closes it.
    clock.set(new Date('2026-03-09T03:00:05Z'));
    expect(await t.services.statements.closeDue()).toBeGreaterThanOrEqual(1);
    const list = await t.app.inject({
      url: `/admin/v1/statements?merchantId=${me.merchantId}`,
      headers: { ...adminHeaders, accept: 'text/csv' },
    });
    expect(list.statusCode).toBe(200);
    const [statement, ...others] = parseCsv(list.body);
    expect(others).toEqual([]);
    expect(statement).toMatchObject({
      periodStart: '2026-03-02T03:00:00.000Z',
      periodEnd: '2026-03-09T03:00:00.000Z',
      state: 'CLOSED',
      currency: 'BRL',
    });
    const csv = await t.app.inject({
      url: `/admin/v1/statements/${statement?.id}/lines`,
      headers: { ...adminHeaders, accept: 'text/csv' },
    });
    const lines = parseCsv(csv.body);

    // By hand: the concluded orders as the operator reads them.
    let totals = new Decimal(0);
    let commission = new Decimal(0);
    let collected = new Decimal(0);
    let concluded = 0;
    for (const id of orderIds) {
      const o = (await t.app.inject({ url: `/admin/v1/orders/${id}`, headers: adminHeaders })).json() as {
        status: string;
        total: { orderAmount: { value: number } };
        payments: { methods: Array<{ type: string; value: number }> };
      };
      if (o.status !== 'CONCLUDED') continue;
      concluded++;
      const amount = new Decimal(String(o.total.orderAmount.value));
      totals = totals.plus(amount);
      commission = commission.plus(amount.times('0.115').toDecimalPlaces(2, Decimal.ROUND_HALF_UP));
      for (const m of o.payments.methods) if (m.type === 'PENDING') collected = collected.plus(String(m.value));
    }
    expect(concluded).toBe(7 * 6 - 7);
    const column = (name: string, kind?: string) =>
      lines.filter((l) => !kind || l.kind === kind).reduce((sum, l) => sum.plus(l[name] ?? '0'), new Decimal(0));
    expect(column('value', 'ORDER').toFixed(2)).toBe(totals.toFixed(2));
    expect(column('value', 'COMMISSION').toFixed(2)).toBe(commission.toFixed(2));
    expect(column('value', 'COLLECTED_BY_MERCHANT').toFixed(2)).toBe(collected.toFixed(2));
    const net = totals.minus(commission).minus(collected);
    expect(column('netEffect').toFixed(2)).toBe(net.toFixed(2));
    expect(statement?.net).toBe(net.toFixed(2));
    expect(statement?.gross).toBe(totals.toFixed(2));
  });
});
