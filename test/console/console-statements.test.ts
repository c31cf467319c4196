// D45 in the console, on both databases: a merchant's statements with the chart of the last
// periods' gross and net, a statement's totals and lines, and mark paid: offered to admins on a
// CLOSED statement only, refused to a viewer, and written (and audited) like the API's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOperator } from '../operators-access/support.js';
import { confirmBody } from '../support/order-session.js';
import { createOrder, createProduct } from '../support/orders.js';
import { adminHeaders, bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login, loginAs } from './console-session.js';

// Monday 2026-03-02, 10:00 in Sao Paulo.
const clock = manualClock(new Date('2026-03-02T13:00:00Z'));
let t: TestApp;
let merchantId: string;
let closedId: string;
beforeAll(async () => {
  t = await createTestApp({ clock });
  const me = await createMerchant(t.app, 'Açougue do Painel');
  merchantId = me.merchantId;
  const product = await createProduct(t.app, merchantId, { name: 'Cupim', price: 45, unit: 'KG' });
  const order = await createOrder(t.app, merchantId, {
    type: 'TAKEOUT',
    items: [{ productId: product.id, quantity: 2 }],
  });
  const confirmed = await t.app.inject({
    method: 'POST',
    url: `/v1/orders/${order.id}/confirm`,
    headers: bearer(me.token),
    payload: confirmBody,
  });
  expect(confirmed.statusCode).toBe(202);
  const concluded = await t.app.inject({
    method: 'POST',
    url: `/admin/v1/orders/${order.id}/events`,
    headers: adminHeaders,
    payload: { eventType: 'CONCLUDED' },
  });
  expect(concluded.statusCode).toBe(202);
  clock.set(new Date('2026-03-10T12:00:00Z'));
  expect(await t.services.statements.closeDue()).toBeGreaterThanOrEqual(1);
  closedId = (await t.services.statements.list({ merchantId })).items[0].id;
});
afterAll(() => t.close());

describe('statements in the console (D45)', () => {
  it('lists the merchant’s statements with the chart of gross and net, linked from the merchant', async () => {
    const s = await login(t.app);
    const merchant = await s.get(`/console/merchants/${merchantId}`);
    expect(merchant.body).toContain(`href="/console/merchants/${merchantId}/statements"`);
    const list = await s.get(`/console/merchants/${merchantId}/statements`);
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('<figure class="chart">');
    expect(list.body).toContain('Gross and net of the last periods');
    expect(list.body).toContain('2026-03-02 → 2026-03-08');
    // 90.00 gross, 10.80 commission (12 %), prepaid: net 79.20.
    expect(list.body).toContain('R$90.00');
    expect(list.body).toContain('R$79.20');
    expect(list.body).toContain(`href="/console/statements/${closedId}"`);
  });

  it('marks a CLOSED statement paid for an admin, and offers nothing to a viewer', async () => {
    const viewerOp = await createOperator(t.app, 'viewer');
    const viewer = await loginAs(t.app, viewerOp.email, viewerOp.password);
    const seen = await viewer.get(`/console/statements/${closedId}`);
    expect(seen.statusCode).toBe(200);
    expect(seen.body).toContain('Lines');
    expect(seen.body).not.toContain('Mark paid');
    const refused = await viewer.post(`/console/statements/${closedId}/paid`, { paidOn: '2026-03-11', reference: 'X' });
    expect(refused.statusCode).toBe(403);

    const admin = await login(t.app);
    const page = await admin.get(`/console/statements/${closedId}`);
    expect(page.body).toContain('Mark paid');
    const done = await admin.post(`/console/statements/${closedId}/paid`, {
      paidOn: '2026-03-11',
      reference: 'PIX 42',
    });
    expect(done.statusCode, done.body).toBe(303);
    expect(done.headers.location).toBe(`/console/statements/${closedId}?done=paid`);
    const api = await t.app.inject({ url: `/admin/v1/statements/${closedId}`, headers: adminHeaders });
    // The day chosen, from its start in Sao Paulo.
    expect(api.json()).toMatchObject({ state: 'PAID', paidAt: '2026-03-11T03:00:00.000Z', paidReference: 'PIX 42' });
    const again = await admin.get(`/console/statements/${closedId}`);
    expect(again.body).not.toContain('Mark paid');
    const twice = await admin.post(`/console/statements/${closedId}/paid`, {
      paidOn: '2026-03-11',
      reference: 'PIX 42',
    });
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('Only a closed statement can be marked paid');
    const audit = await t.app.inject({ url: '/admin/v1/audit?action=statement.paid', headers: adminHeaders });
    expect(
      audit.json().map((e: { channel: string; result: { status: number } }) => [e.channel, e.result.status]),
    ).toEqual(
      expect.arrayContaining([
        ['console', 303],
        ['console', 409],
      ]),
    );
  });

  it('answers a statement that does not exist with the console’s 404 page', async () => {
    const s = await login(t.app);
    const missing = await s.get('/console/statements/00000000-0000-4000-8000-000000000000');
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('This statement does not exist.');
  });
});
