// On a live service (a real socket on 127.0.0.1): the scale label layouts of both routes (D41), a
// weighing by each of D41's vectors with the totals exact to the cent, KG limits at intake
// (D42), and the ASK flow end to end: a weighing out of tolerance → the feed item → the
// platform's decision → the order and its payments recomputed; the deadline with the merchant's
// default; and a decision racing the deadline, of which exactly one wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOperator, type TestOperator } from '../operators-access/support.js';
import { merchantBody, merchantRecord, productByPdv, sync } from '../support/catalog.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
let base: string;
let platform: TestOperator;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' } });
  platform = await createOperator(t.app, 'platform');
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, checked by the assertions
type Json = Record<string, any>;
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
}
const pos = (me: MerchantCredentials) => ({
  get: (path: string) => call('GET', path, bearer(me.token)),
  post: (path: string, body?: unknown) => call('POST', path, bearer(me.token), body),
  put: (path: string, body?: unknown) => call('PUT', path, bearer(me.token), body),
});
const admin = (method: string, path: string, body?: unknown) => call(method, `/admin/v1${path}`, adminHeaders, body);

const layout = (prefix: string, codeDigits: number, value: 'WEIGHT' | 'PRICE', valueDigits: number) => ({
  prefix,
  codeDigits,
  value,
  valueDigits,
  decimals: value === 'WEIGHT' ? 3 : 2,
});
const WEIGHT_6_5 = layout('2', 6, 'WEIGHT', 5);
const PRICE_4_7 = layout('2', 4, 'PRICE', 7);
const PRICE_6_5 = layout('2', 6, 'PRICE', 5);

/** A butcher's catalog: five KG products with scale codes (those of D41's vectors), one UN. */
async function butcher(): Promise<{ me: MerchantCredentials; ids: Record<string, string> }> {
  const me = await createMerchant(t.app, 'Açougue da Balança');
  const items = [
    { id: 'MAMINHA', name: 'Maminha', unit: 'KG', scaleCode: '2', price: 12.19 },
    { id: 'PICANHA', name: 'Picanha', unit: 'KG', scaleCode: '010085', price: 12.19 },
    { id: 'COSTELA', name: 'Costela', unit: 'KG', scaleCode: '149', price: 12.19 },
    { id: 'ACEM', name: 'Acém', unit: 'KG', scaleCode: '1', price: 12.19 },
    {
      id: 'FRALDINHA',
      name: 'Fraldinha',
      unit: 'KG',
      scaleCode: '77',
      price: 49.9,
      weight: { min: 0.5, max: 3, step: 0.25 },
    },
    { id: 'CARVAO', name: 'Carvão', unit: 'UN', price: 19.9 },
  ];
  const status = await sync(
    t,
    me,
    merchantBody({
      categories: [{ id: 'C1', name: 'Bovinos', itemOfferId: items.map((i) => `O-${i.id}`) }],
      itemOffers: items.map((i) => ({ id: `O-${i.id}`, itemId: i.id, price: { value: i.price } })),
      items: items.map(({ price: _price, ...i }) => i),
    }),
  );
  expect(status.status, status.moreInfo ?? '').toBe('SUCCESS');
  const record = await merchantRecord(t, me);
  const ids = Object.fromEntries(items.map((i) => [i.id, productByPdv(record, i.id)?.id as string]));
  return { me, ids };
}

async function confirmedOrder(
  me: MerchantCredentials,
  items: Array<{ productId: string; quantity: number }>,
  payments: unknown[],
) {
  const created = await admin('POST', `/merchants/${me.merchantId}/orders`, {
    type: 'DELIVERY',
    items,
    otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 5 }],
    payments: { methods: payments },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const confirmed = await pos(me).post(`/v1/orders/${created.body.id}/confirm`, {
    createdAt: created.body.createdAt,
    orderExternalCode: 'BAL-1',
  });
  expect(confirmed.status).toBe(202);
  return created.body.id as string;
}

async function feedOf(orderId: string, type: string) {
  const res = await admin('GET', '/feed?kinds=order&limit=1000');
  expect(res.status).toBe(200);
  return (res.body.items as Json[]).filter((i) => i.orderId === orderId && i.type === type);
}

