import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createSimpleOrder } from '../support/orders.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type TestApp,
} from '../support/test-app.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ clock });
});
afterAll(() => t.close());

type Polled = { eventId: string; eventType: string; orderId: string };

async function poll(token: string, query = '', headers: Record<string, string> = {}) {
  const res = await t.app.inject({
    method: 'GET',
    url: `/v1/events:polling${query}`,
    headers: { ...bearer(token), ...headers },
  });
  return res;
}
async function events(token: string, query = ''): Promise<Polled[]> {
  const res = await poll(token, query);
  if (res.statusCode === 204) {
    expect(res.body).toBe('');
    return [];
  }
  expect(res.statusCode).toBe(200);
  return res.json();
}
const ack = (token: string, body: unknown) =>
  t.app.inject({ method: 'POST', url: '/v1/events/acknowledgment', headers: bearer(token), payload: body as object });
const el = (e: Polled) => ({ id: e.eventId, orderId: e.orderId, eventType: e.eventType });

function expectError(res: { statusCode: number; json(): unknown }, status: number, title: string) {
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}

describe('polling (D3)', () => {
  it('eventId identifies the type: the same for every order (D1)', async () => {
    const me = await createMerchant(t.app, 'Açougue Ids');
    const a = await createSimpleOrder(t.app, me.merchantId);
    clock.advance(1000);
    const b = await createSimpleOrder(t.app, me.merchantId);
    const polled = await events(me.token);
    expect(polled.map((e) => e.orderId)).toEqual([a.id, b.id]);
    expect(polled[0].eventId).toBe(polled[1].eventId);
    expect(polled[0].eventId).toBe(eventIdOf('CREATED'));
  });

  it('filters by eventType (repeatable) without acknowledging the others', async () => {
    const me = await createMerchant(t.app, 'Açougue Filtro');
    const order = await createSimpleOrder(t.app, me.merchantId);
    await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'X' },
    });
    expect((await events(me.token, '?eventType=CONFIRMED')).map((e) => e.eventType)).toEqual(['CONFIRMED']);
    expect((await events(me.token, '?eventType=CONFIRMED&eventType=CREATED')).map((e) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
    ]);
    expect(await events(me.token, '?eventType=DELIVERED')).toEqual([]);
    expect((await events(me.token)).map((e) => e.eventType)).toEqual(['CREATED', 'CONFIRMED']);
    const bad = await poll(me.token, '?eventType=NOPE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().title).toMatch(/^eventType/);
  });

  it('x-polling-merchants may name only the token merchant', async () => {
    const me = await createMerchant(t.app, 'Açougue Header');
    await createSimpleOrder(t.app, me.merchantId);
    expect((await poll(me.token, '', { 'x-polling-merchants': me.merchantId })).statusCode).toBe(200);
    expectError(
      await poll(me.token, '', { 'x-polling-merchants': `${me.merchantId},${crypto.randomUUID()}` }),
      403,
      'x-polling-merchants may name only the merchant of the access token',
    );
  });

  it('reads only the calling merchant’s events', async () => {
    const me = await createMerchant(t.app, 'Açougue Eu');
    const other = await createMerchant(t.app, 'Açougue Outro');
    await createSimpleOrder(t.app, other.merchantId);
    expect(await events(me.token)).toEqual([]);
  });
});

