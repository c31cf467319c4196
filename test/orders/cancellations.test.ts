// Cancellations through HTTP: the POS's request answered by the platform, the customer's request
// accepted or denied by the POS (spec 4.8–4.10, 6, D7, D8).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import type { RecordedEvent } from '../../src/modules/events/index.js';
import { expectError } from '../support/expect-error.js';
import { confirmBody, orderSession } from '../support/order-session.js';
import { createSimpleOrder } from '../support/orders.js';
import { createMerchant, createTestApp, type TestApp } from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
const heard: RecordedEvent[] = [];
beforeAll(async () => {
  // A listener as the webhooks module has one: it sees every event, webhook-only too.
  t = await createTestApp({
    clock,
    onEvent: async (_tx, event) => {
      heard.push(event);
    },
  });
});
afterAll(() => t.close());
const { pos, operator } = orderSession(() => t, clock);

describe('cancellations (spec 4.8–4.10, 6, D7, D8), through HTTP only', () => {
  it('POS cancellation: CANCELLATION_REQUESTED, repeat refused, platform accepts → CANCELLED', async () => {
    const me = await createMerchant(t.app, 'Açougue Cancela');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.drain();
    const request = {
      reason: 'Sem estoque',
      code: 'UNAVAILABLE_ITEM',
      mode: 'MANUAL',
      outOfStockItems: [crypto.randomUUID()],
    };
    expect((await api.post(`/v1/orders/${order.id}/requestCancellation`, request)).statusCode).toBe(202);
    expect(await api.poll()).toMatchObject([
      {
        eventType: 'CANCELLATION_REQUESTED',
        metadata: { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' },
      },
    ]);
    expectError(
      await api.post(`/v1/orders/${order.id}/requestCancellation`, request),
      400,
      'Order has already same event type',
    );
    expectError(
      await api.post(`/v1/orders/${order.id}/requestCancellation`, { ...request, code: 'NOT_A_CODE' }),
      400,
      expect.stringMatching(/^code must be one of SYSTEMIC_ISSUES/) as unknown as string,
    );
    // The POS cannot answer its own request.
    expectError(await api.post(`/v1/orders/${order.id}/acceptCancellation`), 400, 'No cancellation request to answer');
    expect(
      (await operator('POST', `/orders/${order.id}/cancellationDecision`, { decision: 'accept' })).statusCode,
    ).toBe(202);
    expect(await api.drain()).toEqual(['CANCELLATION_REQUESTED', 'CANCELLED']);
    expectError(await api.post(`/v1/orders/${order.id}/confirm`, confirmBody), 400, 'Order is CANCELLED');
    expectError(
      await api.post(`/v1/orders/${order.id}/tracking`, { deliveryTrackingInfo: {} }),
      400,
      'Order is CANCELLED',
    );
    expectError(
      await operator('POST', `/orders/${order.id}/cancellationDecision`, { decision: 'deny' }),
      400,
      'No cancellation request to answer',
    );
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED');
  });

  it('POS cancellation denied by the platform: CANCELLATION_REQUEST_DENIED, lifecycle continues', async () => {
    const me = await createMerchant(t.app, 'Açougue Negado');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/requestCancellation`, {
      reason: 'r',
      code: 'SYSTEMIC_ISSUES',
      mode: 'AUTO',
    });
    await operator('POST', `/orders/${order.id}/cancellationDecision`, {
      decision: 'deny',
      reason: 'Cliente já pagou',
    });
    const events = await api.poll();
    expect(events.map((e) => e.eventType)).toEqual([
      'CREATED',
      'CANCELLATION_REQUESTED',
      'CANCELLATION_REQUEST_DENIED',
    ]);
    expect(events[2].metadata).toEqual({ reason: 'Cliente já pagou', code: 'SYSTEMIC_ISSUES' });
    expect((await api.post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
  });

  it('customer cancellation accepted: ORDER_CANCELLATION_REQUEST → acceptCancellation (204) → CANCELLED', async () => {
    const me = await createMerchant(t.app, 'Açougue Cliente');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/confirm`, confirmBody);
    await api.drain();
    expect((await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Desisti' })).statusCode).toBe(
      202,
    );
    expect(await api.poll()).toMatchObject([
      { eventType: 'ORDER_CANCELLATION_REQUEST', metadata: { reason: 'Desisti' } },
    ]);
    const accept = await api.post(`/v1/orders/${order.id}/acceptCancellation`);
    expect(accept.statusCode).toBe(204);
    expect(accept.body).toBe('');
    expect(await api.drain()).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED']);
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED');
    expectError(await api.post(`/v1/orders/${order.id}/acceptCancellation`), 400, 'No cancellation request to answer');
    expectError(await operator('POST', `/orders/${order.id}/customerCancellation`, {}), 400, 'Order is CANCELLED');
  });

  it('customer cancellation denied: CANCELLED_DENIED polled, two notifications, lifecycle continues, re-open', async () => {
    const me = await createMerchant(t.app, 'Açougue Nega');
    const api = pos(me);
    const order = await createSimpleOrder(t.app, me.merchantId);
    await api.post(`/v1/orders/${order.id}/confirm`, confirmBody);
    await api.drain();
    await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Demorou' });
    expectError(
      await operator('POST', `/orders/${order.id}/customerCancellation`, {}),
      400,
      'A customer cancellation request is already open',
    );
    const firstRequest = (await api.poll())[0];
    heard.length = 0;
    const deny = await api.post(`/v1/orders/${order.id}/denyCancellation`, {
      reason: 'Já saiu',
      code: 'DELIVERY_PROBLEM',
    });
    expect(deny.statusCode).toBe(204);
    // D8: the listeners (webhooks) hear two notifications; polling shows one.
    expect(heard.map((e) => [e.eventType, e.polled])).toEqual([
      ['CANCELLED_DENIED', true],
      ['CANCELLATION_REQUEST_DENIED', false],
    ]);
    expect(heard[1].record).toMatchObject({ eventType: 'CANCELLATION_REQUEST_DENIED', orderId: order.id });
    expect(heard[0].occurrenceId).not.toBe(heard[1].occurrenceId);
    const polled = await api.poll();
    expect(polled.map((e) => e.eventType)).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED_DENIED']);
    expect(polled[1].metadata).toEqual({ reason: 'Já saiu', code: 'DELIVERY_PROBLEM' });
    await api.drain();
    expect((await api.get(`/v1/orders/${order.id}`)).json().lastEvent).toBe('CANCELLED_DENIED');

    // The customer asks again: the same event is re-opened (D1), unacknowledged again.
    await operator('POST', `/orders/${order.id}/customerCancellation`, { reason: 'Ainda quero cancelar' });
    const again = await api.poll();
    expect(again).toHaveLength(1);
    expect(again[0].eventId).toBe(firstRequest.eventId);
    expect(again[0].createdAt > firstRequest.createdAt).toBe(true);
    await api.post(`/v1/orders/${order.id}/denyCancellation`, { reason: 'Não', code: 'DELIVERY_PROBLEM' });
    expect(await api.drain()).toEqual(['ORDER_CANCELLATION_REQUEST', 'CANCELLED_DENIED']);

    for (const step of ['readyForPickup', 'dispatch', 'delivered']) {
      expect((await api.post(`/v1/orders/${order.id}/${step}`)).statusCode).toBe(202);
    }
    expect(await api.drain()).toEqual(['READY_FOR_PICKUP', 'DISPATCHED', 'DELIVERED']);
    const view = (await operator('GET', `/orders/${order.id}`)).json();
    expect(view.events.filter((e: { eventType: string }) => e.eventType === 'ORDER_CANCELLATION_REQUEST')).toHaveLength(
      2,
    );
    expect(view.events.find((e: { polled: boolean }) => !e.polled).eventType).toBe('CANCELLATION_REQUEST_DENIED');
    expect((await operator('POST', `/orders/${order.id}/events`, { eventType: 'CONCLUDED' })).statusCode).toBe(202);
    expect(await api.drain()).toEqual(['CONCLUDED']);
    expectError(
      await operator('POST', `/orders/${order.id}/events`, { eventType: 'CONCLUDED' }),
      400,
      'Order is CONCLUDED',
    );
  });
});
