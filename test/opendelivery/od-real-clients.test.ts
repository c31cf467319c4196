// Request shapes that POS software written by others sends, replayed as such clients send them
// (D32–D35, D39, D40): the polling filter joined with commas, form bodies whose values are not
// encoded the way a browser would, action POSTs labelled JSON with Content-Length: 0, an
// acknowledgment naming the wrong type, a misspelt catalog key, Open Delivery's own deny codes,
// Open Delivery 1.7's merchant status path, a webhook receiver below a path or given as the
// endpoint itself, the polling path with its colon encoded, and a wrong method on a real path.
// Each answer is checked as the client would read it: status, body, and Content-Type.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { OdEvent, OdMerchantApiInfo, OdMerchantAvailability } from '../../src/modules/opendelivery/index.js';
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
      'CREATED, CONFIRMED, PREPARING, READY_FOR_PICKUP, DISPATCHED, PICKUP_AREA_ASSIGNED, PICKED_UP, DELIVERED, CONCLUDED, CANCELLATION_REQUESTED, CANCELLATION_REQUEST_DENIED, CANCELLED, ORDER_CANCELLATION_REQUEST, CANCELLED_DENIED, WEIGHING_DECIDED';
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

describe('an acknowledgment naming the wrong type (D32, D39)', () => {
  it('opendelivery: the occurrence id decides, with a warning and one notice a day; cleaver: refused, stopping nothing', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Tipo Errado');
    const first = await createSimpleOrder(t.app, merchantId);
    const second = await createSimpleOrder(t.app, merchantId);
    expect((await confirm(cleaver, second.id)).statusCode).toBe(202);
    const third = await createSimpleOrder(t.app, merchantId);

    // A library that maps types it does not know to CREATED acknowledges CONFIRMED as CREATED,
    // in the middle of its whole poll. D32 refused it and stopped there (the third order's CREATED
    // came back on every poll); D39: the occurrence id says exactly what was handled.
    const odEvents = await poll(od);
    expect(odEvents.map((e) => e.eventType)).toEqual(['CREATED', 'CREATED', 'CONFIRMED', 'CREATED']);
    const odConfirmed = odEvents.find((e) => e.eventType === 'CONFIRMED') as (typeof odEvents)[number];
    const batch = odEvents.map((e) => (e === odConfirmed ? { ...ackOf(e), eventType: 'CREATED' } : ackOf(e)));
    for (let i = 0; i < 2; i++) {
      // Again: already acknowledged, still 202 (rule 3), never refused.
      const res = await od.post('/v1/events/acknowledgment', batch);
      expect(res.statusCode, res.body).toBe(202);
      expect(res.body).toBe('');
    }
    expect(await poll(od)).toEqual([]);
    // The key's request log keeps the mismatch as a warning, naming both types.
    const log = await od.get('/v1/developer/requests?limit=5');
    expect(log.statusCode, log.body).toBe(200);
    const acks = (log.json().items as Array<{ path: string; status: number; warning: string | null }>).filter(
      (r) => r.path === '/v1/events/acknowledgment',
    );
    expect(acks.map((r) => [r.status, r.warning])).toEqual(
      Array(2).fill([
        202,
        `CONFIRMED acknowledged as CREATED (order ${second.id}, eventId ${odConfirmed.eventId}): acknowledged by its eventId; send the eventType as polled`,
      ]),
    );
    // One integration notice for the key, however many mismatches that day.
    const notices = async () =>
      (
        await operator(t.app, 'GET', `/notices?merchantId=${merchantId}&kind=acknowledgment.type-mismatch`)
      ).json() as Array<{ message: string; detail: Record<string, unknown> }>;
    expect(await notices()).toEqual([
      expect.objectContaining({
        message: `CONFIRMED acknowledged as CREATED: the client maps unknown event types to CREATED (integration key ${od.keyId}; acknowledged by its eventId)`,
        detail: { keyId: od.keyId, eventType: 'CONFIRMED', acknowledgedAs: 'CREATED', orderId: second.id },
      }),
    ]);

    // A cleaver key: the type's id of CONFIRMED sent with CREATED is refused naming eventType, and
    // the element after it is acknowledged all the same (D39).
    const mismatch = { id: eventIdOf('CONFIRMED'), orderId: second.id, eventType: 'CREATED' };
    const afterIt = { id: eventIdOf('CREATED'), orderId: third.id, eventType: 'CREATED' };
    expectError(await cleaver.post('/v1/events/acknowledgment', [mismatch, afterIt]), 400, 'eventType');
    expect((await poll(cleaver)).map((e) => [e.orderId, e.eventType])).toEqual([
      [first.id, 'CREATED'],
      [second.id, 'CREATED'],
      [second.id, 'CONFIRMED'],
    ]);
    // An occurrence id sent by a cleaver key with another type is refused too: it has no occurrence
    // ids in its records, so the disagreement is a bug to name (D32).
    const byOccurrence = { id: odConfirmed.eventId, orderId: second.id, eventType: 'CREATED' };
    expectError(await cleaver.post('/v1/events/acknowledgment', [byOccurrence]), 400, 'eventType');
    expect(await notices()).toHaveLength(1);
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

describe('an ordersWebhookURL with a path prefix (D35, D40)', () => {
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
    // D40: the answer shows the address events go to.
    expect(registered.json()).toEqual({ ordersWebhookURL: `${prefixed}/v1/newEvent` });
    const order = await createSimpleOrder(t.app, merchantId);
    await t.services.webhooks.drain();
    const delivered = receiver.requests.filter((r) => JSON.parse(r.body).orderId === order.id);
    expect(delivered.map((r) => r.path)).toEqual(['/integracoes/cleaver/v1/newEvent']);
    expectOd(OdEvent, JSON.parse(delivered[0].body));
  });
});

// D40, the case of its Why: the Open Delivery request collection registers the endpoint itself, as its own
// sample does; it was taken as a prefix, answered 201, and every webhook went to
// …/v1/newEvent/v1/newEvent while the POS was told success.
describe('an ordersWebhookURL that is the endpoint itself (D40)', () => {
  it('an opendelivery key’s address ending in /v1/newEvent gets the events as it is; the answer and GET say so', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Endereço Completo');
    for (const endpoint of [`${receiver.url}/od/v1/newEvent`, `${receiver.url}/v1/newEvent`]) {
      const registered = await od.put('/v1/merchantOnboarding', { ordersWebhookURL: endpoint });
      expect(registered.statusCode, registered.body).toBe(201);
      expectOd(OdMerchantApiInfo, registered.json());
      expect(registered.json()).toEqual({ ordersWebhookURL: endpoint });
      const detail = await operator(t.app, 'GET', `/merchants/${merchantId}`);
      expect(detail.statusCode, detail.body).toBe(200);
      expect(detail.json().onboarding).toMatchObject({
        ordersWebhookURL: endpoint.slice(0, -'/v1/newEvent'.length),
        webhookTarget: endpoint,
        webhookKeyId: od.keyId,
      });
      const order = await createSimpleOrder(t.app, merchantId);
      await t.services.webhooks.drain();
      const delivered = receiver.requests.filter((r) => JSON.parse(r.body).orderId === order.id);
      expect(delivered.map((r) => r.path)).toEqual([new URL(endpoint).pathname]);
      expectOd(OdEvent, JSON.parse(delivered[0].body));
      // The POS's own view of its endpoint, and the operator's, name the same address.
      const own = await od.get('/v1/developer/webhooks');
      expect(own.statusCode, own.body).toBe(200);
      expect(own.json().endpoint).toMatchObject({ state: 'healthy', url: endpoint });
      const health = await operator(t.app, 'GET', `/merchants/${merchantId}/webhookHealth`);
      expect(health.json()).toMatchObject({ url: endpoint });
    }
    // Still a path a cleaver key may not give (spec 4.2: a base address), and an endpoint followed
    // by a query is no endpoint.
    expectError(
      await cleaver.put('/v1/merchantOnboarding', { ordersWebhookURL: `${receiver.url}/v1/orderUpdate` }),
      400,
      'ordersWebhookURL must be a base URL without a path',
    );
    expectOdError(
      await od.put('/v1/merchantOnboarding', { ordersWebhookURL: `${receiver.url}/v1/newEvent?x=1` }),
      400,
      'ordersWebhookURL must be a base URL without query or fragment',
    );
    expectOdError(
      await od.put('/v1/merchantOnboarding', { ordersWebhookURL: `${receiver.url}/v1/newEvent/` }),
      400,
      'ordersWebhookURL must not end with a slash',
    );
  });
});

