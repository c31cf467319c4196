// Request shapes that POS software written by others sends, replayed as such clients send them
// (D32–D35): the polling filter joined with commas, form bodies whose values are not encoded the
// way a browser would, action POSTs labelled JSON with Content-Length: 0, an acknowledgment
// naming the wrong type, a misspelt catalog key, Open Delivery's own deny codes, Open Delivery
// 1.7's merchant status path, a webhook receiver below a path, and a wrong method on a real path.
// Each answer is checked as the client would read it: status, body, and Content-Type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { OdEvent, OdMerchantAvailability } from '../../src/modules/opendelivery/index.js';
import { expectError } from '../support/expect-error.js';
import { createSimpleOrder } from '../support/orders.js';
import { adminHeaders, createTestApp, type TestApp } from '../support/test-app.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';
import {
  ackOf,
  connectPos,
  createKey,
  createMerchantOnly,
  expectOd,
  expectOdError,
  type OdPos,
  operator,
  poll,
} from './od-support.js';

let t: TestApp;
let receiver: WebhookReceiver;

beforeAll(async () => {
  t = await createTestApp({ env: { CLEAVER_WEBHOOK_RETRY_SCHEDULE: '0,0.05,0.05' } });
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await t.services.webhooks.stop();
  await t.close();
  await receiver.close();
});

async function twoPos(name: string): Promise<{ merchantId: string; od: OdPos; cleaver: OdPos }> {
  const merchantId = await createMerchantOnly(t.app, name);
  const od = await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery'));
  const cleaver = await connectPos(t.app, await createKey(t.app, merchantId, 'cleaver'));
  return { merchantId, od, cleaver };
}

