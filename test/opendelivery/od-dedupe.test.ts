// Why the opendelivery profile exists (D28.1). Open Delivery software de-duplicates events by
// eventId alone and acknowledges what it drops as already handled. Under the spec's dialect an
// eventId names the event type (D1), so such a POS keeps one event per type and acknowledges the
// rest away: every new order after the first never reaches the shop. With an opendelivery key
// each occurrence has its own eventId and the same POS loses nothing.
//
// One merchant, two keys (one per profile), the same 30 events over 7 orders, polled by the same
// de-duplicating POS between the moments things happen, as a POS polling every few seconds would.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf, type OrderEventType } from '../../src/modules/events/index.js';
import { createOrder, createProduct } from '../support/orders.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import {
  ackOf,
  connectPos,
  createKey,
  createMerchantOnly,
  type OdPos,
  operator,
  type PolledEvent,
  poll,
} from './od-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Open Delivery POS software: a set of seen eventIds; a seen id is dropped and acknowledged. */
function dedupingPos(pos: OdPos) {
  const seen = new Set<string>();
  const kept: PolledEvent[] = [];
  const dropped: PolledEvent[] = [];
  return {
    kept,
    dropped,
    async pollOnce(): Promise<void> {
      for (;;) {
        const events = await poll(pos);
        if (events.length === 0) return;
        for (const e of events) {
          if (seen.has(e.eventId)) dropped.push(e);
          else {
            seen.add(e.eventId);
            kept.push(e);
          }
        }
        // Both the handled and the "duplicate" events are acknowledged, as such software does.
        const res = await pos.post('/v1/events/acknowledgment', events.map(ackOf));
        expect(res.statusCode).toBe(202);
      }
    },
  };
}

describe('a POS that de-duplicates by eventId alone', () => {
  it('loses nothing with an opendelivery key, and loses orders and cancellations with a cleaver key', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Dedup');
    const od = dedupingPos(await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery')));
    const cleaver = dedupingPos(await connectPos(t.app, await createKey(t.app, merchantId, 'cleaver')));
    const both = async () => {
      await od.pollOnce();
      await cleaver.pollOnce();
    };
    const product = await createProduct(t.app, merchantId, { name: 'Fraldinha', price: 59.9, unit: 'KG' });
    // The actions go through one of the two POS (the opendelivery one); both keys see every event.
    const actor = await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery'));
    const act = async (orderId: string, action: string, body: unknown = undefined) => {
      const res = await actor.post(`/v1/orders/${orderId}/${action}`, body);
      expect(res.statusCode, `${action}: ${res.body}`).toBeLessThan(300);
    };
    const confirm = { createdAt: new Date().toISOString(), orderExternalCode: 'PDV' };

    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      ids.push(
        (await createOrder(t.app, merchantId, { type: 'DELIVERY', items: [{ productId: product.id, quantity: 1 }] }))
          .id,
      );
      await both();
    }
    for (const id of ids) {
      await act(id, 'confirm', confirm);
      await both();
    }
    for (const id of ids.slice(0, 4)) {
      await act(id, 'dispatch', {});
      await act(id, 'delivered');
      await both();
    }
    for (const id of ids.slice(4, 6)) {
      expect((await operator(t.app, 'POST', `/orders/${id}/customerCancellation`, {})).statusCode).toBe(202);
      await both();
      await act(id, 'acceptCancellation');
      await both();
    }
    await act(ids[6], 'requestCancellation', { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'AUTO' });
    await both();
    expect(
      (await operator(t.app, 'POST', `/orders/${ids[6]}/cancellationDecision`, { decision: 'accept' })).statusCode,
    ).toBe(202);
    await both();
    for (const id of ids.slice(0, 2)) {
      expect((await operator(t.app, 'POST', `/orders/${id}/events`, { eventType: 'CONCLUDED' })).statusCode).toBe(202);
    }
    await both();

    const total = od.kept.length + od.dropped.length;
    expect(total).toBe(30);
    expect(cleaver.kept.length + cleaver.dropped.length).toBe(30);

    // opendelivery: every occurrence kept, nothing acknowledged away.
    expect(od.dropped).toEqual([]);
    const createdFor = (kept: PolledEvent[]) => kept.filter((e) => e.eventType === 'CREATED').map((e) => e.orderId);
    const cancelledFor = (kept: PolledEvent[]) => kept.filter((e) => e.eventType === 'CANCELLED').map((e) => e.orderId);
    expect(createdFor(od.kept)).toEqual(ids);
    expect(cancelledFor(od.kept)).toEqual(ids.slice(4));

    // cleaver: one event per type survives (D1: the eventId names the type); the rest was
    // acknowledged as duplicates and never reached the shop.
    const types = new Set<OrderEventType>(od.kept.map((e) => e.eventType as OrderEventType));
    expect(cleaver.kept.length).toBe(types.size);
    expect(cleaver.kept.map((e) => e.eventId).sort()).toEqual([...types].map(eventIdOf).sort());
    expect(createdFor(cleaver.kept)).toEqual([ids[0]]); // 6 of 7 new orders lost
    expect(cancelledFor(cleaver.kept)).toEqual([ids[4]]); // 2 of 3 cancellations lost
    expect(cleaver.dropped.length).toBe(30 - types.size);
  });
});
