import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { newId } from '../../src/lib/ids.js';
import * as repo from '../../src/modules/webhooks/webhooks-repository.js';
import { buildEvent } from '../support/event-factory.js';
import { adminHeaders } from '../support/test-app.js';
import { closeAfterEach, deliveries, record, setup } from '../support/webhook-kit.js';

closeAfterEach();

describe('ordering (D11)', () => {
  it('events of one order go out in order; a later one waits while an earlier one is retried', async () => {
    const { t, receiver, merchant, webhooks } = await setup();
    const orderA = newId();
    const orderB = newId();
    const a = (['CREATED', 'CONFIRMED', 'READY_FOR_PICKUP', 'DISPATCHED'] as const).map((eventType) =>
      buildEvent({ merchantId: merchant.merchantId, orderId: orderA, eventType }),
    );
    const b = buildEvent({ merchantId: merchant.merchantId, orderId: orderB });
    // A's CREATED fails twice, its READY_FOR_PICKUP once.
    const failures = new Map([
      [a[0].occurrenceId, 2],
      [a[2].occurrenceId, 1],
    ]);
    receiver.setHandler((r) => {
      const id = String(r.headers['webhook-id']);
      const left = failures.get(id) ?? 0;
      if (left > 0) {
        failures.set(id, left - 1);
        return { status: 503 };
      }
      return { status: 200 };
    });
    await record(t, [...a, b]);
    await webhooks.drain();
    const ids = receiver.requests.map((r) => String(r.headers['webhook-id']));
    const ofA = ids.filter((id) => a.some((e) => e.occurrenceId === id));
    expect(ofA).toEqual([
      a[0].occurrenceId,
      a[0].occurrenceId,
      a[0].occurrenceId,
      a[1].occurrenceId,
      a[2].occurrenceId,
      a[2].occurrenceId,
      a[3].occurrenceId,
    ]);
    // another order is not held up by A's retries
    expect(ids.indexOf(b.occurrenceId)).toBeLessThan(ids.lastIndexOf(a[0].occurrenceId));
  });

  it('later deliveries of an order waiting for a retry are due no sooner than it; other orders are not held', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,300');
    const orderId = newId();
    receiver.setHandler(() => ({ status: 500 }));
    await record(t, [
      buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CREATED' }),
      buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CONFIRMED' }),
    ]);
    expect(await webhooks.runOnce()).toBe(1);
    // recorded while the first waits for its retry
    await record(t, [buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'READY_FOR_PICKUP' })]);
    const other = buildEvent({ merchantId: merchant.merchantId });
    await record(t, [other]);
    const byType = new Map(
      (await deliveries(t, merchant.merchantId)).map((d) => [d.orderId === orderId ? d.eventType : 'OTHER', d]),
    );
    const retryAt = Date.parse(byType.get('CREATED')?.nextAttemptAt as string);
    expect(retryAt).toBeGreaterThan(Date.now() + 200_000);
    expect(Date.parse(byType.get('CONFIRMED')?.nextAttemptAt as string)).toBe(retryAt);
    expect(Date.parse(byType.get('READY_FOR_PICKUP')?.nextAttemptAt as string)).toBe(retryAt);
    expect(Date.parse(byType.get('OTHER')?.nextAttemptAt as string)).toBeLessThanOrEqual(Date.now());
    receiver.setHandler(() => ({ status: 200 }));
    expect(await webhooks.runOnce()).toBe(1);
    expect(receiver.requests.at(-1)?.headers['webhook-id']).toBe(other.occurrenceId);
    // the operator's replay of the first one lets the order move again, in order
    await t.app.inject({
      method: 'POST',
      url: `/admin/v1/webhookDeliveries/${byType.get('CREATED')?.id}/retry`,
      headers: adminHeaders,
    });
    await webhooks.drain();
    expect(receiver.requests.slice(-3).map((r) => JSON.parse(r.body).eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
      'READY_FOR_PICKUP',
    ]);
  });

  it('after an earlier delivery FAILs, the later ones of that order proceed', async () => {
    const { t, receiver, merchant, webhooks } = await setup({}, '0,0.05');
    const orderId = newId();
    const first = buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CREATED' });
    const second = buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CONFIRMED' });
    receiver.setHandler((r) => ({ status: r.headers['webhook-id'] === first.occurrenceId ? 500 : 200 }));
    await record(t, [first, second]);
    await webhooks.drain();
    expect(receiver.requests.map((r) => r.headers['webhook-id'])).toEqual([
      first.occurrenceId,
      first.occurrenceId,
      second.occurrenceId,
    ]);
    const list = await deliveries(t, merchant.merchantId);
    expect(list.map((d) => [d.eventType, d.status])).toEqual([
      ['CONFIRMED', 'DELIVERED'],
      ['CREATED', 'FAILED'],
    ]);
  });
});
describe('the next due time (the worker timer)', () => {
  it('is the earliest first-in-line delivery: a later one of an order that waits does not count, nor do finished ones', async () => {
    const clock = manualClock(new Date());
    const { t, merchant } = await setup({ clock, env: { CLEAVER_WEBHOOK_LEASE_SEC: '30' } });
    const db = t.database.db;
    expect(await repo.nextDueAt(db, clock.now())).toBeNull();
    const orderId = newId();
    await record(t, [
      buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CREATED' }),
      buildEvent({ merchantId: merchant.merchantId, orderId, eventType: 'CONFIRMED' }),
    ]);
    // The first is leased (due again when its lease ends); the second, due now, waits behind it.
    const [first] = await repo.claimDueDeliveries(db, {
      now: clock.now(),
      limit: 1,
      leaseToken: newId(),
      leaseUntil: new Date(clock.now().getTime() + 30_000),
    });
    expect(first?.event_type).toBe('CREATED');
    expect((await repo.nextDueAt(db, clock.now()))?.getTime()).toBe(clock.now().getTime() + 30_000);
    // Another order's delivery, due now, is first in line: it is the next due time.
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    expect((await repo.nextDueAt(db, clock.now()))?.getTime()).toBe(clock.now().getTime());
    // Once everything is delivered, nothing is due.
    clock.advance(30_001);
    await t.services.webhooks.drain();
    expect(await repo.nextDueAt(db, clock.now())).toBeNull();
  });
});

