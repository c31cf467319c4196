// D36: the platform feed over HTTP: an item for each change, with the data the platform acts on,
// cursors, filters, the long poll, and the errors of bad queries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { expectError } from '../support/expect-error.js';
import { confirmBody, orderSession } from '../support/order-session.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());
const { pos, operator } = orderSession(() => t, clock);

interface Item {
  id: string;
  cursor: string;
  kind: string;
  type: string;
  merchantId: string;
  orderId?: string;
  occurredAt: string;
  data: Record<string, unknown>;
}

async function feed(query = ''): Promise<{ items: Item[]; next: string }> {
  const res = await t.app.inject({ method: 'GET', url: `/admin/v1/feed${query}`, headers: adminHeaders });
  expect(res.statusCode).toBe(200);
  return res.json();
}

describe('the items of an order and of its merchant', () => {
  it('carries every event, tracking, a code check, with the data the platform acts on', async () => {
    const me = await createMerchant(t.app, 'Açougue Feed');
    const api = pos(me);
    const start = (await feed(`?merchantId=${me.merchantId}`)).next;
    const order = await createSimpleOrder(t.app, me.merchantId);
    expect((await api.post(`/v1/orders/${order.id}/confirm`, { ...confirmBody, preparationTime: 20 })).statusCode).toBe(
      202,
    );
    expect((await api.post(`/v1/orders/${order.id}/readyForPickup`)).statusCode).toBe(202);
    const tracking = { deliveryTrackingInfo: { status: 'ON_THE_WAY' } };
    expect((await api.post(`/v1/orders/${order.id}/dispatch`, tracking)).statusCode).toBe(202);
    expect((await api.post(`/v1/orders/${order.id}/tracking`, tracking)).statusCode).toBe(202);
    const wrong = await api.post(`/v1/orders/${order.id}/validateCode`, { deliveryCode: 'nope' });
    expectError(wrong, 400, 'Invalid code provided');
    const right = await api.post(`/v1/orders/${order.id}/validateCode`, { deliveryCode: order.deliveryCode });
    expect(right.statusCode).toBe(200);
    const off = await operator('PATCH' as 'POST', `/merchants/${me.merchantId}`, { status: 'UNAVAILABLE' });
    expect(off.statusCode).toBe(200);

    // The order's product, made by hand, has its catalog item too (catalog-following.test.ts).
    const { items } = await feed(`?after=${start}&merchantId=${me.merchantId}&kinds=order,merchant`);
    expect(items.map((i) => `${i.kind} ${i.type}`)).toEqual([
      'order CREATED',
      'order CONFIRMED',
      'order READY_FOR_PICKUP',
      'order TRACKING',
      'order DISPATCHED',
      'order TRACKING',
      'order DELIVERY_CODE_CHECKED',
      'order DELIVERY_CODE_CHECKED',
      'merchant STATUS_CHANGED',
    ]);
    expect(items[1]).toEqual({
      id: expect.any(String),
      cursor: expect.stringMatching(/^[0-9]+$/),
      kind: 'order',
      type: 'CONFIRMED',
      merchantId: me.merchantId,
      orderId: order.id,
      occurredAt: expect.any(String),
      data: { clientId: me.keyId, orderExternalCode: 'PDV-1', preparationTime: 20 },
    });
    expect(items[3].data).toEqual({ deliveryTrackingInfo: { status: 'ON_THE_WAY' } });
    expect(items.slice(6, 8).map((i) => i.data)).toEqual([
      { valid: false, source: 'pos' },
      { valid: true, source: 'pos' },
    ]);
    expect(items[8]).toMatchObject({ data: { status: 'UNAVAILABLE', by: 'operator' } });
    expect(items[8].orderId).toBeUndefined();
    // Cursors increase; the POS-facing event stays as it was (no feed-only data in it).
    const cursors = items.map((i) => BigInt(i.cursor));
    expect([...cursors].sort((a, b) => (a < b ? -1 : 1))).toEqual(cursors);
    const polled = await api.poll();
    expect(polled.find((e) => e.eventType === 'CONFIRMED')?.metadata).toEqual({ clientId: me.keyId });
  });

  it('a cancellation request carries its reason, code, mode and the items it names', async () => {
    const me = await createMerchant(t.app, 'Açougue Cancela');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const itemId = (order.items as Array<{ id: string }>)[0].id;
    const res = await pos(me).post(`/v1/orders/${order.id}/requestCancellation`, {
      reason: 'Sem picanha',
      code: 'UNAVAILABLE_ITEM',
      mode: 'MANUAL',
      outOfStockItems: [itemId],
    });
    expect(res.statusCode).toBe(202);
    const { items } = await feed(`?merchantId=${me.merchantId}&kinds=order`);
    expect(items.at(-1)).toMatchObject({
      type: 'CANCELLATION_REQUESTED',
      data: { reason: 'Sem picanha', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL', outOfStockItems: [itemId] },
    });
  });

  it('onboarding: the addresses, never the pull key', async () => {
    const me = await createMerchant(t.app, 'Açougue Onboard');
    const put = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: { authorization: `Bearer ${me.token}` },
      payload: {
        ordersWebhookURL: 'http://pos.example',
        getMerchantURL: { baseURL: 'http://pos.example/menu', apiKey: 'secret-pull-key' },
      },
    });
    expect(put.statusCode).toBe(200);
    const { items } = await feed(`?merchantId=${me.merchantId}&kinds=merchant`);
    expect(items).toMatchObject([
      {
        type: 'ONBOARDING_CHANGED',
        data: { ordersWebhookURL: 'http://pos.example', getMerchantURL: { baseURL: 'http://pos.example/menu' } },
      },
    ]);
    expect(JSON.stringify(items)).not.toContain('secret-pull-key');
  });
});

