// Retention (D30), issue "Running for years": a test clock runs through 60 days of traffic. Every
// day a shop gets orders that its POS confirms, dispatches and delivers, the platform concludes
// most of them, webhooks are queued, a catalog is uploaded and the POS polls. Key A acknowledges
// everything; key B never does (spec 4.13 rule 5). After the horizons the table sizes stay flat,
// while everything inside them is intact: key B still polls every event of the last 7 days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOrder, createProduct } from '../support/orders.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type TestApp,
} from '../support/test-app.js';

const DAY = 86_400_000;
const DAYS = 60;
const ORDERS_PER_DAY = 4;
const clock = manualClock(new Date('2026-01-01T08:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: {
      CLEAVER_RATE_LIMIT_READ: '1000000',
      CLEAVER_RATE_LIMIT_WRITE: '1000000',
      CLEAVER_RATE_LIMIT_AUTH: '1000000',
    },
  });
});
afterAll(() => t.close());

const TABLES = [
  'event_receipts',
  'order_events',
  'order_event_log',
  'order_tracking',
  'webhook_deliveries',
  'catalog_syncs',
  'key_usage_minutes',
  'feed_items',
  'request_log_batches',
  'orders',
] as const;

async function sizes(): Promise<Record<(typeof TABLES)[number] | 'catalog_payloads' | 'request_log_requests', number>> {
  const out: Record<string, number> = {};
  for (const table of TABLES) {
    const { rows } = await t.database.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    out[table] = rows[0].n;
  }
  const { rows } = await t.database.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM catalog_syncs WHERE payload IS NOT NULL',
  );
  out.catalog_payloads = rows[0].n;
  // Requests, not batches: a batch is what one flush wrote, and flushes come on a timer of real
  // time too, so a busy machine splits the same day's requests into more or fewer batches.
  const logged = await t.database.db.query<{ n: number }>(
    'SELECT coalesce(sum(entries), 0)::int AS n FROM request_log_batches',
  );
  out.request_log_requests = logged.rows[0].n;
  return out as never;
}

