// D43, D44 in the console: the catalog page shows each product's availability and stock and lets
// support pause, resume and count it; the merchant page pauses the store until a time and ends
// the pause; the slots page draws a merchant's encomenda slots as a calendar with full slots
// marked. A viewer reads and cannot post. Times typed in the forms are the operator's zone
// (America/Sao_Paulo by default).
import { describe, expect } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOperator } from '../operators-access/support.js';
import { appTest } from '../support/fixtures.js';
import { createProduct } from '../support/orders.js';
import { adminHeaders, type TestApp } from '../support/test-app.js';
import { login, loginAs } from './console-session.js';

// Sunday 20 December 2026, 09:00 in São Paulo.
const clock = manualClock(new Date('2026-12-20T12:00:00Z'));
const it = appTest({ clock });

const admin = (t: TestApp, method: 'GET' | 'PATCH' | 'POST', url: string, payload?: unknown) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: adminHeaders, payload: payload as object });

async function availabilityOf(t: TestApp, merchantId: string, productId: string) {
  const res = await admin(t, 'GET', `/merchants/${merchantId}/products`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { id: string; availability: unknown }[]).find((p) => p.id === productId)?.availability;
}

describe('availability on the catalog page (D43)', () => {
  it('pauses until a time, counts stock keeping the pause, resumes; a viewer only reads', async ({ t, me }) => {
    const picanha = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const s = await login(t.app);
    const catalog = `/console/merchants/${me.merchantId}/catalog`;
    const item = `/console/merchants/${me.merchantId}/products/${picanha.id}`;
    const first = await s.get(catalog);
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('<td data-label="Availability"><span class="badge badge-ok">Available</span>');

    const paused = await s.post(`${item}/pause`, { reason: 'QUALITY', until: '2026-12-20T15:00' });
    expect(paused.statusCode, paused.body).toBe(303);
    expect(await availabilityOf(t, me.merchantId, picanha.id)).toMatchObject({
      available: false,
      reason: 'QUALITY',
      until: '2026-12-20T18:00:00.000Z',
      stock: null,
    });
    const shown = await s.get(paused.headers.location as string);
    expect(shown.body).toContain('Done: Picanha paused.');
    expect(shown.body).toContain('title="QUALITY" data-code="QUALITY">Paused: quality</span>');
    expect(shown.body).toContain('<time datetime="2026-12-20T18:00:00.000Z"');

    const counted = await s.post(`${item}/stock`, { quantity: '12,5' });
    expect(counted.statusCode, counted.body).toBe(303);
    expect(await availabilityOf(t, me.merchantId, picanha.id)).toMatchObject({
      available: false,
      reason: 'QUALITY',
      until: '2026-12-20T18:00:00.000Z',
      stock: { quantity: 12.5 },
    });
    expect((await s.get(catalog)).body).toContain('Stock: 12.5 KG');

    const bad = await s.post(`${item}/stock`, { quantity: 'muito' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Stock must be a number of at most 3 decimals (a comma is fine).');
    const badReason = await s.post(`${item}/pause`, { reason: 'BORED' });
    expect(badReason.statusCode).toBe(400);
    expect(badReason.body).toContain('Reason');

    const resumed = await s.post(`${item}/resume`, {});
    expect(resumed.statusCode).toBe(303);
    expect(await availabilityOf(t, me.merchantId, picanha.id)).toMatchObject({
      available: true,
      reason: null,
      until: null,
      stock: { quantity: 12.5 },
    });
    expect((await s.get(resumed.headers.location as string)).body).toContain('Done: Picanha available again.');

    const zero = await s.post(`${item}/stock`, { quantity: '0' });
    expect(zero.statusCode).toBe(303);
    expect((await s.get(catalog)).body).toContain('data-code="OUT_OF_STOCK">Out of stock</span>');

    const viewer = await createOperator(t.app, 'viewer');
    const v = await loginAs(t.app, viewer.email, viewer.password);
    const read = await v.get(catalog);
    expect(read.body).toContain('Stock: 0 KG');
    expect(read.body).not.toContain(`${item}/pause`);
    expect((await v.post(`${item}/resume`, {})).statusCode).toBe(403);

    const support = await createOperator(t.app, 'support');
    const sp = await loginAs(t.app, support.email, support.password);
    expect((await sp.get(catalog)).body).toContain(`action="${item}/pause"`);
    expect((await sp.post(`${item}/resume`, {})).statusCode).toBe(303);
    const unknown = `/console/merchants/${me.merchantId}/products/00000000-0000-4000-8000-000000000000/resume`;
    expect((await s.post(unknown, {})).statusCode).toBe(404);
  });
});

describe("the store's pause on the merchant page (D43)", () => {
  it('pauses the store until a time and ends the pause', async ({ t, me }) => {
    const s = await login(t.app);
    const base = `/console/merchants/${me.merchantId}`;
    expect((await s.get(base)).body).toContain('Not paused.');
    const missing = await s.post(`${base}/pause`, { reason: 'Inventário' });
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('Until (your time zone)');

    const paused = await s.post(`${base}/pause`, { reason: 'Inventário', until: '2026-12-20T18:00' });
    expect(paused.statusCode, paused.body).toBe(303);
    const merchant = await admin(t, 'GET', `/merchants/${me.merchantId}`);
    expect(merchant.json()).toMatchObject({
      status: 'UNAVAILABLE',
      pause: { reason: 'Inventário', until: '2026-12-20T21:00:00.000Z' },
    });
    const page = await s.get(paused.headers.location as string);
    expect(page.body).toContain('Done: the store is paused.');
    expect(page.body).toContain('Paused: Inventário');
    expect(page.body).toContain(`action="${base}/resume"`);

    const past = await s.post(`${base}/pause`, { reason: 'Inventário', until: '2026-12-20T08:00' });
    expect(past.statusCode).toBe(400);
    expect(past.body).toContain('until must be in the future');

    const resumed = await s.post(`${base}/resume`, {});
    expect(resumed.statusCode).toBe(303);
    expect((await admin(t, 'GET', `/merchants/${me.merchantId}`)).json()).toMatchObject({
      status: 'AVAILABLE',
      pause: null,
    });
    expect((await s.get(resumed.headers.location as string)).body).toContain('Done: the store receives orders again.');
  });
});

describe("a merchant's slots as a calendar (D44)", () => {
  it('shows days as columns and times as rows, places left / capacity, full slots marked', async ({ t, me }) => {
    const patched = await admin(t, 'PATCH', `/merchants/${me.merchantId}`, {
      scheduling: {
        slotMinutes: 60,
        capacityPerSlot: 1,
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
    const order = await admin(t, 'POST', `/merchants/${me.merchantId}/orders`, {
      type: 'TAKEOUT',
      orderTiming: 'SCHEDULED',
      schedule: {
        scheduledDateTimeStart: '2026-12-21T14:00:00.000Z',
        scheduledDateTimeEnd: '2026-12-21T15:00:00.000Z',
      },
      items: [{ productId: pernil.id, quantity: 2 }],
    });
    expect(order.statusCode, order.body).toBe(201);

    const s = await login(t.app);
    const merchantPage = await s.get(`/console/merchants/${me.merchantId}`);
    expect(merchantPage.body).toContain(`href="/console/merchants/${me.merchantId}/slots"`);
    const res = await s.get(`/console/merchants/${me.merchantId}/slots?days=3`);
    expect(res.statusCode).toBe(200);
    const days = [...res.body.matchAll(/data-day="([0-9-]+)"/g)].map((m) => m[1]);
    expect(days).toEqual(['2026-12-20', '2026-12-21', '2026-12-22', '2026-12-23']);
    const rows = [...res.body.matchAll(/<tr><th scope="row">(\d\d:\d\d)<\/th>/g)].map((m) => m[1]);
    expect(rows).toEqual(['08:00', '09:00', '10:00', '11:00', '12:00', '13:00', '14:00', '15:00', '16:00', '17:00']);
    expect(res.body).toContain(
      'class="num" data-slot="2026-12-21T14:00:00.000Z">0 / 1 <span class="badge badge-bad">Full</span></td>',
    );
    expect(res.body).toContain('class="num" data-slot="2026-12-21T15:00:00.000Z">1 / 1</td>');
    // Sunday's slots before 09:00 are past: no slot in those cells.
    expect(res.body).toContain('<td data-label="Sun, Dec 20" class="muted small">No slot</td>');

    const bad = await s.get(`/console/merchants/${me.merchantId}/slots?days=0`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Days');
  });
});
