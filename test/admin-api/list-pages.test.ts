// operator-api.md#lists: every operator list pages with `limit` and `cursor`, the next page in a
// `Link: <…>; rel="next"` header; orders and logistics apps take `q`; filters narrow the pages.
import { expect } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { appTest } from '../support/fixtures.js';
import { createLogisticsApp } from '../support/logistics.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, createMerchant, type TestApp } from '../support/test-app.js';

const it = appTest();

/** Follows the Link headers from `first` to the last page; every page's ids, in order. */
async function walk(t: TestApp, first: string): Promise<{ pages: string[][]; links: string[] }> {
  const pages: string[][] = [];
  const links: string[] = [];
  let url: string | undefined = first;
  while (url) {
    const res = await t.app.inject({ method: 'GET', url, headers: adminHeaders });
    expect(res.statusCode, res.body).toBe(200);
    pages.push((res.json() as Array<{ id?: string; appId?: string }>).map((x) => x.id ?? x.appId ?? ''));
    const link = res.headers.link as string | undefined;
    url = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
    if (url) links.push(url);
  }
  return { pages, links };
}

const get = (t: TestApp, url: string) => t.app.inject({ method: 'GET', url, headers: adminHeaders });

async function orders(t: TestApp, merchantId: string, n: number): Promise<string[]> {
  const product = await createProduct(t.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const o = await createOrder(t.app, merchantId, {
      type: 'DELIVERY',
      displayId: `D-${merchantId.slice(0, 4)}-${i}`,
      items: [{ productId: product.id, quantity: 1 }],
    });
    ids.push(o.id);
  }
  return ids;
}

it("pages a merchant's orders newest first and keeps the filters in the next link", async ({ t, me }) => {
  const ids = await orders(t, me.merchantId, 5);
  const { pages, links } = await walk(t, `/admin/v1/merchants/${me.merchantId}/orders?limit=2&status=CREATED`);
  expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
  expect(new Set(pages.flat())).toEqual(new Set(ids));
  expect(links.every((l) => l.includes('status=CREATED') && l.includes('limit=2'))).toBe(true);
  const all = (await get(t, `/admin/v1/merchants/${me.merchantId}/orders`)).json() as Array<{ createdAt: string }>;
  expect(all.map((o) => o.createdAt)).toEqual(
    all
      .map((o) => o.createdAt)
      .sort()
      .reverse(),
  );
  const none = await get(t, `/admin/v1/merchants/${me.merchantId}/orders?status=CANCELLED`);
  expect(none.json()).toEqual([]);
  expect(none.headers.link).toBeUndefined();
});

it('lists every merchant’s orders, filtered by merchant and found by display id or id', async ({ t, me }) => {
  const other = await createMerchant(t.app, 'Outro Açougue');
  const mine = await orders(t, me.merchantId, 2);
  const theirs = await orders(t, other.merchantId, 3);
  const byMerchant = await walk(t, `/admin/v1/orders?merchantId=${other.merchantId}&limit=2`);
  expect(new Set(byMerchant.pages.flat())).toEqual(new Set(theirs));
  const everything = await walk(t, '/admin/v1/orders?limit=3');
  expect(everything.pages.flat()).toEqual(expect.arrayContaining([...mine, ...theirs]));
  const byDisplay = await get(t, `/admin/v1/orders?q=D-${other.merchantId.slice(0, 4)}-1`);
  expect(byDisplay.json().map((o: { id: string; merchantId: string }) => [o.id, o.merchantId])).toEqual([
    [theirs[1], other.merchantId],
  ]);
  const byId = await get(t, `/admin/v1/orders?q=${mine[0].toUpperCase()}`);
  expect(byId.json().map((o: { id: string }) => o.id)).toEqual([mine[0]]);
  const scoped = await get(t, `/admin/v1/merchants/${me.merchantId}/orders?q=${theirs[0]}`);
  expect(scoped.json()).toEqual([]);
});

