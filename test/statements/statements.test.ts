// D45 through HTTP, on both databases: the merchant's settlement settings; an order counted in
// its merchant's statement when it concludes (ORDER, COMMISSION, COLLECTED_BY_MERCHANT), never
// when cancelled; the closing at the period's end with its feed item; a closed statement that
// the database itself refuses to change; mark paid (409 unless CLOSED) and adjustments (into the
// open statement once this one closed); the POS's and the operator's reads in JSON and CSV.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { expectError } from '../support/expect-error.js';
import { confirmBody } from '../support/order-session.js';
import { createOrder, createProduct } from '../support/orders.js';
import {
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';

// A Wednesday, 09:00 in Sao Paulo (12:00 UTC): its week started Monday 2026-03-02 00:00 -03:00.
const clock = manualClock(new Date('2026-03-04T12:00:00Z'));
const WEEK_START = '2026-03-02T03:00:00.000Z';
const WEEK_END = '2026-03-09T03:00:00.000Z';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object, headers: object = {}) =>
  t.app.inject({ method, url, headers: { ...adminHeaders, ...headers }, ...(payload ? { payload } : {}) });

async function pos(me: MerchantCredentials, action: string, orderId: string, payload?: object) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/orders/${orderId}/${action}`,
    headers: bearer(me.token),
    ...(payload ? { payload } : {}),
  });
  expect(res.statusCode, res.body).toBe(202);
}

async function platformEvent(orderId: string, payload: object) {
  const res = await admin('POST', `/admin/v1/orders/${orderId}/events`, payload);
  expect(res.statusCode, res.body).toBe(202);
}

/** 1 kg picanha (89.90) + delivery fee 7.90 = 97.80, `pending` of it paid on delivery. */
async function placeOrder(me: MerchantCredentials, pending: number) {
  const product = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  const prepaid = Math.round((97.8 - pending) * 100) / 100;
  return createOrder(t.app, me.merchantId, {
    type: 'DELIVERY',
    items: [{ productId: product.id, quantity: 1 }],
    otherFees: [{ name: 'Taxa de entrega', type: 'DELIVERY_FEE', price: 7.9 }],
    payments: {
      methods: [
        ...(prepaid > 0 ? [{ value: prepaid, type: 'PREPAID', method: 'CREDIT' }] : []),
        ...(pending > 0 ? [{ value: pending, type: 'PENDING', method: 'CASH' }] : []),
      ],
    },
  });
}

async function concludedOrder(me: MerchantCredentials, pending: number, weighTo?: number) {
  const order = await placeOrder(me, pending);
  await pos(me, 'confirm', order.id, confirmBody);
  if (weighTo !== undefined) await pos(me, 'weighing', order.id, { items: [{ index: 0, quantity: weighTo }] });
  await platformEvent(order.id, { eventType: 'CONCLUDED' });
  return order.id;
}

async function statementsOf(me: MerchantCredentials) {
  const res = await t.app.inject({ method: 'GET', url: '/v1/financial/statements', headers: bearer(me.token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Array<{ id: string; state: string; totals: Record<string, number>; periodStart: string }>;
}

describe('settlement settings (D45)', () => {
  it('default to 12 % weekly, are set by PATCH and shown by GET', async () => {
    const me = await createMerchant(t.app);
    const before = await admin('GET', `/admin/v1/merchants/${me.merchantId}`);
    expect(before.json()).toMatchObject({ commissionPercent: 12, settlementCycle: 'WEEKLY' });
    const patched = await admin('PATCH', `/admin/v1/merchants/${me.merchantId}`, {
      commissionPercent: 9.75,
      settlementCycle: 'DAILY',
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({
      commissionPercent: 9.75,
      settlementCycle: 'DAILY',
      name: 'Açougue Boi Bravo',
    });
    const renamed = await admin('PATCH', `/admin/v1/merchants/${me.merchantId}`, { name: 'Casa de Carnes' });
    expect(renamed.json()).toMatchObject({ commissionPercent: 9.75, settlementCycle: 'DAILY' });
    expect((await admin('GET', `/admin/v1/merchants/${me.merchantId}`)).json()).toMatchObject({
      commissionPercent: 9.75,
      settlementCycle: 'DAILY',
    });
  });

  it('refuses a commission outside 0–100 or with more than 2 decimals, or another cycle, changing nothing', async () => {
    const me = await createMerchant(t.app, 'Açougue Intacto');
    const url = `/admin/v1/merchants/${me.merchantId}`;
    expectError(
      await admin('PATCH', url, { name: 'Outro', commissionPercent: 12.345 }),
      400,
      'commissionPercent has more than 2 decimal places',
    );
    expectError(await admin('PATCH', url, { commissionPercent: 101 }), 400, 'commissionPercent must be <= 100');
    expectError(
      await admin('PATCH', url, { settlementCycle: 'MONTHLY' }),
      400,
      'settlementCycle must be one of DAILY, WEEKLY',
    );
    expect((await admin('GET', url)).json()).toMatchObject({
      name: 'Açougue Intacto',
      commissionPercent: 12,
      settlementCycle: 'WEEKLY',
    });
  });
});

describe('an order counted when it concludes (D45)', () => {
  it('writes ORDER, COMMISSION and COLLECTED_BY_MERCHANT once, with the weighed price; a cancelled order is never counted', async () => {
    const me = await createMerchant(t.app, 'Açougue Contado');
    // Weighed to 1.1 kg: 98.89 + 7.90 = 106.79, paid on delivery in full (the PENDING method follows).
    const weighed = await concludedOrder(me, 97.8, 1.1);
    const prepaid = await concludedOrder(me, 0);
    const cancelled = await placeOrder(me, 0);
    await pos(me, 'confirm', cancelled.id, confirmBody);
    await platformEvent(cancelled.id, { eventType: 'CANCELLED', reason: 'Sem estoque', code: 'OUT_OF_STOCK' });

    const [statement] = await statementsOf(me);
    expect(statement).toMatchObject({
      merchantId: me.merchantId,
      periodStart: WEEK_START,
      periodEnd: WEEK_END,
      state: 'OPEN',
      currency: 'BRL',
      // 106.79 + 97.80; commission 12.81 + 11.74 (half up); collected 106.79
      totals: {
        gross: 204.59,
        weighingAdjustments: 0,
        cancellations: 0,
        commission: 24.55,
        collectedByMerchant: 106.79,
        adjustments: 0,
        net: 73.25,
      },
    });
    const lines = await t.app.inject({
      method: 'GET',
      url: `/v1/financial/statements/${statement.id}/lines`,
      headers: bearer(me.token),
    });
    expect(lines.statusCode).toBe(200);
    const byOrder = (orderId: string) =>
      (lines.json().lines as Array<{ kind: string; value: number; netEffect: number; orderId: string }>)
        .filter((l) => l.orderId === orderId)
        .map((l) => [l.kind, l.value, l.netEffect]);
    expect(byOrder(weighed)).toEqual([
      ['ORDER', 106.79, 106.79],
      ['COMMISSION', 12.81, -12.81],
      ['COLLECTED_BY_MERCHANT', 106.79, -106.79],
    ]);
    expect(byOrder(prepaid)).toEqual([
      ['ORDER', 97.8, 97.8],
      ['COMMISSION', 11.74, -11.74],
    ]);
    expect(byOrder(cancelled.id)).toEqual([]);
  });

  it('answers another merchant’s statement as a missing one (404)', async () => {
    const me = await createMerchant(t.app, 'Açougue Dono');
    const other = await createMerchant(t.app, 'Açougue Vizinho');
    await concludedOrder(me, 0);
    const [statement] = await statementsOf(me);
    for (const url of [`/v1/financial/statements/${statement.id}`, `/v1/financial/statements/${statement.id}/lines`]) {
      expectError(await t.app.inject({ method: 'GET', url, headers: bearer(other.token) }), 404, 'Statement not found');
    }
  });
});

describe('closing, paying and adjusting (D45)', () => {
  it('closes at the period’s end once, with the feed item; the closed statement never changes', async () => {
    const me = await createMerchant(t.app, 'Açougue Fechado');
    await admin('PATCH', `/admin/v1/merchants/${me.merchantId}`, { settlementCycle: 'DAILY', commissionPercent: 10 });
    await concludedOrder(me, 40);
    const [open] = await statementsOf(me);
    expect(open.state).toBe('OPEN');

    // Two closers at once, after the day ended (2026-03-05 03:00 UTC): one closes it.
    clock.set(new Date('2026-03-05T03:00:00Z'));
    const counts = await Promise.all([t.services.statements.closeDue(), t.services.statements.closeDue()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    const closed = await admin('GET', `/admin/v1/statements/${open.id}`);
    expect(closed.json()).toMatchObject({
      state: 'CLOSED',
      totals: { gross: 97.8, commission: 9.78, collectedByMerchant: 40, net: 48.02 },
    });
    const feed = await admin('GET', `/admin/v1/feed?kinds=settlement&merchantId=${me.merchantId}`);
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.json().items).toEqual([
      expect.objectContaining({
        kind: 'settlement',
        type: 'STATEMENT_CLOSED',
        merchantId: me.merchantId,
        data: { statementId: open.id, totals: closed.json().totals },
      }),
    ]);

    // The database refuses any change to it, whoever writes.
    await expect(
      t.database.db.query(`UPDATE statements SET totals = '{}'::jsonb WHERE id = $1`, [open.id]),
    ).rejects.toThrow(/never changes/);
    await expect(
      t.database.db.query(`UPDATE statement_lines SET value = 0 WHERE statement_id = $1`, [open.id]),
    ).rejects.toThrow(/append-only/);
    await expect(
      t.database.db.query(
        `INSERT INTO statement_lines (id, statement_id, kind, value, occurred_at)
         VALUES (gen_random_uuid(), $1, 'ADJUSTMENT', 1, now())`,
        [open.id],
      ),
    ).rejects.toThrow(/closed/);

    // An adjustment to it goes into the merchant's open statement (the next day's).
    const adjusted = await admin('POST', `/admin/v1/statements/${open.id}/adjustments`, {
      value: -5.5,
      reason: 'Embalagem danificada',
    });
    expect(adjusted.statusCode, adjusted.body).toBe(201);
    expect(adjusted.json()).toMatchObject({
      kind: 'ADJUSTMENT',
      value: -5.5,
      netEffect: -5.5,
      reason: 'Embalagem danificada',
    });
    expect(adjusted.json().statementId).not.toBe(open.id);
    const next = await admin('GET', `/admin/v1/statements/${adjusted.json().statementId}`);
    expect(next.json()).toMatchObject({
      state: 'OPEN',
      periodStart: '2026-03-05T03:00:00.000Z',
      periodEnd: '2026-03-06T03:00:00.000Z',
      totals: { adjustments: -5.5, net: -5.5 },
    });
    expect((await admin('GET', `/admin/v1/statements/${open.id}`)).json()).toEqual(closed.json());

    // PAID: 409 while OPEN, then once for the CLOSED one, then 409 again.
    const paid = { paidAt: '2026-03-06T15:00:00Z', reference: 'PIX E2E-123' };
    expectError(
      await admin('POST', `/admin/v1/statements/${next.json().id}/paid`, paid),
      409,
      'Statement is OPEN: only a CLOSED statement is marked PAID',
    );
    const marked = await admin('POST', `/admin/v1/statements/${open.id}/paid`, paid);
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({
      state: 'PAID',
      paidAt: '2026-03-06T15:00:00.000Z',
      paidReference: 'PIX E2E-123',
      totals: closed.json().totals,
    });
    expectError(
      await admin('POST', `/admin/v1/statements/${open.id}/paid`, paid),
      409,
      'Statement is PAID: only a CLOSED statement is marked PAID',
    );
    expectError(
      await admin('POST', '/admin/v1/statements/00000000-0000-4000-8000-000000000000/paid', paid),
      404,
      'Statement not found',
    );
    expectError(
      await admin('POST', `/admin/v1/statements/${open.id}/adjustments`, { value: 1.234, reason: 'x' }),
      400,
      'value has more than 2 decimal places',
    );
    const audit = await admin('GET', '/admin/v1/audit?action=statement.paid');
    expect(audit.json()).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'statement.paid', result: expect.objectContaining({ outcome: 'success' }) }),
      ]),
    );
  });

  it('lists a statement’s lines in the order they were written, across 9 → 10 and 99 → 100 lines', async () => {
    const me = await createMerchant(t.app, 'Açougue de Muitas Linhas');
    await concludedOrder(me, 0);
    const [open] = await statementsOf(me);
    // The lines' numbers are a sequence shared by every statement: 120 adjustments take this
    // statement's numbers past a digit boundary whatever the other tests wrote before.
    for (let n = 1; n <= 120; n++) {
      const res = await admin('POST', `/admin/v1/statements/${open.id}/adjustments`, {
        value: n / 100,
        reason: `a${n}`,
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    const listed = await admin('GET', `/admin/v1/statements/${open.id}/lines`);
    expect(listed.statusCode, listed.body).toBe(200);
    const lines = (listed.json() as { lines: Array<{ kind: string; reason: string | null }> }).lines;
    expect(lines.slice(0, 2).map((l) => l.kind)).toEqual(['ORDER', 'COMMISSION']);
    expect(lines.filter((l) => l.kind === 'ADJUSTMENT').map((l) => l.reason)).toEqual(
      Array.from({ length: 120 }, (_, i) => `a${i + 1}`),
    );
  });

  it('lists every merchant’s statements paged and filtered, and answers CSV for Accept: text/csv', async () => {
    clock.set(new Date('2026-03-10T12:00:00Z'));
    const me = await createMerchant(t.app, 'Açougue, "Planilha"');
    await concludedOrder(me, 97.8);
    const list = await admin('GET', `/admin/v1/statements?merchantId=${me.merchantId}&state=OPEN&limit=1`);
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json()).toHaveLength(1);
    const [statement] = list.json() as Array<{ id: string }>;

    const csv = await admin('GET', `/admin/v1/statements/${statement.id}/lines`, undefined, { accept: 'text/csv' });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const rows = csv.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('id,statementId,kind,value,netEffect,orderId,reason,occurredAt');
    expect(rows.slice(1).map((r) => r.split(',').slice(2, 5))).toEqual([
      ['ORDER', '97.80', '97.80'],
      ['COMMISSION', '11.74', '-11.74'],
      ['COLLECTED_BY_MERCHANT', '97.80', '-97.80'],
    ]);
    const one = await t.app.inject({
      method: 'GET',
      url: `/v1/financial/statements/${statement.id}`,
      headers: { ...bearer(me.token), accept: 'text/csv' },
    });
    expect(one.statusCode).toBe(200);
    expect(one.body.split('\r\n')[0]).toBe(
      'id,merchantId,periodStart,periodEnd,state,gross,weighingAdjustments,cancellations,commission,' +
        'collectedByMerchant,adjustments,net,currency,closedAt,paidAt,paidReference',
    );
    expect(one.body.split('\r\n')[1]).toContain(',OPEN,97.80,0.00,0.00,11.74,97.80,0.00,-11.74,BRL,,,');
    expectError(await admin('GET', '/admin/v1/statements?cursor=bad'), 400, 'cursor is not valid');
  });
});
