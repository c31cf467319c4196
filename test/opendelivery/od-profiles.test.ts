// D27: the profile of an integration key: set at creation, changed with PATCH, listed with the
// key, seen by the key's very next request (on every process within a second), events already
// polled keeping their identity; two keys of one merchant each in their own dialect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.js';
import {
  ackOf,
  connectPos,
  createKey,
  createMerchantOnly,
  expectOdError,
  operator,
  poll,
  setProfile,
} from './od-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const isTypeId = (e: { eventId: string; eventType: string }) => e.eventId === eventIdOf(e.eventType as never);

/** A key no POS has used yet: its presence (README, "POS presence and usage") says so. */
const NEVER_SEEN = expect.objectContaining({ state: 'never', lastSeenAt: null });

describe('managing the profile of a key (D27)', () => {
  it('is set at creation (default cleaver), listed with the key, changed with PATCH; never a secret', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Perfis');
    const plain = await createKey(t.app, merchantId, undefined, 'caixa');
    const od = await createKey(t.app, merchantId, 'opendelivery', 'pdv-od');
    const detail = await t.app.inject({ url: `/admin/v1/merchants/${merchantId}`, headers: adminHeaders });
    expect(detail.json().integrationKeys).toEqual([
      {
        keyId: plain.keyId,
        name: 'caixa',
        profile: 'cleaver',
        extraEventTypes: [],
        createdAt: expect.any(String),
        lastUsedAt: null,
        presence: NEVER_SEEN,
      },
      {
        keyId: od.keyId,
        name: 'pdv-od',
        profile: 'opendelivery',
        extraEventTypes: [],
        createdAt: expect.any(String),
        lastUsedAt: null,
        presence: NEVER_SEEN,
      },
    ]);

    const patched = await setProfile(t.app, merchantId, plain.keyId, 'opendelivery');
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toEqual({
      keyId: plain.keyId,
      name: 'caixa',
      profile: 'opendelivery',
      extraEventTypes: [],
      createdAt: expect.any(String),
      lastUsedAt: null,
      presence: NEVER_SEEN,
    });
    expect(patched.body).not.toContain(plain.clientSecret);
    // The same value again is harmless.
    expect((await setProfile(t.app, merchantId, plain.keyId, 'opendelivery')).json().profile).toBe('opendelivery');
    expect((await setProfile(t.app, merchantId, plain.keyId, 'cleaver')).json().profile).toBe('cleaver');
  });

  it('refuses another value with a 400 naming profile, and an unknown or foreign key with 404', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Perfis Erros');
    const other = await createMerchantOnly(t.app, 'Açougue Vizinho');
    const key = await createKey(t.app, merchantId);
    const expectError = (res: { statusCode: number; json(): unknown }, status: number, title: string) =>
      expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });

    expectError(
      await setProfile(t.app, merchantId, key.keyId, 'ifood'),
      400,
      'profile must be one of cleaver, opendelivery',
    );
    expectError(
      await t.app.inject({
        method: 'PATCH',
        url: `/admin/v1/merchants/${merchantId}/integrationKeys/${key.keyId}`,
        headers: adminHeaders,
        payload: {},
      }),
      400,
      'body must name profile or extraEventTypes',
    );
    expectError(
      await t.app.inject({
        method: 'POST',
        url: `/admin/v1/merchants/${merchantId}/integrationKeys`,
        headers: adminHeaders,
        payload: { profile: 'OpenDelivery' },
      }),
      400,
      'profile must be one of cleaver, opendelivery',
    );
    expectError(await setProfile(t.app, other, key.keyId, 'opendelivery'), 404, 'Integration key not found');
    expectError(
      await setProfile(t.app, merchantId, crypto.randomUUID(), 'opendelivery'),
      404,
      'Integration key not found',
    );
    expectError(await setProfile(t.app, crypto.randomUUID(), key.keyId, 'opendelivery'), 404, 'Merchant not found');
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/merchants/${merchantId}/integrationKeys/${key.keyId}`,
      headers: adminHeaders,
    });
    expect(deleted.statusCode).toBe(204);
    expectError(await setProfile(t.app, merchantId, key.keyId, 'opendelivery'), 404, 'Integration key not found');
  });
});

describe('a profile change (D27, D28)', () => {
  it("takes effect on the key's next request with the same token", async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Troca');
    const key = await createKey(t.app, merchantId);
    const pos = await connectPos(t.app, key);
    await createSimpleOrder(t.app, merchantId);
    const asCleaver = await poll(pos);
    expect(asCleaver.every(isTypeId)).toBe(true);
    expect((await pos.get(`/v1/orders/${crypto.randomUUID()}`)).headers['content-type']).toMatch(/^application\/json/);

    expect((await setProfile(t.app, merchantId, key.keyId, 'opendelivery')).statusCode).toBe(200);
    const asOd = await poll(pos);
    expect(asOd.map((e) => e.orderId)).toEqual(asCleaver.map((e) => e.orderId));
    expect(asOd.some(isTypeId)).toBe(false);
    expectOdError(await pos.get(`/v1/orders/${crypto.randomUUID()}`), 404, 'Order not found');
    expect((await pos.put('/v1/merchantOnboarding', { ordersWebhookURL: 'http://127.0.0.1:9' })).statusCode).toBe(201);

    expect((await setProfile(t.app, merchantId, key.keyId, 'cleaver')).statusCode).toBe(200);
    expect((await poll(pos)).every(isTypeId)).toBe(true);
    expect((await pos.put('/v1/merchantOnboarding', { ordersWebhookURL: 'http://127.0.0.1:9' })).statusCode).toBe(200);
  });

  it('reaches another instance on the same database within a second', async () => {
    const b = await createTestApp({ database: t.database });
    try {
      const merchantId = await createMerchantOnly(t.app, 'Açougue Dois Processos');
      const key = await createKey(t.app, merchantId);
      await createSimpleOrder(t.app, merchantId);
      const onB = await connectPos(b.app, key);
      expect((await poll(onB)).every(isTypeId)).toBe(true); // the token is now cached on b
      const changedAt = Date.now();
      expect((await setProfile(t.app, merchantId, key.keyId, 'opendelivery')).statusCode).toBe(200);
      await expect.poll(async () => (await poll(onB)).some(isTypeId), { timeout: 1000, interval: 20 }).toBe(false);
      expect(Date.now() - changedAt).toBeLessThan(1000);
    } finally {
      await b.close();
    }
  });

  it('keeps the identity of events already polled: either form of eventId acknowledges them', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Identidade');
    const key = await createKey(t.app, merchantId);
    const pos = await connectPos(t.app, key);
    await createSimpleOrder(t.app, merchantId);
    await createSimpleOrder(t.app, merchantId);
    const polledAsCleaver = await poll(pos);
    expect(polledAsCleaver).toHaveLength(2);
    await setProfile(t.app, merchantId, key.keyId, 'opendelivery');
    // Acknowledged after the change with the ids the POS was shown before it.
    expect((await pos.post('/v1/events/acknowledgment', polledAsCleaver.map(ackOf))).statusCode).toBe(202);
    expect(await poll(pos)).toEqual([]);

    await createSimpleOrder(t.app, merchantId);
    const polledAsOd = await poll(pos);
    expect(polledAsOd.some(isTypeId)).toBe(false);
    await setProfile(t.app, merchantId, key.keyId, 'cleaver');
    expect((await pos.post('/v1/events/acknowledgment', polledAsOd.map(ackOf))).statusCode).toBe(202);
    expect(await poll(pos)).toEqual([]);
  });
});

describe('two keys of one merchant with different profiles (D27)', () => {
  it('each sees its own dialect of the same events; acknowledging in one never affects the other', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Dois Dialetos');
    const cleaver = await connectPos(t.app, await createKey(t.app, merchantId, 'cleaver'));
    const od = await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery'));
    const a = await createSimpleOrder(t.app, merchantId);
    const b = await createSimpleOrder(t.app, merchantId);
    const confirm = { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-9' };
    expect((await od.post(`/v1/orders/${a.id}/confirm`, confirm)).statusCode).toBe(202);

    const seenByCleaver = await poll(cleaver);
    const seenByOd = await poll(od);
    const shape = (events: typeof seenByOd) => events.map((e) => `${e.orderId}/${e.eventType}/${e.createdAt}`);
    expect(shape(seenByOd)).toEqual(shape(seenByCleaver));
    expect(seenByCleaver.every(isTypeId)).toBe(true);
    expect(seenByCleaver[0].eventId).toBe(seenByCleaver[1].eventId); // CREATED of a and of b
    expect(new Set(seenByOd.map((e) => e.eventId)).size).toBe(3);
    expect(seenByOd.some(isTypeId)).toBe(false);

    // The opendelivery key acknowledges everything; the cleaver key still sees all three.
    expect((await od.post('/v1/events/acknowledgment', seenByOd.map(ackOf))).statusCode).toBe(202);
    expect(await poll(od)).toEqual([]);
    expect(shape(await poll(cleaver))).toEqual(shape(seenByCleaver));
    // A key acknowledging with the other key's ids acknowledges only its own receipts.
    expect((await cleaver.post('/v1/events/acknowledgment', [ackOf(seenByOd[0])])).statusCode).toBe(202);
    expect((await poll(cleaver)).map((e) => e.orderId)).toEqual([b.id, a.id]);
    expect(await poll(od)).toEqual([]);
  });

  it("another merchant's occurrence id is as unknown as a made-up one (D21)", async () => {
    const mine = await createMerchantOnly(t.app, 'Açougue Meu');
    const theirs = await createMerchantOnly(t.app, 'Açougue Deles');
    const me = await connectPos(t.app, await createKey(t.app, mine, 'opendelivery'));
    const them = await connectPos(t.app, await createKey(t.app, theirs, 'opendelivery'));
    const myOrder = await createSimpleOrder(t.app, mine);
    await createSimpleOrder(t.app, theirs);
    const [foreign] = await poll(them);
    expectOdError(
      await me.post('/v1/events/acknowledgment', [{ id: foreign.eventId, orderId: myOrder.id, eventType: 'CREATED' }]),
      400,
      'id',
    );
    expectOdError(await me.post('/v1/events/acknowledgment', [ackOf(foreign)]), 400, 'id');
    expect(await poll(them)).toEqual([foreign]);
  });

  it('a re-opened event is a new occurrence with a new eventId; its old id acknowledges nothing', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Reaberto');
    const od = await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery'));
    const cleaver = await connectPos(t.app, await createKey(t.app, merchantId, 'cleaver'));
    const order = await createSimpleOrder(t.app, merchantId);
    const ask = () => operator(t.app, 'POST', `/orders/${order.id}/customerCancellation`, { reason: 'Mudei de ideia' });
    expect((await ask()).statusCode).toBe(202);
    const first = (await poll(od)).find((e) => e.eventType === 'ORDER_CANCELLATION_REQUEST');
    expect(first).toBeDefined();
    const deny = { reason: 'Já está no forno', code: 'DISH_ALREADY_DONE' };
    expect((await od.post(`/v1/orders/${order.id}/denyCancellation`, deny)).statusCode).toBe(204);
    expect((await ask()).statusCode).toBe(202); // the customer asks again: the event is re-opened (D1)

    const second = (await poll(od)).find((e) => e.eventType === 'ORDER_CANCELLATION_REQUEST');
    expect(second?.eventId).toBeDefined();
    expect(second?.eventId).not.toBe(first?.eventId);
    // The cleaver key sees the same type id both times (D1).
    expect((await poll(cleaver)).filter((e) => e.eventType === 'ORDER_CANCELLATION_REQUEST')).toEqual([
      expect.objectContaining({ eventId: eventIdOf('ORDER_CANCELLATION_REQUEST') }),
    ]);
    // Acknowledging the earlier occurrence leaves the new one pending; its own id acknowledges it.
    const stillThere = () => poll(od).then((events) => events.some((e) => e.eventId === second?.eventId));
    expect((await od.post('/v1/events/acknowledgment', [ackOf(first as never)])).statusCode).toBe(202);
    expect(await stillThere()).toBe(true);
    expect((await od.post('/v1/events/acknowledgment', [ackOf(second as never)])).statusCode).toBe(202);
    expect(await stillThere()).toBe(false);
  });
});

describe('moving a POS from one profile to the other (README)', () => {
  it('loses and repeats nothing: acknowledge what was handled, switch, carry on', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Migração');
    const key = await createKey(t.app, merchantId);
    const pos = await connectPos(t.app, key);
    const handled: string[] = [];
    const handle = (events: Awaited<ReturnType<typeof poll>>) => {
      for (const e of events) handled.push(`${e.orderId}/${e.eventType}`);
    };
    const orders = [await createSimpleOrder(t.app, merchantId), await createSimpleOrder(t.app, merchantId)];

    // 1. The old software handles a batch; it stops before acknowledging (the worst moment).
    const batch = await poll(pos);
    handle(batch);
    // 2. Meanwhile more happens, then the operator switches the key.
    orders.push(await createSimpleOrder(t.app, merchantId));
    expect((await setProfile(t.app, merchantId, key.keyId, 'opendelivery')).statusCode).toBe(200);
    // 3. What was handled is acknowledged with the ids it was polled with.
    expect((await pos.post('/v1/events/acknowledgment', batch.map(ackOf))).statusCode).toBe(202);
    // 4. The Open Delivery software starts: it gets only what was never handled, once.
    const rest = await poll(pos);
    expect(rest.some(isTypeId)).toBe(false);
    handle(rest);
    expect((await pos.post('/v1/events/acknowledgment', rest.map(ackOf))).statusCode).toBe(202);
    expect(await poll(pos)).toEqual([]);
    expect(handled).toEqual(orders.map((o) => `${o.id}/CREATED`));
  });
});