describe('acknowledgment (spec 4.13, D4)', () => {
  it('is per integration key: two keys see the event, one acknowledges, the other still sees it', async () => {
    const me = await createMerchant(t.app, 'Açougue Duas Chaves');
    const second = await addIntegrationKey(t.app, me.merchantId);
    await createSimpleOrder(t.app, me.merchantId);
    const mine = await events(me.token);
    const theirs = await events(second.token);
    expect(theirs).toEqual(mine);
    expect((await ack(me.token, mine.map(el))).statusCode).toBe(202);
    expect(await events(me.token)).toEqual([]);
    expect(await events(second.token)).toEqual(theirs);
    // Re-sending is harmless.
    expect((await ack(me.token, mine.map(el))).statusCode).toBe(202);
    expect(await events(me.token)).toEqual([]);
    expect(await events(second.token)).toEqual(theirs);
  });

  it('processes elements in order, not atomically: a failing middle element keeps earlier ones', async () => {
    const me = await createMerchant(t.app, 'Açougue Lote');
    const a = await createSimpleOrder(t.app, me.merchantId);
    clock.advance(1000);
    const b = await createSimpleOrder(t.app, me.merchantId);
    const created = eventIdOf('CREATED');
    const batch = [
      { id: created, orderId: a.id, eventType: 'CREATED' },
      { id: created, orderId: crypto.randomUUID(), eventType: 'CREATED' },
      { id: created, orderId: b.id, eventType: 'CREATED' },
    ];
    expectError(await ack(me.token, batch), 400, 'orderId');
    expect((await events(me.token)).map((e) => e.orderId)).toEqual([b.id]);
    // Re-sending the whole batch: still stops at the bad element, changes nothing more.
    expectError(await ack(me.token, batch), 400, 'orderId');
    expect((await events(me.token)).map((e) => e.orderId)).toEqual([b.id]);
    expect((await ack(me.token, [batch[0], batch[2]])).statusCode).toBe(202);
    expect(await events(me.token)).toEqual([]);
  });

  it('unknown event id → 400 {title: "id"}; another merchant’s order → 404; more than 100 → 400; wrong type → 400 (D32)', async () => {
    const me = await createMerchant(t.app, 'Açougue Erros Ack');
    const other = await createMerchant(t.app, 'Açougue Alheio');
    const mine = await createSimpleOrder(t.app, me.merchantId);
    const foreign = await createSimpleOrder(t.app, other.merchantId);
    expectError(await ack(me.token, [{ id: crypto.randomUUID(), orderId: mine.id, eventType: 'CREATED' }]), 400, 'id');
    expectError(
      await ack(me.token, [{ id: eventIdOf('CREATED'), orderId: foreign.id, eventType: 'CREATED' }]),
      404,
      'Order not found',
    );
    const many = Array.from({ length: 101 }, () => ({
      id: eventIdOf('CREATED'),
      orderId: mine.id,
      eventType: 'CREATED',
    }));
    expectError(await ack(me.token, many), 400, 'body must NOT have more than 100 items');
    const badType = await ack(me.token, [{ id: eventIdOf('CREATED'), orderId: mine.id, eventType: 'NOPE' }]);
    expect(badType.statusCode).toBe(400);
    expect(badType.json().title).toMatch(/^\[0\]\.eventType must be one of/);
    // D32: an id naming another type than eventType is refused, naming eventType (it used to be
    // accepted while acknowledging nothing, and the event came back forever).
    expectError(
      await ack(me.token, [{ id: eventIdOf('CONFIRMED'), orderId: mine.id, eventType: 'CREATED' }]),
      400,
      'eventType',
    );
    // A type the order does not have: accepted, nothing changes (D4).
    expect(
      (await ack(me.token, [{ id: eventIdOf('DELIVERED'), orderId: mine.id, eventType: 'DELIVERED' }])).statusCode,
    ).toBe(202);
    expect((await events(me.token)).map((e) => e.orderId)).toEqual([mine.id]);
    // The other merchant still sees its own event.
    expect((await events(other.token)).map((e) => e.orderId)).toEqual([foreign.id]);
  });

  it('a deleted integration key gets no new receipts; a new key gets events from then on', async () => {
    const me = await createMerchant(t.app, 'Açougue Chaves');
    await createSimpleOrder(t.app, me.merchantId);
    const later = await addIntegrationKey(t.app, me.merchantId);
    expect(await events(later.token)).toEqual([]);
    const order = await createSimpleOrder(t.app, me.merchantId);
    expect((await events(later.token)).map((e) => e.orderId)).toEqual([order.id]);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${me.merchantId}/integrationKeys/${later.keyId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    await createSimpleOrder(t.app, me.merchantId);
    const { rows } = await t.database.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM event_receipts WHERE key_id = $1',
      [later.keyId],
    );
    expect(rows[0].n).toBe(1);
  });
});

describe('read-route rate limit (D23)', () => {
  it('the read after the limit gets 429 with Retry-After and RateLimit headers; writes are not counted', async () => {
    const limited = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_READ: '3' } });
    try {
      const me = await createMerchant(limited.app, 'Açougue Limite');
      const order = await createSimpleOrder(limited.app, me.merchantId);
      const get = () => limited.app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: bearer(me.token) });
      expect((await get()).statusCode).toBe(200);
      // Polling shares the read budget (D23).
      expect(
        (await limited.app.inject({ method: 'GET', url: '/v1/events:polling', headers: bearer(me.token) })).statusCode,
      ).toBe(200);
      const third = await get();
      expect(third.statusCode).toBe(200);
      expect(third.headers.ratelimit).toMatch(/^"read";r=0;t=\d+$/);
      const over = await get();
      expectError(over, 429, 'Too Many Requests');
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.headers['ratelimit-policy']).toBe('"read";q=3;w=60');
      // Another key of the same merchant has its own budget.
      const other = await addIntegrationKey(limited.app, me.merchantId);
      expect(
        (await limited.app.inject({ method: 'GET', url: `/v1/orders/${order.id}`, headers: bearer(other.token) }))
          .statusCode,
      ).toBe(200);
      // Write routes use the write group.
      const confirm = await limited.app.inject({
        method: 'POST',
        url: `/v1/orders/${order.id}/confirm`,
        headers: bearer(me.token),
        payload: { createdAt: '2026-03-02T15:00:00Z', orderExternalCode: 'X' },
      });
      expect(confirm.statusCode).toBe(202);
    } finally {
      await limited.close();
    }
  });
});