describe('crash safety', () => {
  it('a delivery whose worker died mid-attempt is tried again once the lease runs out', async () => {
    const clock = manualClock(new Date());
    const { t, receiver, merchant } = await setup({ clock, env: { CLEAVER_WEBHOOK_LEASE_SEC: '30' } });
    const event = buildEvent({ merchantId: merchant.merchantId });
    await record(t, [event]);
    // a worker claims it and dies before recording anything
    const claimed = await repo.claimDueDeliveries(t.database.db, {
      now: clock.now(),
      limit: 10,
      leaseToken: newId(),
      leaseUntil: new Date(clock.now().getTime() + 30_000),
    });
    expect(claimed).toHaveLength(1);
    const worker = t.services.webhooks;
    expect(await worker.runOnce()).toBe(0); // still leased
    clock.advance(30_001);
    expect(await worker.runOnce()).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    const [d] = await deliveries(t, merchant.merchantId);
    expect(d.status).toBe('DELIVERED');
    expect(d.attempts.map((a) => [a.attemptNo, a.statusCode])).toEqual([
      [1, null],
      [2, 200],
    ]);
    expect(d.attempts[0].error).toMatch(/Attempt interrupted/);
    expect(d.attempts[0].durationMs).toBe(30_000);
  });

  it('a result recorded after the lease was lost does not overwrite the new owner', async () => {
    const { t, merchant } = await setup();
    await record(t, [buildEvent({ merchantId: merchant.merchantId })]);
    const now = new Date();
    const [row] = await repo.claimDueDeliveries(t.database.db, {
      now,
      limit: 1,
      leaseToken: newId(),
      leaseUntil: now,
    });
    const stale = await repo.recordAttempt(t.database.db, {
      deliveryId: row.id,
      leaseToken: newId(),
      attemptNo: row.attempt_count,
      startedAt: now,
      durationMs: 1,
      targetUrl: null,
      statusCode: 200,
      error: null,
      responseSnippet: null,
      status: 'DELIVERED',
      nextAttemptAt: null,
      at: now,
    });
    expect(stale).toBe(false);
    expect((await repo.findDelivery(t.database.db, row.id))?.status).toBe('PENDING');
  });
});