const confirm = (pos: OdPos, orderId: string) =>
  pos.post(`/v1/orders/${orderId}/confirm`, { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' });

describe('the polling filter as clients write it (D33)', () => {
  it('repeated, comma-joined, both, with spaces: the same filter in both profiles', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Filtro Vírgula');
    const order = await createSimpleOrder(t.app, merchantId);
    expect((await confirm(cleaver, order.id)).statusCode).toBe(202);
    for (const pos of [od, cleaver]) {
      const types = async (query: string) => (await poll(pos, query)).map((e) => e.eventType);
      expect(await types('?eventType=CREATED,CONFIRMED')).toEqual(['CREATED', 'CONFIRMED']);
      expect(await types('?eventType=CREATED&eventType=CONFIRMED')).toEqual(['CREATED', 'CONFIRMED']);
      expect(await types('?eventType=CONFIRMED,DISPATCHED&eventType=CREATED')).toEqual(['CREATED', 'CONFIRMED']);
      expect(await types('?eventType=CONFIRMED,%20DELIVERED')).toEqual(['CONFIRMED']);
      expect(await types('?eventType=DELIVERED,CONCLUDED')).toEqual([]);
    }
    // An unknown type in any form: 400 naming eventType, in each profile's error dialect.
    const known =
      'CREATED, CONFIRMED, PREPARING, READY_FOR_PICKUP, DISPATCHED, PICKUP_AREA_ASSIGNED, PICKED_UP, DELIVERED, CONCLUDED, CANCELLATION_REQUESTED, CANCELLATION_REQUEST_DENIED, CANCELLED, ORDER_CANCELLATION_REQUEST, CANCELLED_DENIED';
    for (const query of ['?eventType=CREATED,NOPE', '?eventType=CREATED&eventType=NOPE', '?eventType=CREATED,']) {
      expectError(await cleaver.get(`/v1/events:polling${query}`), 400, `eventType must be one of ${known} (query)`);
      expectOdError(
        await od.get(`/v1/events:polling${query}`),
        400,
        `eventType must be one of ${known}, PREPARATION_REQUESTED (query)`,
      );
    }
    // Open Delivery's ONDEMAND type: an opendelivery key may name it (nothing matches).
    expect(await poll(od, '?eventType=CREATED,PREPARATION_REQUESTED')).toHaveLength(1);
  });
});

describe('form bodies and Basic credentials as POS libraries send them (D13)', () => {
  it('a token from a form body with a charset, unencoded values, or HTTP Basic; a revocation the same way', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Formulário');
    const key = await createKey(t.app, merchantId, 'opendelivery');
    const token = (headers: Record<string, string>, payload: string) =>
      t.app.inject({ method: 'POST', url: '/oauth/token', headers, payload });
    // Written by hand, as string concatenation: nothing is percent-encoded.
    const raw = `grant_type=client_credentials&client_id=${merchantId}&client_secret=${key.clientSecret}`;
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=UTF-8',
      'application/x-www-form-urlencoded;charset=utf-8',
    ]) {
      const res = await token({ 'content-type': contentType }, raw);
      expect(res.statusCode, `${contentType}: ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json().token_type).toBe('bearer');
    }
    const basic = Buffer.from(`${merchantId}:${key.clientSecret}`).toString('base64');
    const viaBasic = await token(
      { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      'grant_type=client_credentials',
    );
    expect(viaBasic.statusCode, viaBasic.body).toBe(200);
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
      payload: `token=${viaBasic.json().access_token}&token_type_hint=access_token`,
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json()).toEqual({});
  });
});

describe('action POSTs labelled JSON with nothing in them (Content-Length: 0)', () => {
  it('are taken as calls without a body, in both profiles; a body a route needs is still asked for', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Corpo Vazio');
    const empty = (pos: OdPos, url: string) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${pos.token}`, 'content-type': 'application/json', 'content-length': '0' },
      });
    for (const pos of [od, cleaver]) {
      const order = await createSimpleOrder(t.app, merchantId);
      expect((await confirm(pos, order.id)).statusCode).toBe(202);
      for (const action of ['preparing', 'readyForPickup', 'dispatch', 'delivered']) {
        const res = await empty(pos, `/v1/orders/${order.id}/${action}`);
        expect(res.statusCode, `${action}: ${res.body}`).toBe(202);
        expect(res.body).toBe('');
        expect(res.headers['content-type']).toBeUndefined();
      }
      const asked = await createSimpleOrder(t.app, merchantId);
      expect((await operator(t.app, 'POST', `/orders/${asked.id}/customerCancellation`, {})).statusCode).toBe(202);
      const accepted = await empty(pos, `/v1/orders/${asked.id}/acceptCancellation`);
      expect(accepted.statusCode, accepted.body).toBe(204);
      // confirm has required fields: an empty body is still named as such.
      const fresh = await createSimpleOrder(t.app, merchantId);
      const refused = await empty(pos, `/v1/orders/${fresh.id}/confirm`);
      if (pos === od) expectOdError(refused, 400, 'Body is empty: send a JSON document');
      else expectError(refused, 400, 'Body is empty: send a JSON document');
    }
  });
});

describe('an acknowledgment naming the wrong type (D32)', () => {
  it('is refused naming eventType, keeps the elements before it, and stops the phantom-order loop', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Tipo Errado');
    const first = await createSimpleOrder(t.app, merchantId);
    const second = await createSimpleOrder(t.app, merchantId);
    expect((await confirm(cleaver, second.id)).statusCode).toBe(202);

    // A library that maps types it does not know to CREATED acknowledges CONFIRMED as CREATED.
    const odEvents = await poll(od);
    const odFirst = odEvents.find((e) => e.orderId === first.id) as (typeof odEvents)[number];
    const odConfirmed = odEvents.find((e) => e.eventType === 'CONFIRMED') as (typeof odEvents)[number];
    const wrong = { ...ackOf(odConfirmed), eventType: 'CREATED' };
    expectOdError(await od.post('/v1/events/acknowledgment', [ackOf(odFirst), wrong]), 400, 'eventType');
    // The element before it stays acknowledged (spec 4.13 rule 2); the wrong one is still pending.
    expect((await poll(od)).map((e) => e.eventId)).not.toContain(odFirst.eventId);
    expect((await poll(od)).map((e) => e.eventId)).toContain(odConfirmed.eventId);
    // By occurrence id with its own type: acknowledged; again: still 202 (rule 3).
    for (let i = 0; i < 2; i++) {
      const res = await od.post('/v1/events/acknowledgment', [ackOf(odConfirmed)]);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.body).toBe('');
    }
    expect((await poll(od)).map((e) => e.eventId)).not.toContain(odConfirmed.eventId);

    // A cleaver key: the type's id of CONFIRMED sent with CREATED.
    const mismatch = { id: eventIdOf('CONFIRMED'), orderId: second.id, eventType: 'CREATED' };
    expectError(await cleaver.post('/v1/events/acknowledgment', [mismatch]), 400, 'eventType');
    expect((await poll(cleaver)).filter((e) => e.orderId === second.id).map((e) => e.eventType)).toEqual([
      'CREATED',
      'CONFIRMED',
    ]);
  });
});