describe('60 days of traffic', () => {
  it('keeps table sizes flat after the horizons, and everything inside them intact', async () => {
    const shop = await createMerchant(t.app, 'Açougue de Longa Data');
    const b = await addIntegrationKey(t.app, shop.merchantId); // never acknowledges
    const webhook = await t.app.inject({
      method: 'PUT',
      url: '/v1/merchantOnboarding',
      headers: bearer(shop.token),
      payload: { ordersWebhookURL: 'http://127.0.0.1:9' },
    });
    expect(webhook.statusCode).toBe(200);
    const product = await createProduct(t.app, shop.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const pos = (token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      t.app.inject({ method, url, headers: bearer(token), payload: payload as object | undefined });

    // Tokens live 12 h (spec 2.1): each day the POS takes new ones, as a real one would.
    const renew = async (who: { merchantId: string; clientSecret: string; token: string }) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/oauth/token',
        payload: { client_id: who.merchantId, client_secret: who.clientSecret, grant_type: 'client_credentials' },
      });
      expect(res.statusCode).toBe(200);
      who.token = res.json().access_token;
    };
    const keyB = { merchantId: shop.merchantId, ...b };

    const daily: Array<Awaited<ReturnType<typeof sizes>>> = [];
    const ordersOfDay: string[][] = [];
    for (let day = 0; day < DAYS; day++) {
      await renew(shop);
      await renew(keyB);
      const today: string[] = [];
      for (let i = 0; i < ORDERS_PER_DAY; i++) {
        clock.advance(60_000);
        const order = await createOrder(t.app, shop.merchantId, {
          type: 'DELIVERY',
          items: [{ productId: product.id, quantity: 1 }],
        });
        today.push(order.id);
        const act = (path: string, payload?: unknown) =>
          pos(shop.token, 'POST', `/v1/orders/${order.id}/${path}`, payload);
        expect(
          (await act('confirm', { createdAt: order.createdAt, orderExternalCode: `D${day}-${i}` })).statusCode,
        ).toBe(202);
        expect((await act('dispatch', {})).statusCode).toBe(202);
        expect(
          (
            await act('tracking', {
              deliveryTrackingInfo: { event: { type: 'DELIVERY_ONGOING', message: 'a caminho' } },
            })
          ).statusCode,
        ).toBe(202);
        expect((await act('delivered')).statusCode).toBe(202);
        // The platform concludes three of four; the fourth stays DELIVERED (finished too).
        if (i < 3) {
          const concluded = await t.app.inject({
            method: 'POST',
            url: `/admin/v1/orders/${order.id}/events`,
            headers: adminHeaders,
            payload: { eventType: 'CONCLUDED' },
          });
          expect(concluded.statusCode).toBe(202);
        }
      }
      ordersOfDay.push(today);
      const upload = await pos(shop.token, 'PUT', '/v1/merchantUpdate', {
        entityType: 'ITEM_OFFER',
        updatedObjects: [{ itemId: 'none', status: 'AVAILABLE' }],
      });
      expect(upload.statusCode).toBe(204);
      await t.services.catalog.worker.drain();

      // Key A polls and acknowledges everything; key B only polls.
      for (;;) {
        const polled = await pos(shop.token, 'GET', '/v1/events:polling');
        if (polled.statusCode === 204) break;
        const events = polled.json() as Array<{ eventId: string; orderId: string; eventType: string }>;
        const ack = await pos(
          shop.token,
          'POST',
          '/v1/events/acknowledgment',
          events.slice(0, 100).map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
        );
        expect(ack.statusCode).toBe(202);
      }
      expect([200, 204]).toContain((await pos(keyB.token, 'GET', '/v1/events:polling')).statusCode);
      await t.services.usageRecorder.flush();
      await t.services.requestLog.flush();

      clock.set(new Date(Date.parse('2026-01-01T08:00:00Z') + (day + 1) * DAY));
      await t.services.retention.runOnce(60_000);
      daily.push(await sizes());
    }

    // Orders are business records: all of them stay.
    expect(daily[DAYS - 1].orders).toBe(DAYS * ORDERS_PER_DAY);
    // After the longest horizon (30 days of finished orders), every size is flat.
    const flat = ['event_receipts', 'order_events', 'order_event_log', 'order_tracking', 'webhook_deliveries'] as const;
    for (const table of flat) {
      const late = daily.slice(35).map((d) => d[table]);
      expect({ table, late }).toEqual({ table, late: late.map(() => late[0]) });
      expect(late[0]).toBeLessThan(daily[29][table] * 1.2);
      expect(late[0]).toBeGreaterThan(0);
    }
    // Usage minutes: 48 h; catalog payloads: the last 20 syncs; summaries: 90 days (all kept here).
    expect(daily.slice(5).every((d) => d.key_usage_minutes === daily[5].key_usage_minutes)).toBe(true);
    expect(daily.slice(25).every((d) => d.catalog_payloads === 20)).toBe(true);
    expect(daily[DAYS - 1].catalog_syncs).toBe(DAYS);
    // The request log: 24 hours, so a day's requests at most (the same each day here).
    const logged = daily.slice(2).map((d) => d.request_log_requests);
    expect(logged).toEqual(logged.map(() => logged[0]));
    expect(logged[0]).toBeGreaterThan(0);
    // D36: platform feed items, 7 days (nothing relays them here, so nothing holds them back).
    const feed = daily.slice(10).map((d) => d.feed_items);
    expect(feed).toEqual(feed.map(() => feed[0]));
    expect(feed[0]).toBeGreaterThan(0);

    // Inside the horizon, intact: key B, which never acknowledges, polls exactly the events of
    // orders from the last 7 days (older ones expired), oldest first.
    const recent = new Set(ordersOfDay.slice(DAYS - 7).flat());
    const seen: Array<{ orderId: string }> = [];
    await renew(keyB);
    // A poll hands over at most 100 records, oldest first (D39): key B reads them all by
    // acknowledging each page once it is read (only now, after the sizes were measured).
    for (;;) {
      const page = await pos(keyB.token, 'GET', '/v1/events:polling');
      if (page.statusCode === 204) break;
      expect(page.statusCode).toBe(200);
      const events = page.json() as Array<{ eventId: string; orderId: string; eventType: string }>;
      expect(events.length).toBeLessThanOrEqual(100);
      seen.push(...events);
      const ack = await pos(
        keyB.token,
        'POST',
        '/v1/events/acknowledgment',
        events.map((e) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType })),
      );
      expect(ack.statusCode).toBe(202);
    }
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((e) => recent.has(e.orderId))).toBe(true);
    expect(new Set(seen.map((e) => e.orderId))).toEqual(recent);
    // Each of those orders still has its whole history for the operator.
    const lastOrder = ordersOfDay[DAYS - 1][0];
    const view = await t.app.inject({ url: `/admin/v1/orders/${lastOrder}`, headers: adminHeaders });
    expect(view.json().events.map((e: { eventType: string }) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'DISPATCHED',
      'DELIVERED',
      'CONCLUDED',
    ]);
    // A long-finished order keeps its record, without the pruned history.
    const oldOrder = await t.app.inject({ url: `/admin/v1/orders/${ordersOfDay[0][0]}`, headers: adminHeaders });
    expect(oldOrder.statusCode).toBe(200);
    expect(oldOrder.json()).toMatchObject({ status: 'CONCLUDED', events: [], tracking: [], webhookDeliveries: [] });
  }, 300_000);
});
