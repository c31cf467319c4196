// D36, docs/adr/0010-feed-cursor.md: a reader following `next` never misses an item and never
// sees one twice, whatever order concurrent transactions commit in, and each order's items come
// in the order its changes were made. Many merchants' orders change at once while a reader
// follows the feed over HTTP; on PostgreSQL, a transaction that took its place first and commits
// last is also forced, the case a plain sequence number gets wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder, createProduct, orderLife } from '../support/orders.js';
import {
  adminHeaders,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { testDbKind } from '../support/test-db.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Item {
  id: string;
  cursor: string;
  kind: string;
  type: string;
  merchantId: string;
  orderId?: string;
}

async function page(after: string, limit: number, merchantId?: string): Promise<{ items: Item[]; next: string }> {
  const filter = merchantId ? `&merchantId=${merchantId}` : '';
  const res = await t.app.inject({
    method: 'GET',
    url: `/admin/v1/feed?after=${after}&limit=${limit}${filter}`,
    headers: adminHeaders,
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

const LIFE = ['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'TRACKING', 'DISPATCHED', 'TRACKING'];

describe('a reader following next while many merchants change their orders at once', () => {
  it('sees every item once, each order in order', async () => {
    const merchants: MerchantCredentials[] = [];
    const products: Array<{ id: string }> = [];
    for (let i = 0; i < 4; i++) {
      const m = await createMerchant(t.app, `Açougue ${i}`);
      merchants.push(m);
      products.push(await createProduct(t.app, m.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' }));
    }
    const start = (await page('0', 1000)).next;
    const ours = new Set(merchants.map((m) => m.merchantId));

    let writing = true;
    const seen: Item[] = [];
    const reader = (async () => {
      let after = start;
      for (;;) {
        const wasWriting = writing;
        const p = await page(after, 7);
        seen.push(...p.items);
        after = p.next;
        if (p.items.length === 0) {
          if (!wasWriting) return;
          await pause(2);
        }
      }
    })();
    const writers = merchants.flatMap((m, i) => [0, 1].map(() => orderLife(t.app, m, products[i].id)));
    const orderIds = await Promise.all(writers);
    writing = false;
    await reader;

    // The order items: the products made by hand before have their catalog items too.
    const read = seen.filter((i) => ours.has(i.merchantId) && i.kind === 'order');
    const ids = read.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Every item written for these merchants was read.
    const { rows } = await t.services.db.query<{ id: string }>(
      "SELECT id FROM feed_items WHERE merchant_id = ANY($1::uuid[]) AND kind = 'order'",
      [[...ours]],
    );
    expect(new Set(ids)).toEqual(new Set(rows.map((r) => r.id)));
    expect(ids).toHaveLength(orderIds.length * LIFE.length);
    for (const orderId of orderIds) {
      expect(read.filter((i) => i.orderId === orderId).map((i) => i.type)).toEqual(LIFE);
    }
    const cursors = seen.map((i) => BigInt(i.cursor));
    for (let i = 1; i < cursors.length; i++) expect(cursors[i]).toBeGreaterThan(cursors[i - 1]);
  });
});

describe.runIf(testDbKind() === 'postgres')('a transaction that commits after a later one', () => {
  it('is read after it commits, though it was written first', async () => {
    const me = await createMerchant(t.app, 'Açougue Lento');
    const product = await createProduct(t.app, me.merchantId, { name: 'Fraldinha', price: 59.9, unit: 'KG' });
    const start = (await page('0', 1000, me.merchantId)).next;
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written = () => {};
    const inserted = new Promise<void>((resolve) => {
      written = resolve;
    });
    // The slow transaction inserts its item first (the lower insertion number) and commits last.
    const slow = t.services.db.transaction(async (tx) => {
      await t.services.feed.record(tx, {
        kind: 'merchant',
        type: 'STATUS_CHANGED',
        merchantId: me.merchantId,
        data: { status: 'UNAVAILABLE', by: 'operator' },
      });
      written();
      await held;
    });
    await inserted;
    const order = await createOrder(t.app, me.merchantId, {
      type: 'DELIVERY',
      items: [{ productId: product.id, quantity: 1 }],
    });
    const first = await page(start, 100, me.merchantId);
    expect(first.items.map((i) => [i.type, i.orderId])).toEqual([['CREATED', order.id]]);
    release();
    await slow;
    const second = await page(first.next, 100, me.merchantId);
    expect(second.items.map((i) => i.type)).toEqual(['STATUS_CHANGED']);
    expect(BigInt(second.items[0].cursor)).toBeGreaterThan(BigInt(first.items[0].cursor));
  });
});