describe('scale label layouts (D41)', () => {
  it('the POS and the operator set and read them; a broken rule is a 400 naming the field and writes nothing', async () => {
    const me = await createMerchant(t.app, 'Açougue dos Layouts');
    expect(await pos(me).get('/v1/merchant/scaleLabelLayouts')).toEqual({ status: 200, body: [] });
    const put = await pos(me).put('/v1/merchant/scaleLabelLayouts', [layout('20', 5, 'WEIGHT', 5), PRICE_4_7]);
    expect(put).toEqual({ status: 200, body: [layout('20', 5, 'WEIGHT', 5), PRICE_4_7] });
    expect((await admin('GET', `/merchants/${me.merchantId}/scaleLabelLayouts`)).body).toEqual(put.body);
    expect(await pos(me).put('/v1/merchant/scaleLabelLayouts', [WEIGHT_6_5, layout('21', 6, 'PRICE', 5)])).toEqual({
      status: 400,
      body: {
        title:
          '[1].valueDigits: prefix (2), code (6) and value (5) digits add up to 13, not 12 (the thirteenth is the check digit)',
        status: 400,
      },
    });
    expect(
      await admin('PUT', `/merchants/${me.merchantId}/scaleLabelLayouts`, [{ ...WEIGHT_6_5, prefix: '3' }]),
    ).toEqual({
      status: 400,
      body: {
        title: '[0].prefix must be 1 or 2 digits beginning with 2 (labels of restricted circulation)',
        status: 400,
      },
    });
    expect(
      await admin('PUT', `/merchants/${me.merchantId}/scaleLabelLayouts`, [{ ...WEIGHT_6_5, codeDigits: 7 }]),
    ).toEqual({
      status: 400,
      body: { title: '[0].codeDigits must be <= 6', status: 400 },
    });
    expect((await pos(me).get('/v1/merchant/scaleLabelLayouts')).body).toEqual(put.body);
    expect(await admin('PUT', `/merchants/${me.merchantId}/scaleLabelLayouts`, [])).toEqual({ status: 200, body: [] });
    expect(await admin('GET', '/merchants/00000000-0000-4000-8000-000000000000/scaleLabelLayouts')).toEqual({
      status: 404,
      body: { title: 'Merchant not found', status: 404 },
    });
  });
});

describe('weighing by label on a live service (D41)', () => {
  it('weighs by each vector’s label, with the totals exact to the cent', async () => {
    const { me, ids } = await butcher();
    const orderId = await confirmedOrder(
      me,
      [
        { productId: ids.MAMINHA, quantity: 0.1 },
        { productId: ids.PICANHA, quantity: 2.5 },
        { productId: ids.COSTELA, quantity: 0.25 },
        { productId: ids.ACEM, quantity: 0.6 },
        { productId: ids.CARVAO, quantity: 1 },
      ],
      // 1.22 + 30.48 + 3.05 + 7.31 + 19.90 + 5 (fee)
      [{ value: 66.96, type: 'PENDING', method: 'CASH', changeFor: 100 }],
    );
    const weigh = (items: unknown[]) => pos(me).post(`/v1/orders/${orderId}/weighing`, { items });
    // The four vectors share the prefix 2: the layout is changed between them, as a shop with
    // one kind of scale per counter would have it.
    await pos(me).put('/v1/merchant/scaleLabelLayouts', [WEIGHT_6_5]);
    const first = await weigh([
      { index: 0, label: '2000002001027' },
      { index: 1, label: '2010085025049' },
    ]);
    expect(first.status, JSON.stringify(first.body)).toBe(202);
    expect(first.body).toEqual({ weighingId: expect.any(String), state: 'APPLIED' });
    await pos(me).put('/v1/merchant/scaleLabelLayouts', [PRICE_4_7]);
    expect((await weigh([{ index: 2, label: '2014900002840' }])).status).toBe(202);
    await pos(me).put('/v1/merchant/scaleLabelLayouts', [PRICE_6_5]);
    expect((await weigh([{ index: 3, label: '2000001007600' }])).status).toBe(202);

    const order = (await pos(me).get(`/v1/orders/${orderId}`)).body;
    expect(order.items.map((i: Json) => [i.quantity, i.totalPrice.value, i.scaleLabel ?? null])).toEqual([
      [0.102, 1.24, '2000002001027'],
      [2.504, 30.52, '2010085025049'],
      [0.233, 2.84, '2014900002840'],
      [0.623, 7.6, '2000001007600'],
      [1, 19.9, null],
    ]);
    expect(order.total.itemsPrice.value).toBe(62.1);
    expect(order.total.orderAmount.value).toBe(67.1);
    expect(order.payments.methods[0]).toMatchObject({ value: 67.1, type: 'PENDING' });
    const weighed = await feedOf(orderId, 'WEIGHED');
    expect(weighed.map((i) => i.data.lines.map((l: Json) => l.scaleLabel))).toEqual([
      ['2000002001027', '2010085025049'],
      ['2014900002840'],
      ['2000001007600'],
    ]);
  });

  it('refuses a label that breaks a rule, naming items[i].label and the rule; nothing is applied', async () => {
    const { me, ids } = await butcher();
    const orderId = await confirmedOrder(
      me,
      [
        { productId: ids.PICANHA, quantity: 2.5 },
        { productId: ids.CARVAO, quantity: 1 },
      ],
      [{ value: 55.38, type: 'PENDING', method: 'PIX' }],
    );
    await pos(me).put('/v1/merchant/scaleLabelLayouts', [WEIGHT_6_5]);
    const cases: Array<[unknown[], string]> = [
      [
        [{ index: 0, label: '2000002001027' }],
        "items[0].label carries scale code 000002, not 010085 of line 0's product (Picanha): a label of another product",
      ],
      [
        [{ index: 0, label: '2010085025041' }],
        'items[0].label has a wrong check digit: 1, where the other digits give 9',
      ],
      [[{ index: 0, label: '20100850250' }], 'items[0].label must be 13 digits (an EAN-13 scale label)'],
      [
        [
          { index: 0, quantity: 2.5 },
          { index: 1, label: '2010085025049' },
        ],
        'items[1].label cannot be applied: line 1 is sold by UN (only KG lines are weighed)',
      ],
    ];
    for (const [items, title] of cases) {
      expect(await pos(me).post(`/v1/orders/${orderId}/weighing`, { items })).toEqual({
        status: 400,
        body: { title, status: 400 },
      });
    }
    expect((await pos(me).get(`/v1/orders/${orderId}`)).body.items[0]).not.toHaveProperty('orderedQuantity');
  });
});