describe('reading the feed', () => {
  it('pages by cursor: following next sees each item once; kinds filter', async () => {
    const me = await createMerchant(t.app, 'Açougue Páginas');
    for (let i = 0; i < 3; i++) await createSimpleOrder(t.app, me.merchantId);
    const all = (await feed(`?merchantId=${me.merchantId}&kinds=order&limit=1000`)).items;
    expect(all).toHaveLength(3);
    const seen: string[] = [];
    let after = '0';
    for (;;) {
      const page = await feed(`?merchantId=${me.merchantId}&kinds=order&limit=2&after=${after}`);
      seen.push(...page.items.map((i) => i.id));
      if (page.items.length === 0) break;
      after = page.next;
    }
    expect(seen).toEqual(all.map((i) => i.id));
    expect((await feed(`?merchantId=${me.merchantId}&kinds=merchant,webhook`)).items).toEqual([]);
    // An empty filtered answer moves the cursor to the head: nothing can appear below it later.
    const empty = await feed(`?merchantId=${me.merchantId}&kinds=webhook&after=${after}`);
    expect(BigInt(empty.next)).toBeGreaterThanOrEqual(BigInt(after));
  });

  it('wait holds an empty answer until an item arrives', async () => {
    const me = await createMerchant(t.app, 'Açougue Espera');
    const { next } = await feed(`?merchantId=${me.merchantId}`);
    const waiting = feed(`?merchantId=${me.merchantId}&kinds=order&after=${next}&wait=10`);
    await new Promise((r) => setTimeout(r, 100));
    const order = await createSimpleOrder(t.app, me.merchantId);
    const page = await waiting;
    expect(page.items.map((i) => [i.type, i.orderId])).toEqual([['CREATED', order.id]]);
  });

  it.each([
    ['?after=abc', 'after must match pattern "^[0-9]{1,18}$" (query)'],
    ['?limit=0', 'limit must be >= 1 (query)'],
    ['?limit=1001', 'limit must be <= 1000 (query)'],
    [
      '?kinds=order,orders',
      'kinds must match pattern "^(order|merchant|catalog|webhook|settlement)(,(order|merchant|catalog|webhook|settlement))*$" (query)',
    ],
    ['?wait=31', 'wait must be <= 30 (query)'],
    ['?merchantId=x', 'merchantId must be a uuid (query)'],
  ])('%s is a 400 naming the parameter', async (query, title) => {
    const res = await t.app.inject({ method: 'GET', url: `/admin/v1/feed${query}`, headers: adminHeaders });
    expectError(res, 400, title);
  });

  it('needs an operator token', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/feed' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ status: 401 });
  });
});