// D40: a client that percent-encodes the colon got 404.
describe('the polling path with its colon percent-encoded (D40)', () => {
  it('is the polling route in both profiles, over a real socket with the path as sent', async () => {
    const { merchantId, od, cleaver } = await twoPos('Açougue Dois Pontos');
    const order = await createSimpleOrder(t.app, merchantId);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as import('node:net').AddressInfo;
    // node:http sends the path byte for byte (fetch would too, but keep nothing to chance).
    const get = (path: string, token: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, path, method: 'GET', headers: { authorization: `Bearer ${token}` } },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (c) => {
              body += c;
            });
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    for (const pos of [od, cleaver]) {
      for (const path of ['/v1/events%3Apolling', '/v1/events%3apolling', '/v1/events%3Apolling?eventType=CREATED']) {
        const res = await get(path, pos.token);
        expect(res.status, `${path}: ${res.body}`).toBe(200);
        expect(JSON.parse(res.body).map((e: { orderId: string }) => e.orderId)).toEqual([order.id]);
      }
      // The filter is checked as on the plain path.
      const bad = await get('/v1/events%3Apolling?eventType=NOPE', pos.token);
      expect(bad.status).toBe(400);
    }
    // Only that path: another encoded colon stays unknown.
    expectError(await t.app.inject({ method: 'GET', url: '/v1/events%3Apoll' }), 404, 'Route not found');
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
