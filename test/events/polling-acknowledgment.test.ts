import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { eventIdOf } from '../../src/modules/events/index.js';
import { connectPos, createKey } from '../opendelivery/od-support.js';
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

  it('processes every element, in order, not atomically: a failing middle element stops nothing (D39)', async () => {
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
    // D39 (amends D4, which stopped at the bad element): the answer is the failure, and the
    // element after it is acknowledged all the same.
    expectError(await ack(me.token, batch), 400, 'orderId');
    expect(await events(me.token)).toEqual([]);
    // Re-sending the whole batch: the same answer, nothing more changes (rule 3).
    expectError(await ack(me.token, batch), 400, 'orderId');
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

describe('one bad element never blocks the others; a poll fits one acknowledgment (D39)', () => {
  // D39, the first case of its Why: a client acknowledged its whole poll with a denied cancellation sent as
  // CREATED first; the 400 stopped the batch there, so every later event (a new order's CREATED
  // too) came back on every poll.
  it('a refused element leaves every later element acknowledged; the answer is the first refusal', async () => {
    const me = await createMerchant(t.app, 'Açougue Lote Inteiro');
    const other = await createMerchant(t.app, 'Açougue Lote Alheio');
    const denied = await createSimpleOrder(t.app, me.merchantId);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/orders/${denied.id}/customerCancellation`,
      headers: adminHeaders,
      payload: {},
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const deny = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${denied.id}/denyCancellation`,
      headers: bearer(me.token),
      payload: { reason: 'Já saiu', code: 'SYSTEMIC_ISSUES' },
    });
    expect(deny.statusCode, deny.body).toBe(204);
    clock.advance(1000);
    const later = await createSimpleOrder(t.app, me.merchantId);
    const polled = await events(me.token);
    expect(polled.map((e) => e.eventType)).toEqual([
      'CREATED',
      'ORDER_CANCELLATION_REQUEST',
      'CANCELLED_DENIED',
      'CREATED',
    ]);
    // The types a client does not know, sent as CREATED: under a cleaver key the type's id names
    // another type, which is refused naming eventType — and the new order after it is acknowledged.
    const mapped = polled.map((e) => ({
      ...el(e),
      eventType: e.eventType === 'CANCELLED_DENIED' ? 'CREATED' : e.eventType,
    }));
    expectError(await ack(me.token, mapped), 400, 'eventType');
    expect((await events(me.token)).map((e) => [e.orderId, e.eventType])).toEqual([[denied.id, 'CANCELLED_DENIED']]);
    expect((await events(me.token)).some((e) => e.orderId === later.id)).toBe(false);

    // The first failure is the answer, whatever comes after; every valid element is acknowledged.
    const third = await createSimpleOrder(t.app, me.merchantId);
    const foreign = await createSimpleOrder(t.app, other.merchantId);
    const created = eventIdOf('CREATED');
    expectError(
      await ack(me.token, [
        mapped[2],
        { id: created, orderId: foreign.id, eventType: 'CREATED' },
        { id: created, orderId: third.id, eventType: 'CREATED' },
      ]),
      400,
      'eventType',
    );
    expect((await events(me.token)).map((e) => e.eventType)).toEqual(['CANCELLED_DENIED']);
    // Another merchant's order first: 404 Order not found, answered after the rest was processed.
    expectError(
      await ack(me.token, [
        { id: created, orderId: foreign.id, eventType: 'CREATED' },
        { id: crypto.randomUUID(), orderId: denied.id, eventType: 'CREATED' },
        el(polled[2]),
      ]),
      404,
      'Order not found',
    );
    expect(await events(me.token)).toEqual([]);
    // Nothing of the other merchant was touched.
    expect((await events(other.token)).map((e) => e.orderId)).toEqual([foreign.id]);
  });

  // D39, the second case of its Why: a poll returned up to 1000 records and an acknowledgment takes 100; a client
  // that acknowledges what it polled in one request was refused whole, for good.
  it('a backlog over 100: each poll answers the oldest 100, and acknowledging a whole poll always fits', async () => {
    const me = await createMerchant(t.app, 'Açougue Fila Longa');
    const orders: string[] = [];
    for (let i = 0; i < 110; i++) {
      orders.push((await createSimpleOrder(t.app, me.merchantId)).id);
      clock.advance(10);
    }
    const seen: string[] = [];
    for (let round = 0; round < 3; round++) {
      const polled = await events(me.token);
      if (polled.length === 0) break;
      expect(polled.length).toBeLessThanOrEqual(100);
      seen.push(...polled.map((e) => e.orderId));
      const res = await ack(me.token, polled.map(el));
      expect(res.statusCode, res.body).toBe(202);
    }
    // Oldest first, each once, none left.
    expect(seen).toEqual(orders);
    expect(await events(me.token)).toEqual([]);
  });
});

describe('a type mismatch forgiven to an opendelivery key (D39)', () => {
  it('is raised as an integration notice at most once a day per key, naming both types', async () => {
    const me = await createMerchant(t.app, 'Açougue Aviso Diário');
    const key = await createKey(t.app, me.merchantId, 'opendelivery');
    const mismatchOnce = async () => {
      const pos = await connectPos(t.app, key);
      const order = await createSimpleOrder(t.app, me.merchantId);
      const confirmed = await pos.post(`/v1/orders/${order.id}/confirm`, {
        createdAt: clock.now().toISOString(),
        orderExternalCode: 'PDV-7',
      });
      expect(confirmed.statusCode, confirmed.body).toBe(202);
      const polled = (await pos.get('/v1/events:polling')).json() as Polled[];
      // Everything read as CREATED: the CONFIRMED occurrence is acknowledged all the same.
      const res = await pos.post(
        '/v1/events/acknowledgment',
        polled.map((e) => ({ ...el(e), eventType: 'CREATED' })),
      );
      expect(res.statusCode, res.body).toBe(202);
      expect((await pos.get('/v1/events:polling')).statusCode).toBe(204);
    };
    const notices = async () => {
      const res = await t.app.inject({
        url: `/admin/v1/notices?merchantId=${me.merchantId}&kind=acknowledgment.type-mismatch`,
        headers: adminHeaders,
      });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as Array<{ at: string; detail: Record<string, unknown> }>).map((n) => n.detail);
    };
    const raised = { keyId: key.keyId, eventType: 'CONFIRMED', acknowledgedAs: 'CREATED' };
    await mismatchOnce();
    clock.advance(3_600_000);
    await mismatchOnce();
    expect(await notices()).toEqual([expect.objectContaining(raised)]);
    // A day after the first: raised again.
    clock.advance(23 * 3_600_000 + 1000);
    await mismatchOnce();
    expect(await notices()).toEqual([expect.objectContaining(raised), expect.objectContaining(raised)]);
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
