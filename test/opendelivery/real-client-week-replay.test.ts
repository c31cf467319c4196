// D39: a week of a butcher shop's traffic as a real Open Delivery client library handles
// it, replayed against the real app and database with the clock moved by hand.
//
// The client is written here as that library behaves, not as we would like it to:
// - it acknowledges every poll whole, in one request, right after handling it;
// - it knows the event types of the Open Delivery version it was written for, and reads any other
//   type (CANCELLED_DENIED among them) as CREATED, and acknowledges with the type it read;
// - it never takes an element out of a request because the service refused it: whatever was
//   refused is still pending, comes back in the next poll, and is sent again the same way;
// - it logs in again when its token expires (a week is many tokens).
//
// The shop: orders all day; the POS confirms them and makes them ready; customers ask to cancel
// some, and the POS accepts some and denies others; one day the POS is offline and more than 100
// events wait for it. Under D32 and the 1000-record polls, this client re-handled every event
// behind a denied cancellation on every poll, a new order's CREATED among them, and a backlog over
// 100 was refused whole for good. Here, on both profiles, every order is handed to the POS as new
// exactly once and the pending set empties; on a `cleaver` key (which names the type, not the
// occurrence) the denials sent as CREATED stay refused (D39), hold nothing back, and leave with
// the receipts' expiry (D30).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOrder, createProduct } from '../support/orders.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connectPos, createKey, createMerchantOnly, type OdPos, operator, type PolledEvent } from './od-support.js';

const clock = manualClock(new Date('2026-03-02T08:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({
    clock,
    env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' },
  });
});
afterAll(() => t.close());

/** What the library knows: Open Delivery's first event list. Anything else reads as CREATED. */
const KNOWN_TYPES = new Set([
  'CREATED',
  'CONFIRMED',
  'READY_FOR_PICKUP',
  'DISPATCHED',
  'PICKUP_AREA_ASSIGNED',
  'DELIVERED',
  'CONCLUDED',
  'CANCELLATION_REQUESTED',
  'CANCELLATION_REQUEST_DENIED',
  'CANCELLED',
  'ORDER_CANCELLATION_REQUEST',
]);
const HOUR = 3_600_000;

type Profile = 'cleaver' | 'opendelivery';

/** The library plus the POS behind it: what it was handed, and what the shop did in return. */
function libraryClient(key: { merchantId: string; keyId: string; clientSecret: string }) {
  let pos: OdPos | undefined;
  const session = async () => {
    pos ??= await connectPos(t.app, key);
    return pos;
  };
  /** A request, logging in again once on 401 (an expired token). */
  const send = async (method: 'get' | 'post', url: string, payload?: unknown) => {
    let res = await (await session())[method](url, payload);
    if (res.statusCode === 401) {
      pos = undefined;
      res = await (await session())[method](url, payload);
    }
    return res;
  };

  /** Orders the POS has taken in as new, and how many times each was handed to it as new. */
  const handedAsNew = new Map<string, number>();
  /** How many times each polled record (order, eventId, type) was handed to the POS. */
  const handed = new Map<string, number>();
  /** Confirmed orders to make ready at the next round. */
  const toAdvance = new Set<string>();
  let cancellationAnswers = 0;
  const answers: Array<{ status: number; title?: string }> = [];
  const polls: number[] = [];
  /** The shop's actions the service refused (an event handled twice asks for them twice). */
  const refusedActions: string[] = [];

  async function handle(event: PolledEvent, readAs: string): Promise<void> {
    const record = `${event.orderId} ${event.eventId} ${event.eventType}`;
    handed.set(record, (handed.get(record) ?? 0) + 1);
    if (readAs === 'CREATED') {
      // The real CREATED is the order handed as new; another type read as CREATED is the same
      // order handed again, which the POS finds it already has.
      if (event.eventType === 'CREATED') handedAsNew.set(event.orderId, (handedAsNew.get(event.orderId) ?? 0) + 1);
      if (handedAsNew.get(event.orderId) === 1 && event.eventType === 'CREATED') {
        const res = await send('post', `/v1/orders/${event.orderId}/confirm`, {
          createdAt: clock.now().toISOString(),
          orderExternalCode: `PDV-${handedAsNew.size}`,
        });
        if (res.statusCode === 202) toAdvance.add(event.orderId);
        else refusedActions.push(`confirm ${res.statusCode} ${res.body}`);
      }
      return;
    }
    if (readAs === 'ORDER_CANCELLATION_REQUEST') {
      // Every other request accepted, the others denied.
      const accept = cancellationAnswers++ % 2 === 0;
      const res = accept
        ? await send('post', `/v1/orders/${event.orderId}/acceptCancellation`)
        : await send('post', `/v1/orders/${event.orderId}/denyCancellation`, {
            reason: 'O pedido já está separado',
            code: 'SYSTEMIC_ISSUES',
          });
      // A request handed twice is answered twice: the second answer is refused.
      if (res.statusCode !== 204) refusedActions.push(`answer ${res.statusCode} ${res.body}`);
      else if (accept) toAdvance.delete(event.orderId);
    }
  }

  return {
    handedAsNew,
    handed,
    answers,
    polls,
    refusedActions,
    /** One round: move orders on, poll, hand each record to the POS, acknowledge the poll whole. */
    async round(): Promise<number> {
      for (const orderId of toAdvance) {
        const res = await send('post', `/v1/orders/${orderId}/readyForPickup`);
        expect(res.statusCode, `readyForPickup: ${res.body}`).toBe(202);
      }
      toAdvance.clear();
      const polled = await send('get', '/v1/events:polling');
      if (polled.statusCode === 204) return 0;
      expect(polled.statusCode, polled.body).toBe(200);
      const events = polled.json() as PolledEvent[];
      polls.push(events.length);
      const acknowledgments = [];
      for (const event of events) {
        const readAs = KNOWN_TYPES.has(event.eventType) ? event.eventType : 'CREATED';
        await handle(event, readAs);
        acknowledgments.push({ id: event.eventId, orderId: event.orderId, eventType: readAs });
      }
      const ack = await send('post', '/v1/events/acknowledgment', acknowledgments);
      answers.push(ack.statusCode === 202 ? { status: 202 } : { status: ack.statusCode, title: ack.json().title });
      return events.length;
    },
  };
}

