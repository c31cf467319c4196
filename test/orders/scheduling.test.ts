// D44 through HTTP: scheduling settings, the slots route, SCHEDULED intake refusing full,
// outside-hours, beyond-horizon and too-soon-for-lead-time slots with the field named, the
// preparation start, no dispatch before the slot, the confirmation deadline, and two intakes
// racing for a slot's last place (exactly one wins, on both databases).
import { describe, expect } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { endDuePauses } from '../../src/workers.js';
import { expectError } from '../support/expect-error.js';
import { appTest } from '../support/fixtures.js';
import { confirmBody } from '../support/order-session.js';
import { createProduct } from '../support/orders.js';
import { adminHeaders, bearer, type MerchantCredentials, type TestApp } from '../support/test-app.js';

// Sunday 20 December 2026, 09:00 in São Paulo.
const clock = manualClock(new Date('2026-12-20T12:00:00Z'));
const it = appTest({ clock, env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' } });

const admin = (t: TestApp, method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: adminHeaders, payload: payload as object });

/** A SCHEDULED order whose window starts at `start` (an hour long). */
const encomenda = (t: TestApp, merchantId: string, start: string, items: unknown[], type = 'TAKEOUT') =>
  admin(t, 'POST', `/merchants/${merchantId}/orders`, {
    type,
    orderTiming: 'SCHEDULED',
    schedule: {
      scheduledDateTimeStart: start,
      scheduledDateTimeEnd: new Date(Date.parse(start) + 3_600_000).toISOString(),
    },
    items,
  });

async function setUp(t: TestApp, me: MerchantCredentials, capacityPerSlot: number) {
  const patched = await admin(t, 'PATCH', `/merchants/${me.merchantId}`, {
    scheduling: {
      slotMinutes: 60,
      capacityPerSlot,
      horizonDays: 14,
      hours: [
        {
          dayOfWeek: ['MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY', 'SUNDAY'],
          timePeriods: { startTime: '08:00', endTime: '18:00' },
        },
      ],
    },
  });
  expect(patched.statusCode, patched.body).toBe(200);
  const pernil = await createProduct(t.app, me.merchantId, { name: 'Pernil', price: 34.9, unit: 'KG' });
  const leitoa = await createProduct(t.app, me.merchantId, { name: 'Leitoa', price: 480, unit: 'UN' });
  // leadTimeHours comes with a catalog upload (D44); written here directly.
  await t.database.db.query('UPDATE products SET lead_time_hours = 48 WHERE id = $1', [leitoa.id]);
  return { pernil, leitoa };
}

describe('encomendas (D44)', () => {
  it('lists slots from the store hours and takes a scheduled order into one', async ({ t, me }) => {
    const { pernil, leitoa } = await setUp(t, me, 2);
    const slots = await admin(
      t,
      'GET',
      `/merchants/${me.merchantId}/slots?from=2026-12-24T03:00:00.000Z&to=2026-12-25T03:00:00.000Z`,
    );
    expect(slots.statusCode).toBe(200);
    // 08:00–18:00 local (UTC−3): ten one-hour slots.
    expect(slots.json()).toHaveLength(10);
    expect(slots.json()[0]).toEqual({
      start: '2026-12-24T11:00:00.000Z',
      end: '2026-12-24T12:00:00.000Z',
      capacity: 2,
      left: 2,
    });

    const at = '2026-12-24T14:00:00.000Z';
    const first = await encomenda(t, me.merchantId, at, [{ productId: pernil.id, quantity: 3.5 }]);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ orderTiming: 'SCHEDULED', preparationStartDateTime: at });

    expectError(
      await encomenda(t, me.merchantId, '2026-12-21T14:00:00.000Z', [{ productId: leitoa.id, quantity: 1 }]),
      400,
      'items[0] needs 48 hours’ notice: too soon for the slot at 2026-12-21T14:00:00.000Z',
    );
    const second = await encomenda(t, me.merchantId, '2026-12-24T14:30:00.000Z', [
      { productId: leitoa.id, quantity: 1 },
    ]);
    expect(second.statusCode, second.body).toBe(201);
    // Preparation starts the longest lead time before the slot.
    expect(second.json().preparationStartDateTime).toBe('2026-12-22T14:00:00.000Z');

    expectError(
      await encomenda(t, me.merchantId, at, [{ productId: pernil.id, quantity: 1 }]),
      400,
      `schedule: the slot at ${at} is full (2 orders per slot)`,
    );
    expectError(
      await encomenda(t, me.merchantId, '2026-12-24T22:00:00.000Z', [{ productId: pernil.id, quantity: 1 }]),
      400,
      'schedule.scheduledDateTimeStart is outside the store’s hours',
    );
    expectError(
      await encomenda(t, me.merchantId, '2027-01-10T14:00:00.000Z', [{ productId: pernil.id, quantity: 1 }]),
      400,
      'schedule.scheduledDateTimeStart is beyond the 14-day horizon',
    );
    expectError(
      await admin(t, 'POST', `/merchants/${me.merchantId}/orders`, {
        type: 'TAKEOUT',
        orderTiming: 'SCHEDULED',
        items: [{ productId: pernil.id, quantity: 1 }],
      }),
      400,
      'schedule is required for a SCHEDULED order',
    );

    const slot = (
      await admin(t, 'GET', `/merchants/${me.merchantId}/slots?from=${at}&to=2026-12-24T15:00:00.000Z`)
    ).json();
    expect(slot).toEqual([{ start: at, end: '2026-12-24T15:00:00.000Z', capacity: 2, left: 0 }]);

    // A cancellation gives the place back.
    const cancelled = await admin(t, 'POST', `/orders/${first.json().id}/events`, { eventType: 'CANCELLED' });
    expect(cancelled.statusCode, cancelled.body).toBeLessThan(300);
    const after = (
      await admin(t, 'GET', `/merchants/${me.merchantId}/slots?from=${at}&to=2026-12-24T15:00:00.000Z`)
    ).json();
    expect(after[0].left).toBe(1);

    // The platform feed's CREATED item carries the schedule.
    const { rows } = await t.database.db.query<{ data: Record<string, unknown> }>(
      `SELECT data FROM feed_items WHERE order_id = $1 AND type = 'CREATED'`,
      [second.json().id],
    );
    expect(rows[0]?.data).toMatchObject({
      schedule: { scheduledDateTimeStart: '2026-12-24T14:30:00.000Z' },
      preparationStartDateTime: '2026-12-22T14:00:00.000Z',
    });
  });

  it('refuses bad settings naming the field', async ({ t, me }) => {
    const bad = await admin(t, 'PATCH', `/merchants/${me.merchantId}`, {
      scheduling: { hours: [{ dayOfWeek: ['MONDAY'], timePeriods: { startTime: '18:00', endTime: '08:00' } }] },
    });
    expectError(
      bad,
      400,
      'scheduling.hours[0].timePeriods.endTime must be after scheduling.hours[0].timePeriods.startTime',
    );
    const short = await admin(t, 'PATCH', `/merchants/${me.merchantId}`, { scheduling: { slotMinutes: 10 } });
    expect(short.statusCode).toBe(400);
    expect(short.json().title).toContain('slotMinutes');
  });

  it('never dispatches before the slot; an unconfirmed encomenda is cancelled after confirmWithinMinutes', async ({
    t,
    me,
  }) => {
    const { pernil } = await setUp(t, me, 5);
    const start = '2026-12-23T15:00:00.000Z';
    const order = (
      await encomenda(t, me.merchantId, start, [{ productId: pernil.id, quantity: 2 }], 'DELIVERY')
    ).json();
    const post = (url: string, payload: unknown) =>
      t.app.inject({ method: 'POST', url, headers: bearer(me.token), payload: payload as object });
    expect((await post(`/v1/orders/${order.id}/confirm`, confirmBody)).statusCode).toBe(202);
    expectError(
      await post(`/v1/orders/${order.id}/dispatch`, {}),
      400,
      `Order is SCHEDULED: not dispatched before its slot starts at ${start}`,
    );

    const late = (await encomenda(t, me.merchantId, start, [{ productId: pernil.id, quantity: 1 }])).json();
    clock.advance(31 * 60_000);
    await endDuePauses(t.services);
    const seen = (await admin(t, 'GET', `/orders/${late.id}`)).json();
    expect(seen.status).toBe('CANCELLED');
    // The confirmed one stays.
    expect((await admin(t, 'GET', `/orders/${order.id}`)).json().status).toBe('CONFIRMED');
  });

  it('two intakes racing for the last place of a slot: exactly one wins', async ({ t, me }) => {
    const { pernil } = await setUp(t, me, 1);
    const at = '2026-12-26T13:00:00.000Z';
    for (let round = 0; round < 3; round++) {
      const start = new Date(Date.parse(at) + round * 3_600_000).toISOString();
      const answers = await Promise.all(
        [1, 2].map(() => encomenda(t, me.merchantId, start, [{ productId: pernil.id, quantity: 1 }])),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 400]);
      const loser = answers.find((a) => a.statusCode === 400);
      if (loser) expectError(loser, 400, `schedule: the slot at ${start} is full (1 orders per slot)`);
    }
  });
});