describe('a misspelt catalog key (D34)', () => {
  it('PUT and POST refuse it naming the key and the near one; nothing is queued', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Chave Errada');
    const syncs = async () =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/admin/v1/merchants/${merchantId}/catalogSyncs`,
          headers: adminHeaders,
        })
      ).json();
    const before = await syncs();
    const objects = [{ itemId: 'PICANHA', status: 'UNAVAILABLE' }];
    expectError(
      await cleaver.put('/v1/merchantUpdate', { entityType: 'ITEM_OFFER', updateObjects: objects }),
      400,
      'updateObjects is not a field of merchantUpdate: did you mean updatedObjects?',
    );
    expectOdError(
      await od.post('/v1/merchantUpdate', {
        merchantStatus: 'AVAILABLE',
        entityType: 'ITEM_OFFER',
        updateObjects: objects,
      }),
      400,
      'updateObjects is not a field of merchantUpdate: did you mean updatedObjects?',
    );
    expectError(
      await cleaver.put('/v1/merchantUpdate', {
        entityType: 'ITEM_OFFER',
        updatedObjects: objects,
        MerchantStatus: 'AVAILABLE',
      }),
      400,
      'MerchantStatus is not a field of merchantUpdate: did you mean merchantStatus?',
    );
    expectError(
      await cleaver.put('/v1/merchantUpdate', { entityType: 'ITEM_OFFER', updatedObjects: objects, menu: [] }),
      400,
      'menu is not a field of merchantUpdate: send entityType, merchantStatus, onlyAddProducts and updatedObjects',
    );
    expect(await syncs()).toEqual(before);
    // The four keys, onlyAddProducts included, are taken by both verbs.
    const put = await cleaver.put('/v1/merchantUpdate', {
      entityType: 'ITEM_OFFER',
      updatedObjects: objects,
      onlyAddProducts: true,
    });
    expect(put.statusCode, put.body).toBe(204);
    const post = await od.post('/v1/merchantUpdate', { merchantStatus: 'AVAILABLE', onlyAddProducts: false });
    expect(post.statusCode, post.body).toBe(204);
  });
});

describe('Open Delivery deny codes (D28.5)', () => {
  it('DISH_ALREADY_DONE and OUT_FOR_DELIVERY deny a customer’s cancellation for an opendelivery key', async () => {
    const { merchantId, od } = await twoPos('Açougue Códigos OD');
    for (const code of ['DISH_ALREADY_DONE', 'OUT_FOR_DELIVERY']) {
      const order = await createSimpleOrder(t.app, merchantId);
      expect((await operator(t.app, 'POST', `/orders/${order.id}/customerCancellation`, {})).statusCode).toBe(202);
      const res = await od.post(`/v1/orders/${order.id}/denyCancellation`, { reason: 'Já está pronto', code });
      expect(res.statusCode, res.body).toBe(204);
      expect(res.body).toBe('');
    }
  });
});

describe('Open Delivery 1.7’s merchant status (D35)', () => {
  it('GET /v1/merchant/{merchantId}/status: the OD shape for the own merchant, 404 for any other id', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Status');
    const other = await createMerchantOnly(t.app, 'Açougue Vizinho');
    const own = await od.get(`/v1/merchant/${merchantId}/status`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.headers['content-type']).toMatch(/^application\/json/);
    expectOd(OdMerchantAvailability, own.json());
    expect(own.json()).toEqual({ status: 'AVAILABLE', services: [], orderingAppMerchantId: merchantId });
    // The switch the merchant's status follows.
    await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/merchants/${merchantId}`,
      headers: adminHeaders,
      payload: { status: 'UNAVAILABLE' },
    });
    expect((await od.get(`/v1/merchant/${merchantId.toUpperCase()}/status`)).json().status).toBe('UNAVAILABLE');
    // D21: another merchant's id, or one that is no merchant, is not found.
    for (const id of [other, crypto.randomUUID(), '22815773000169-dbc7e35a-c936-4665-9e13-eb55eb8b6824']) {
      expectOdError(await od.get(`/v1/merchant/${id}/status`), 404, 'Merchant not found');
      expectError(await cleaver.get(`/v1/merchant/${id}/status`), 404, 'Merchant not found');
    }
  });
});