describe('KG limits at intake (D42)', () => {
  it.each([
    [0.4, 'items[0].quantity must be between 0.5 and 3 kg for this product'],
    [3.25, 'items[0].quantity must be between 0.5 and 3 kg for this product'],
    [0.6, 'items[0].quantity must be 0.5 kg plus a whole number of 0.25 kg steps (0.5, 0.75, 1, …)'],
  ])('refuses %s kg of a product sold between 0.5 and 3 kg by 0.25 kg', async (quantity, title) => {
    const { me, ids } = await butcher();
    expect(
      await admin('POST', `/merchants/${me.merchantId}/orders`, {
        type: 'DELIVERY',
        items: [{ productId: ids.FRALDINHA, quantity }],
      }),
    ).toEqual({ status: 400, body: { title, status: 400 } });
  });

  it('takes a quantity on the grid', async () => {
    const { me, ids } = await butcher();
    const res = await admin('POST', `/merchants/${me.merchantId}/orders`, {
      type: 'DELIVERY',
      items: [{ productId: ids.FRALDINHA, quantity: 1.25 }],
    });
    expect(res.status).toBe(201);
  });
});

describe('the ASK policy (D42)', () => {
  async function asking(settings: Json) {
    const shop = await butcher();
    const patched = await admin('PATCH', `/merchants/${shop.me.merchantId}`, {
      weighingOutOfTolerance: 'ASK',
      weighingApprovalSeconds: 120,
      ...settings,
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body).toMatchObject({ weighingOutOfTolerance: 'ASK', weighingApprovalSeconds: 120 });
    return shop;
  }
  /** Picanha 1 kg at 12.19 and Fraldinha 1 kg at 49.90, prepaid in part, the rest on delivery. */
  const twoLines = (ids: Record<string, string>) => [
    { productId: ids.PICANHA, quantity: 1 },
    { productId: ids.FRALDINHA, quantity: 1 },
  ];
  const payments = [
    { value: 50, type: 'PREPAID', method: 'CREDIT' },
    { value: 17.09, type: 'PENDING', method: 'CASH', changeFor: 20 },
  ];

  it('out of tolerance: waits, the feed asks, the platform accepts, the order and payments follow', async () => {
    const { me, ids } = await asking({});
    const orderId = await confirmedOrder(me, twoLines(ids), payments);
    const asked = await pos(me).post(`/v1/orders/${orderId}/weighing`, {
      items: [
        { index: 0, quantity: 1.5 },
        { index: 1, quantity: 1.1 },
      ],
    });
    expect(asked).toEqual({
      status: 202,
      body: { weighingId: expect.any(String), state: 'PENDING_APPROVAL', deadline: '2026-03-02T15:02:00.000Z' },
    });
    const weighingId = asked.body.weighingId as string;
    const waiting = (await pos(me).get(`/v1/orders/${orderId}`)).body;
    expect(waiting.total.itemsPrice.value).toBe(62.09);
    expect(waiting.weighing).toMatchObject({
      weighingId,
      state: 'PENDING_APPROVAL',
      deadline: '2026-03-02T15:02:00.000Z',
      itemsPriceBefore: { value: 62.09 },
      itemsPriceAfter: { value: 73.18 },
    });
    expect(waiting.weighing.lines).toEqual([
      expect.objectContaining({
        index: 0,
        quantityBefore: 1,
        quantity: 1.5,
        outOfTolerance: true,
        totalPriceAfter: { value: 18.29, currency: 'BRL' },
      }),
      expect.objectContaining({
        index: 1,
        quantityBefore: 1,
        quantity: 1.1,
        outOfTolerance: false,
        totalPriceAfter: { value: 54.89, currency: 'BRL' },
      }),
    ]);
    const requested = await feedOf(orderId, 'WEIGHING_APPROVAL_REQUESTED');
    expect(requested).toHaveLength(1);
    expect(requested[0].data).toMatchObject({
      weighingId,
      deadline: '2026-03-02T15:02:00.000Z',
      itemsPriceAfter: { value: 73.18 },
    });
    // While it waits the butcher cannot weigh again.
    const again = await pos(me).post(`/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 1 }] });
    expect(again).toEqual({
      status: 400,
      body: {
        title: "Order has a weighing waiting for the customer's decision until 2026-03-02T15:02:00.000Z",
        status: 400,
      },
    });

    const decide = (body: unknown) =>
      call('POST', `/admin/v1/orders/${orderId}/weighings/${weighingId}/decision`, platform.headers, body);
    const decided = await decide({ decision: 'ACCEPT' });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.items.map((i: Json) => [i.quantity, i.totalPrice.value])).toEqual([
      [1.5, 18.29],
      [1.1, 54.89],
    ]);
    expect(decided.body.total).toMatchObject({ itemsPrice: { value: 73.18 }, orderAmount: { value: 78.18 } });
    expect(decided.body.payments.methods).toEqual([
      expect.objectContaining({ value: 50, type: 'PREPAID' }),
      expect.objectContaining({ value: 28.18, type: 'PENDING', changeFor: 28.18 }),
    ]);
    expect(decided.body.weighing).toMatchObject({ state: 'ACCEPTED', decision: 'ACCEPT', by: 'platform' });
    expect((await feedOf(orderId, 'WEIGHING_DECIDED')).map((i) => i.data)).toEqual([
      { weighingId, decision: 'ACCEPT', by: 'platform' },
    ]);
    expect(await feedOf(orderId, 'WEIGHED')).toHaveLength(1);
    expect(await decide({ decision: 'REJECT' })).toEqual({
      status: 409,
      body: { title: 'The weighing was already decided', status: 409 },
    });
    // The POS reads the decision on its order.
    expect((await pos(me).get(`/v1/orders/${orderId}`)).body.weighing).toMatchObject({
      state: 'ACCEPTED',
      by: 'platform',
    });
  });

  it('the deadline applies the merchant’s default: REMOVE_LINES takes the line out of tolerance out', async () => {
    const { me, ids } = await asking({ weighingApprovalDefault: 'REMOVE_LINES' });
    const orderId = await confirmedOrder(me, twoLines(ids), payments);
    const asked = await pos(me).post(`/v1/orders/${orderId}/weighing`, {
      items: [
        { index: 0, quantity: 1.5 },
        { index: 1, quantity: 1.1 },
      ],
    });
    expect(asked.status).toBe(202);
    expect(await t.services.orders.decideDueWeighings()).toBe(0);
    clock.advance(120_000);
    expect(await t.services.orders.decideDueWeighings()).toBe(1);
    const order = (await pos(me).get(`/v1/orders/${orderId}`)).body;
    expect(order.items.map((i: Json) => [i.name, i.quantity, i.totalPrice.value])).toEqual([['Fraldinha', 1.1, 54.89]]);
    expect(order.total).toMatchObject({ itemsPrice: { value: 54.89 }, orderAmount: { value: 59.89 } });
    expect(order.payments.methods).toEqual([
      expect.objectContaining({ value: 50, type: 'PREPAID' }),
      expect.objectContaining({ value: 9.89, type: 'PENDING' }),
    ]);
    expect(order.weighing).toMatchObject({
      state: 'LINES_REMOVED',
      decision: 'REMOVE_LINES',
      by: 'deadline',
      removedLines: [0],
    });
    expect((await feedOf(orderId, 'WEIGHING_DECIDED')).map((i) => i.data)).toEqual([
      { weighingId: asked.body.weighingId, decision: 'REMOVE_LINES', by: 'deadline', removedLines: [0] },
    ]);
  });

  it('the default default is REJECT: the order stays as it was and the butcher weighs again', async () => {
    const { me, ids } = await asking({});
    const orderId = await confirmedOrder(me, twoLines(ids), payments);
    const asked = await pos(me).post(`/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 2 }] });
    clock.advance(121_000);
    expect(await t.services.orders.decideDueWeighings()).toBe(1);
    const order = (await pos(me).get(`/v1/orders/${orderId}`)).body;
    expect(order.total.itemsPrice.value).toBe(62.09);
    expect(order.items[0]).not.toHaveProperty('orderedQuantity');
    expect(order.weighing).toMatchObject({ weighingId: asked.body.weighingId, state: 'REJECTED', by: 'deadline' });
    const again = await pos(me).post(`/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 1.05 }] });
    expect(again.body).toMatchObject({ state: 'APPLIED' });
  });

  it('a decision and the deadline at the same moment: exactly one wins', async () => {
    const { me, ids } = await asking({ weighingApprovalDefault: 'ACCEPT' });
    for (let round = 0; round < 4; round++) {
      const orderId = await confirmedOrder(me, twoLines(ids), payments);
      const asked = await pos(me).post(`/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 2 }] });
      clock.advance(120_000);
      const [decision, byDeadline] = await Promise.all([
        call('POST', `/admin/v1/orders/${orderId}/weighings/${asked.body.weighingId}/decision`, platform.headers, {
          decision: 'REJECT',
        }),
        t.services.orders.decideDueWeighings(),
      ]);
      const decided = await feedOf(orderId, 'WEIGHING_DECIDED');
      expect(decided).toHaveLength(1);
      const order = (await pos(me).get(`/v1/orders/${orderId}`)).body;
      if (decision.status === 200) {
        expect(byDeadline).toBe(0);
        expect(decided[0].data).toMatchObject({ decision: 'REJECT', by: 'platform' });
        expect(order.total.itemsPrice.value).toBe(62.09);
      } else {
        expect(decision).toEqual({ status: 409, body: { title: 'The weighing was already decided', status: 409 } });
        expect(byDeadline).toBe(1);
        expect(decided[0].data).toMatchObject({ decision: 'ACCEPT', by: 'deadline' });
        expect(order.items[0]).toMatchObject({ quantity: 2, totalPrice: { value: 24.38 } });
      }
    }
  });

  it('the decision route: 404 for an unknown weighing, 400 naming lines, 403 for a support operator', async () => {
    const { me, ids } = await asking({});
    const orderId = await confirmedOrder(me, twoLines(ids), payments);
    const asked = await pos(me).post(`/v1/orders/${orderId}/weighing`, { items: [{ index: 0, quantity: 2 }] });
    const url = `/admin/v1/orders/${orderId}/weighings/${asked.body.weighingId}/decision`;
    expect(
      await call(
        'POST',
        `/admin/v1/orders/${orderId}/weighings/00000000-0000-4000-8000-000000000000/decision`,
        adminHeaders,
        { decision: 'ACCEPT' },
      ),
    ).toEqual({
      status: 404,
      body: { title: 'Weighing not found', status: 404 },
    });
    expect(await call('POST', url, adminHeaders, { decision: 'REMOVE_LINES', lines: [1] })).toEqual({
      status: 400,
      body: { title: 'lines[0] (1) is not a line of this weighing (its lines are 0)', status: 400 },
    });
    expect(await call('POST', url, adminHeaders, { decision: 'ACCEPT', lines: [0] })).toEqual({
      status: 400,
      body: { title: 'lines goes with decision REMOVE_LINES only, not ACCEPT', status: 400 },
    });
    const support = await createOperator(t.app, 'support');
    const forbidden = await call('POST', url, support.headers, { decision: 'ACCEPT' });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body).toEqual({ title: expect.stringContaining('Forbidden'), status: 403 });
  });
});