/** The shop's side: orders handed in, and customers who ask to cancel. */
async function shop(merchantId: string) {
  const product = await createProduct(t.app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  const orders: string[] = [];
  return {
    orders,
    async order(): Promise<string> {
      const { id } = await createOrder(t.app, merchantId, {
        type: 'DELIVERY',
        items: [{ productId: product.id, quantity: 1.2 }],
      });
      orders.push(id);
      return id;
    },
    async customerAsksToCancel(orderId: string): Promise<void> {
      const res = await operator(t.app, 'POST', `/orders/${orderId}/customerCancellation`, {});
      expect(res.statusCode, res.body).toBe(202);
    },
  };
}

async function pendingOf(keyId: string): Promise<Array<{ order_id: string; event_type: string }>> {
  const { rows } = await t.database.db.query<{ order_id: string; event_type: string }>(
    'SELECT order_id, event_type FROM event_receipts WHERE key_id = $1 AND acknowledged_at IS NULL ORDER BY seq',
    [keyId],
  );
  return rows;
}

// Some 300 requests a profile: a few seconds on a quiet machine, the timeout for a loaded one.
describe.each<Profile>(['opendelivery', 'cleaver'])(
  'a week of a shop with that client, %s key (D39)',
  { timeout: 120_000 },
  (profile) => {
    it('hands every order to the POS as new once, never wedges, and the pending set empties', async () => {
      const merchantId = await createMerchantOnly(t.app, `Açougue da Semana ${profile}`);
      const key = await createKey(t.app, merchantId, profile);
      const client = libraryClient(key);
      const butcher = await shop(merchantId);
      const day0 = clock.now().getTime();

      for (let day = 0; day < 7; day++) {
        clock.set(new Date(day0 + day * 24 * HOUR));
        if (day === 3) {
          // The POS is offline all day: orders come in, and customers ask to cancel most of them.
          for (let i = 0; i < 51; i++) await butcher.order();
          for (const orderId of butcher.orders.slice(-50)) await butcher.customerAsksToCancel(orderId);
          expect((await pendingOf(key.keyId)).length).toBeGreaterThan(100);
          continue;
        }
        // A working day: a few orders, a customer asking to cancel one of them after it was confirmed.
        for (let hour = 0; hour < 3; hour++) {
          clock.set(new Date(day0 + day * 24 * HOUR + hour * HOUR));
          if (hour < 2) await butcher.order();
          else await butcher.customerAsksToCancel(butcher.orders.at(-1) as string);
          // Back after the day offline, the first poll is the oldest 100.
          // A full poll: more may be waiting (a few polls drain the backlog; a wedged client would not).
          for (let full = 0; full < 4 && (await client.round()) === 100; full++);
        }
      }
      // The week is over: the POS runs its last rounds (the orders it confirmed move on).
      for (let i = 0; i < 3; i++) await client.round();

      // The backlog came as polls of 100, each acknowledged in one request: never "more than 100 items".
      expect(client.polls.filter((n) => n === 100).length).toBeGreaterThan(0);
      expect(client.polls.every((n) => n <= 100)).toBe(true);
      expect(client.answers.filter((a) => a.title?.startsWith('body'))).toEqual([]);

      // Every order was handed to the POS as new exactly once.
      expect(client.handedAsNew.size).toBe(butcher.orders.length);
      expect([...client.handedAsNew].filter(([, n]) => n !== 1)).toEqual([]);
      expect(client.refusedActions).toEqual([]);

      const handedTwice = [...client.handed].filter(([, n]) => n > 1).map(([record]) => record.split(' ')[2]);
      const left = await pendingOf(key.keyId);
      if (profile === 'opendelivery') {
        // The occurrence id decided: the denials read as CREATED were acknowledged, once each.
        expect(client.answers.filter((a) => a.status !== 202)).toEqual([]);
        expect(handedTwice).toEqual([]);
        expect(left).toEqual([]);
        return;
      }
      // A cleaver key's eventId names the type, so CREATED for CANCELLED_DENIED's id stays refused
      // (D39 keeps D32 there): only those elements are left, and nothing behind them waited.
      expect(new Set(handedTwice)).toEqual(new Set(['CANCELLED_DENIED']));
      expect(new Set(left.map((r) => r.event_type))).toEqual(new Set(['CANCELLED_DENIED']));
      expect(client.answers.filter((a) => a.status !== 202 && a.title !== 'eventType')).toEqual([]);
      // D30: an unacknowledged receipt expires after 7 days, and the pending set is empty.
      clock.set(new Date(day0 + 15 * 24 * HOUR));
      await t.services.retention.runOnce(60_000);
      expect(await pendingOf(key.keyId)).toEqual([]);
    });
  },
);