describe('an ordersWebhookURL with a path prefix (D35)', () => {
  it('is taken from an opendelivery key, with /v1/newEvent appended; refused from a cleaver key', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Prefixo');
    const prefixed = `${receiver.url}/integracoes/cleaver`;
    expectError(
      await cleaver.put('/v1/merchantOnboarding', { ordersWebhookURL: prefixed }),
      400,
      'ordersWebhookURL must be a base URL without a path',
    );
    for (const [url, title] of [
      [`${prefixed}/`, 'ordersWebhookURL must not end with a slash'],
      [`${prefixed}?x=1`, 'ordersWebhookURL must be a base URL without query or fragment'],
      [`${prefixed}#x`, 'ordersWebhookURL must be a base URL without query or fragment'],
      [
        `${receiver.url}/a//b`,
        'ordersWebhookURL must have a plain path prefix (no empty, dot or encoded-slash segments)',
      ],
      [
        `${receiver.url}/a/../b`,
        'ordersWebhookURL must have a plain path prefix (no empty, dot or encoded-slash segments)',
      ],
    ]) {
      expectOdError(await od.put('/v1/merchantOnboarding', { ordersWebhookURL: url }), 400, title);
    }
    const registered = await od.put('/v1/merchantOnboarding', { ordersWebhookURL: prefixed });
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toEqual({ ordersWebhookURL: prefixed });
    const order = await createSimpleOrder(t.app, merchantId);
    await t.services.webhooks.drain();
    const delivered = receiver.requests.filter((r) => JSON.parse(r.body).orderId === order.id);
    expect(delivered.map((r) => r.path)).toEqual(['/integracoes/cleaver/v1/newEvent']);
    expectOd(OdEvent, JSON.parse(delivered[0].body));
  });
});

describe('a method a real path does not have (D35)', () => {
  it('is 405 with Allow and {title, status}, before any credential; an unknown path stays 404', async () => {
    const cases: Array<[string, string, string]> = [
      ['DELETE', '/v1/merchant', 'GET, HEAD'],
      ['POST', '/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10', 'GET, HEAD'],
      ['GET', '/v1/orders/0f0f6c1e-8a55-4c61-9a3e-2d5b7c9e1a10/confirm', 'POST'],
      ['GET', '/v1/events/acknowledgment', 'POST'],
      ['DELETE', '/v1/events:polling', 'GET, HEAD'],
      ['GET', '/v1/merchantUpdate', 'POST, PUT'],
      ['PUT', '/oauth/token', 'POST'],
      ['POST', '/health/ready', 'GET, HEAD'],
      ['DELETE', '/admin/v1/merchants', 'GET, HEAD, POST'],
      ['PUT', '/openapi.json', 'GET, HEAD'],
    ];
    for (const [method, url, allow] of cases) {
      const res = await t.app.inject({ method: method as 'GET', url });
      expectError(res, 405, 'Method Not Allowed');
      expect(res.headers.allow, `${method} ${url}`).toBe(allow);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    expectError(await t.app.inject({ method: 'GET', url: '/v1/nothing-here' }), 404, 'Route not found');
    expectError(await t.app.inject({ method: 'POST', url: '/v1/orders/x/y/z' }), 404, 'Route not found');
  });
});