it('pages webhook deliveries and catalog syncs by sequence, with their filters', async ({ t, me }) => {
  const at = new Date('2026-03-02T12:00:00Z');
  for (let i = 0; i < 5; i++) {
    const [orderId, occurrenceId] = [newId(), newId()];
    const body = JSON.stringify({
      eventId: occurrenceId,
      eventType: 'CREATED',
      orderId,
      orderURL: `http://cleaver.test/v1/orders/${orderId}`,
      createdAt: at.toISOString(),
      sourceAppId: newId(),
    });
    await t.database.db.query(
      `INSERT INTO webhook_deliveries (id, merchant_id, order_id, occurrence_id, event_type, body, status, created_at, updated_at)
       VALUES ($1, $2, $3, $4, 'CREATED', $7, $5, $6, $6)`,
      [newId(), me.merchantId, orderId, occurrenceId, i % 2 ? 'FAILED' : 'DELIVERED', at, body],
    );
    await t.database.db.query(
      `INSERT INTO catalog_syncs (id, merchant_id, source, status, received_at) VALUES ($1, $2, 'UPLOAD', $3, $4)`,
      [newId(), me.merchantId, i % 2 ? 'FAIL' : 'SUCCESS', at],
    );
  }
  const deliveries = await walk(t, `/admin/v1/merchants/${me.merchantId}/webhookDeliveries?limit=2`);
  expect(deliveries.pages.map((p) => p.length)).toEqual([2, 2, 1]);
  expect(new Set(deliveries.pages.flat()).size).toBe(5);
  const failed = await walk(t, `/admin/v1/merchants/${me.merchantId}/webhookDeliveries?limit=1&status=FAILED`);
  expect(failed.pages.map((p) => p.length)).toEqual([1, 1]);
  const syncs = await walk(t, `/admin/v1/merchants/${me.merchantId}/catalogSyncs?limit=2`);
  expect(syncs.pages.map((p) => p.length)).toEqual([2, 2, 1]);
  const fails = await get(t, `/admin/v1/merchants/${me.merchantId}/catalogSyncs?status=FAIL`);
  expect(fails.json().map((s: { status: string }) => s.status)).toEqual(['FAIL', 'FAIL']);
});

it('pages and searches logistics apps', async ({ t, me }) => {
  const apps = [];
  for (let i = 0; i < 3; i++) apps.push(await createLogisticsApp(t.app, [me.merchantId]));
  const { pages } = await walk(t, '/admin/v1/logisticsApps?limit=2');
  expect(pages.flat()).toEqual(expect.arrayContaining(apps.map((a) => a.appId)));
  const found = await get(t, `/admin/v1/logisticsApps?q=${apps[1].appId}`);
  expect(found.json()).toEqual([expect.objectContaining({ appId: apps[1].appId, merchantIds: [me.merchantId] })]);
  const inactive = await get(t, '/admin/v1/logisticsApps?active=false');
  expect(inactive.json()).toEqual([]);
});

const LISTS = [
  (m: string) => `/admin/v1/merchants/${m}/orders`,
  () => '/admin/v1/orders',
  (m: string) => `/admin/v1/merchants/${m}/webhookDeliveries`,
  (m: string) => `/admin/v1/merchants/${m}/catalogSyncs`,
  () => '/admin/v1/logisticsApps',
];

it.for(LISTS.map((url) => [url('M').replace('M', ':merchantId'), url] as const))(
  '%s: 400 naming the field for a forged cursor, a bad limit or a bad filter',
  async ([, url], { t, me }) => {
    const base = url(me.merchantId);
    const forged = await get(t, `${base}?cursor=not-a-cursor`);
    expect(forged.statusCode).toBe(400);
    expect(forged.json()).toEqual({ title: 'cursor is not valid', status: 400 });
    for (const [limit, title] of [
      ['0', 'limit must be >= 1 (query)'],
      ['1001', 'limit must be <= 1000 (query)'],
      ['ten', 'limit must be integer (query)'],
    ]) {
      const res = await get(t, `${base}?limit=${limit}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ title, status: 400 });
    }
  },
);

it('400 for an unknown order status, a malformed merchant filter, an empty search', async ({ t }) => {
  const status = await get(t, '/admin/v1/orders?status=LOST');
  expect(status.statusCode).toBe(400);
  expect(status.json()).toMatchObject({ status: 400, title: expect.stringContaining('status') });
  const merchant = await get(t, '/admin/v1/orders?merchantId=nope');
  expect(merchant.statusCode).toBe(400);
  expect(merchant.json()).toEqual({ title: 'merchantId must be a uuid (query)', status: 400 });
  const empty = await get(t, '/admin/v1/orders?q=');
  expect(empty.statusCode).toBe(400);
  expect(empty.json()).toMatchObject({ status: 400, title: expect.stringContaining('q') });
});
