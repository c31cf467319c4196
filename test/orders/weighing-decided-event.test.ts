// The opt-in WEIGHING_DECIDED event (D42): a key asks for it with the integration setting
// `extraEventTypes` (PATCH …/integrationKeys/{keyId}); when a weighing that waited for the
// customer is decided, by the platform or at its deadline, the keys that asked get it by polling
// and by their webhook, in the decision's transaction; no other key ever gets it, in either
// profile, and a key that did not ask cannot filter on it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../src/lib/clock.js';
import { createOperator, type TestOperator } from '../operators-access/support.js';
import { merchantBody, merchantRecord, productByPdv, sync } from '../support/catalog.js';
import {
  addIntegrationKey,
  adminHeaders,
  bearer,
  createMerchant,
  createTestApp,
  type MerchantCredentials,
  type TestApp,
} from '../support/test-app.js';
import { deliveries, onboard } from '../support/webhook-kit.js';

const clock = manualClock(new Date('2026-03-02T15:00:00Z'));
let t: TestApp;
let base: string;
let platform: TestOperator;

beforeAll(async () => {
  t = await createTestApp({ clock, env: { CLEAVER_RATE_LIMIT_READ: '1000000', CLEAVER_RATE_LIMIT_WRITE: '1000000' } });
  platform = await createOperator(t.app, 'platform');
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: answers of several shapes, checked by the assertions
type Json = Record<string, any>;
async function call(method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as Json };
}
const admin = (method: string, path: string, body?: unknown) => call(method, `/admin/v1${path}`, adminHeaders, body);
const patchKey = (merchantId: string, keyId: string, body: unknown) =>
  admin('PATCH', `/merchants/${merchantId}/integrationKeys/${keyId}`, body);

/** Every pending event of a key, by polling. */
async function polled(token: string, query = ''): Promise<Json[]> {
  const res = await call('GET', `/v1/events:polling${query}`, bearer(token));
  if (res.status === 204) return [];
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as unknown as Json[];
}
const decidedOf = async (token: string) => (await polled(token)).filter((e) => e.eventType === 'WEIGHING_DECIDED');

interface Shop {
  me: MerchantCredentials;
  productId: string;
  /** Opted in, cleaver profile (the merchant's first key). */
  asked: MerchantCredentials;
  /** Not opted in, cleaver profile. */
  other: { keyId: string; token: string };
  /** Opted in, opendelivery profile. */
  odAsked: { keyId: string; token: string };
  /** Not opted in, opendelivery profile. */
  odOther: { keyId: string; token: string };
}

async function shop(): Promise<Shop> {
  const me = await createMerchant(t.app, 'Açougue do Aviso');
  const status = await sync(
    t,
    me,
    merchantBody({
      categories: [{ id: 'C1', name: 'Bovinos', itemOfferId: ['O-PICANHA'] }],
      itemOffers: [{ id: 'O-PICANHA', itemId: 'PICANHA', price: { value: 80 } }],
      items: [{ id: 'PICANHA', name: 'Picanha', unit: 'KG' }],
    }),
  );
  expect(status.status, status.moreInfo ?? '').toBe('SUCCESS');
  const productId = productByPdv(await merchantRecord(t, me), 'PICANHA')?.id as string;
  const policy = await admin('PATCH', `/merchants/${me.merchantId}`, {
    weighingOutOfTolerance: 'ASK',
    weighingApprovalSeconds: 60,
  });
  expect(policy.status, JSON.stringify(policy.body)).toBe(200);
  const other = await addIntegrationKey(t.app, me.merchantId);
  const odAsked = await addIntegrationKey(t.app, me.merchantId);
  const odOther = await addIntegrationKey(t.app, me.merchantId);
  for (const key of [odAsked, odOther]) {
    expect((await patchKey(me.merchantId, key.keyId, { profile: 'opendelivery' })).status).toBe(200);
  }
  const opted = await patchKey(me.merchantId, me.keyId, { extraEventTypes: ['WEIGHING_DECIDED'] });
  expect(opted.status, JSON.stringify(opted.body)).toBe(200);
  expect(opted.body).toMatchObject({ keyId: me.keyId, profile: 'cleaver', extraEventTypes: ['WEIGHING_DECIDED'] });
  // Both settings in one request: the answer shows both.
  const both = await patchKey(me.merchantId, odAsked.keyId, {
    profile: 'opendelivery',
    extraEventTypes: ['WEIGHING_DECIDED'],
  });
  expect(both.body).toMatchObject({ profile: 'opendelivery', extraEventTypes: ['WEIGHING_DECIDED'] });
  return { me, productId, asked: me, other, odAsked, odOther };
}

/** A confirmed order of 1 kg, weighed at 1.5 kg (out of tolerance): it waits for the customer. */
async function waitingWeighing(s: Shop): Promise<{ orderId: string; weighingId: string }> {
  const created = await admin('POST', `/merchants/${s.me.merchantId}/orders`, {
    type: 'DELIVERY',
    items: [{ productId: s.productId, quantity: 1 }],
    payments: { methods: [{ value: 87.9, type: 'PENDING', method: 'CASH' }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const orderId = created.body.id as string;
  const confirmed = await call('POST', `/v1/orders/${orderId}/confirm`, bearer(s.me.token), {
    createdAt: created.body.createdAt,
    orderExternalCode: 'AVISO-1',
  });
  expect(confirmed.status).toBe(202);
  const asked = await call('POST', `/v1/orders/${orderId}/weighing`, bearer(s.me.token), {
    items: [{ index: 0, quantity: 1.5 }],
  });
  expect(asked.body).toMatchObject({ state: 'PENDING_APPROVAL' });
  return { orderId, weighingId: asked.body.weighingId as string };
}

describe('the integration setting extraEventTypes (D42)', () => {
  it('is none by default, is listed with the key, and refuses what it does not know with a 400 naming it', async () => {
    const me = await createMerchant(t.app, 'Açougue das Opções');
    const detail = await admin('GET', `/merchants/${me.merchantId}`);
    expect(detail.body.integrationKeys).toEqual([expect.objectContaining({ keyId: me.keyId, extraEventTypes: [] })]);
    expect(await patchKey(me.merchantId, me.keyId, { extraEventTypes: ['WEIGHED'] })).toEqual({
      status: 400,
      body: { title: 'extraEventTypes[0] must be one of WEIGHING_DECIDED', status: 400 },
    });
    expect(await patchKey(me.merchantId, me.keyId, {})).toEqual({
      status: 400,
      body: { title: 'body must name profile or extraEventTypes', status: 400 },
    });
    expect(
      await patchKey(me.merchantId, '00000000-0000-4000-8000-000000000000', { extraEventTypes: ['WEIGHING_DECIDED'] }),
    ).toEqual({ status: 404, body: { title: 'Integration key not found', status: 404 } });
    // Nothing was half-written.
    expect((await admin('GET', `/merchants/${me.merchantId}`)).body.integrationKeys[0].extraEventTypes).toEqual([]);
  });
});

describe('WEIGHING_DECIDED (D42)', () => {
  it('the platform decides: the keys that opted in poll it in their dialect; the others never do', async () => {
    const s = await shop();
    const { orderId, weighingId } = await waitingWeighing(s);
    const decided = await call(
      'POST',
      `/admin/v1/orders/${orderId}/weighings/${weighingId}/decision`,
      platform.headers,
      {
        decision: 'ACCEPT',
      },
    );
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);

    const cleaver = await decidedOf(s.asked.token);
    expect(cleaver).toEqual([
      expect.objectContaining({
        eventType: 'WEIGHING_DECIDED',
        orderId,
        metadata: { weighingId, decision: 'ACCEPT', by: 'platform' },
      }),
    ]);
    const od = await decidedOf(s.odAsked.token);
    expect(od).toEqual([
      expect.objectContaining({ orderId, metadata: { weighingId, decision: 'ACCEPT', by: 'platform' } }),
    ]);
    // The opendelivery key's eventId names the occurrence (D28), not the type.
    expect(od[0]?.eventId).not.toBe(cleaver[0]?.eventId);
    // Never sent to the others, in either profile: they still get the order's other events.
    for (const key of [s.other, s.odOther]) {
      const events = await polled(key.token);
      expect(events.map((e) => e.eventType)).toEqual(['CREATED', 'CONFIRMED']);
    }
    // The platform feed has one WEIGHING_DECIDED item, not one more for the opt-in event.
    const feed = await admin('GET', '/feed?kinds=order&limit=1000');
    expect(
      (feed.body.items as Json[]).filter((i) => i.orderId === orderId && i.type === 'WEIGHING_DECIDED'),
    ).toHaveLength(1);
  });

  it('filtering on it: the key that opted in gets it alone; a key that did not is told so (400 naming eventType)', async () => {
    const s = await shop();
    const { orderId, weighingId } = await waitingWeighing(s);
    await call('POST', `/admin/v1/orders/${orderId}/weighings/${weighingId}/decision`, platform.headers, {
      decision: 'REJECT',
    });
    expect((await polled(s.asked.token, '?eventType=WEIGHING_DECIDED')).map((e) => e.metadata)).toEqual([
      { weighingId, decision: 'REJECT', by: 'platform' },
    ]);
    const title = 'eventType WEIGHING_DECIDED is sent only to keys that opted in (integration setting extraEventTypes)';
    expect(await call('GET', '/v1/events:polling?eventType=CREATED,WEIGHING_DECIDED', bearer(s.other.token))).toEqual({
      status: 400,
      body: { title, status: 400 },
    });
    const od = await call('GET', '/v1/events:polling?eventType=WEIGHING_DECIDED', bearer(s.odOther.token));
    expect(od.status).toBe(400);
    expect(JSON.stringify(od.body)).toContain(title);
  });

  it('at the deadline: by deadline, to the keys that opted in only', async () => {
    const s = await shop();
    const { weighingId } = await waitingWeighing(s);
    clock.advance(60_000);
    expect(await t.services.orders.decideDueWeighings()).toBe(1);
    expect((await decidedOf(s.asked.token)).map((e) => e.metadata)).toEqual([
      { weighingId, decision: 'REJECT', by: 'deadline' },
    ]);
    expect((await decidedOf(s.odAsked.token)).map((e) => e.metadata)).toEqual([
      { weighingId, decision: 'REJECT', by: 'deadline' },
    ]);
    expect(await decidedOf(s.other.token)).toEqual([]);
    expect(await decidedOf(s.odOther.token)).toEqual([]);
  });

  it('a key that opts out before polling is not shown what was fanned out to it', async () => {
    const s = await shop();
    const { orderId, weighingId } = await waitingWeighing(s);
    await call('POST', `/admin/v1/orders/${orderId}/weighings/${weighingId}/decision`, platform.headers, {
      decision: 'ACCEPT',
    });
    const out = await patchKey(s.me.merchantId, s.asked.keyId, { extraEventTypes: [] });
    expect(out.body).toMatchObject({ extraEventTypes: [] });
    expect(await decidedOf(s.asked.token)).toEqual([]);
    // Opting in again later does not bring it back: it was dropped, not hidden.
    await patchKey(s.me.merchantId, s.asked.keyId, { extraEventTypes: ['WEIGHING_DECIDED'] });
    expect(await decidedOf(s.asked.token)).toEqual([]);
  });

  it('by webhook: to the URL of a key that opted in, never to the URL of one that did not', async () => {
    const s = await shop();
    // The opted-in key registers the URL: its webhook carries the event.
    await onboard(t, s.asked, 'http://127.0.0.1:9');
    const first = await waitingWeighing(s);
    await call('POST', `/admin/v1/orders/${first.orderId}/weighings/${first.weighingId}/decision`, platform.headers, {
      decision: 'ACCEPT',
    });
    const typesOf = async (orderId: string) =>
      (await deliveries(t, s.me.merchantId, `?orderId=${orderId}`)).map((d) => d.eventType).sort();
    expect(await typesOf(first.orderId)).toEqual(['CONFIRMED', 'CREATED', 'WEIGHING_DECIDED']);
    const delivered = (await deliveries(t, s.me.merchantId, `?orderId=${first.orderId}`)).find(
      (d) => d.eventType === 'WEIGHING_DECIDED',
    );
    expect(delivered?.event).toMatchObject({
      eventType: 'WEIGHING_DECIDED',
      metadata: { weighingId: first.weighingId, decision: 'ACCEPT', by: 'platform' },
    });
    // A key that did not opt in registers it: the next decision goes out by polling only.
    await onboard(t, s.other, 'http://127.0.0.1:9');
    const second = await waitingWeighing(s);
    await call('POST', `/admin/v1/orders/${second.orderId}/weighings/${second.weighingId}/decision`, platform.headers, {
      decision: 'ACCEPT',
    });
    expect(await typesOf(second.orderId)).toEqual(['CONFIRMED', 'CREATED']);
    expect((await decidedOf(s.asked.token)).map((e) => e.orderId).sort()).toEqual(
      [first.orderId, second.orderId].sort(),
    );
  });
});
