// The X-App-* headers and the body signature of the logistics endpoints (spec 5.2).
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import {
  createLogisticsApp,
  deliveryUpdate,
  expectError,
  type LogisticsApp,
  logisticsSuite,
  sign,
  signedCall,
} from '../support/logistics.js';
import { adminHeaders, bearer, createMerchant, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const suite = logisticsSuite();
const { newOrder, send, update, operatorView } = suite;
let t: TestApp;
let shop: MerchantCredentials;
let partner: LogisticsApp;
beforeAll(() => {
  ({ t, shop, partner } = suite.world);
});

describe('X-App-* headers (spec 5.2)', () => {
  const body = () => JSON.stringify(deliveryUpdate({ id: newId() }, { id: shop.merchantId }, { type: 'PENDING' }));

  it.each([
    ['x-app-id', undefined, 'X-App-Id is required'],
    ['x-app-id', '', 'X-App-Id is required'],
    ['x-app-id', 'not-a-uuid', 'X-App-Id must be a uuid v4'],
    // A version 1 uuid is a uuid, but not the v4 the spec asks for.
    ['x-app-id', 'c232ab00-9414-11ec-b3c8-9f6bdeced846', 'X-App-Id must be a uuid v4'],
    ['x-app-merchantid', undefined, 'X-App-MerchantId is required'],
    ['x-app-merchantid', 'x'.repeat(35), 'X-App-MerchantId must be 36 to 100 characters'],
    ['x-app-merchantid', 'x'.repeat(101), 'X-App-MerchantId must be 36 to 100 characters'],
    ['x-app-signature', undefined, 'X-App-Signature is required'],
    ['x-app-signature', 'a'.repeat(63), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'a'.repeat(65), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'A'.repeat(64), 'X-App-Signature must be 64 lowercase hex characters'],
    ['x-app-signature', 'g'.repeat(64), 'X-App-Signature must be 64 lowercase hex characters'],
  ])('%s = %j → 400 %s', async (name, value, title) => {
    const res = await send(body(), { headers: { [name]: value } });
    expectError(expect, res, 400, title);
  });

  it('checks the headers in the order of 5.2: X-App-Id, then X-App-MerchantId, then X-App-Signature', async () => {
    const all = { 'x-app-id': 'nope', 'x-app-merchantid': 'short', 'x-app-signature': 'BAD' };
    expectError(expect, await send(body(), { headers: all }), 400, 'X-App-Id must be a uuid v4');
    expectError(
      expect,
      await send(body(), { headers: { ...all, 'x-app-id': partner.appId } }),
      400,
      'X-App-MerchantId must be 36 to 100 characters',
    );
    // A malformed header is a 400 even when the app does not exist (400 checks come first).
    expectError(
      expect,
      await send(body(), { headers: { 'x-app-id': newId(), 'x-app-signature': 'BAD' } }),
      400,
      'X-App-Signature must be 64 lowercase hex characters',
    );
  });

  it('answers 401 for an unknown app, without a Bearer challenge', async () => {
    const res = await send(body(), { headers: { 'x-app-id': newId() } });
    expectError(expect, res, 401, 'X-App-Id is not a known logistics app');
    expect(res.headers['www-authenticate']).toBeUndefined();
  });

  it('answers 401 for a merchant id the app is not linked to (well-formed or not a uuid)', async () => {
    const stranger = await createMerchant(t.app, 'Açougue Sem Parceiro');
    for (const merchantId of [stranger.merchantId, newId(), 'm'.repeat(36), 'm'.repeat(100)]) {
      expectError(
        expect,
        await send(body(), { merchantId }),
        401,
        'X-App-MerchantId is not linked to this logistics app',
      );
    }
  });

  it('answers 401 once the app is deactivated', async () => {
    const shortLived = await createLogisticsApp(t.app, [shop.merchantId]);
    const order = await newOrder();
    const raw = JSON.stringify(update(order, 'PENDING'));
    expect((await signedCall(t.app, shortLived, shop.merchantId, 'deliveryUpdate', raw)).statusCode).toBe(204);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/admin/v1/logisticsApps/${shortLived.appId}`,
      headers: adminHeaders,
    });
    expect(del.statusCode).toBe(204);
    const again = JSON.stringify(update(order, 'ACCEPTED'));
    expectError(
      expect,
      await signedCall(t.app, shortLived, shop.merchantId, 'deliveryUpdate', again),
      401,
      'Logistics app is inactive',
    );
    expectError(
      expect,
      await signedCall(
        t.app,
        shortLived,
        shop.merchantId,
        'confirmationCode',
        JSON.stringify({ orderId: order.id, deliveryCode: order.deliveryCode }),
      ),
      401,
      'Logistics app is inactive',
    );
    expect((await operatorView(order.id)).logisticsUpdates.map((u) => u.eventType)).toEqual(['PENDING']);
  });

  it('answers 401 for a signature of other bytes, of another secret, or of the reformatted body', async () => {
    const order = await newOrder();
    const doc = update(order, 'DELIVERY_ONGOING');
    const raw = JSON.stringify(doc);
    const cases = [
      sign(partner.clientSecret, `${raw} `),
      sign('another-secret', raw),
      sign(partner.clientSecret, JSON.stringify(doc, null, 2)),
      'a'.repeat(64),
    ];
    for (const signature of cases) {
      expectError(
        expect,
        await send(raw, { headers: { 'x-app-signature': signature } }),
        401,
        'X-App-Signature does not match the request body',
      );
    }
    // The same document, reformatted but signed as sent, is accepted: the bytes are what count.
    const pretty = JSON.stringify(doc, null, 2);
    expect((await send(pretty)).statusCode).toBe(204);
    expect((await operatorView(order.id)).status).toBe('DISPATCHED');
  });

  it('parses the body only after the signature: malformed JSON, empty or non-UTF-8 bodies are 400 once signed', async () => {
    expectError(expect, await send('{"deliveryId": '), 400, 'Body is not valid JSON');
    expectError(expect, await send(''), 400, 'Body is empty: send a JSON document');
    expectError(expect, await send(Buffer.from([0x7b, 0xff, 0x7d])), 400, 'Body is not valid UTF-8');
    expectError(expect, await send('{"__proto__": {"x": 1}}'), 400, 'Body is not valid JSON');
    // Unsigned, the same malformed body is a 401: it is never parsed.
    expectError(
      expect,
      await send('{"deliveryId": ', { headers: { 'x-app-signature': 'b'.repeat(64) } }),
      401,
      'X-App-Signature does not match the request body',
    );
  });

  it('checks headers before the content type; a bearer token is no substitute', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/logistics/deliveryUpdate',
      headers: { ...bearer(shop.token), 'content-type': 'application/json' },
      payload: body(),
    });
    expectError(expect, res, 400, 'X-App-Id is required');
    const text = await send(body(), { headers: { 'content-type': 'text/plain', 'x-app-id': 'x' } });
    expectError(expect, text, 400, 'X-App-Id must be a uuid v4');
    const signedText = await send(body(), { headers: { 'content-type': 'text/plain' } });
    expectError(expect, signedText, 415, 'Unsupported content type: send application/json');
  });

  it('accepts upper-case ids in X-App-Id and X-App-MerchantId', async () => {
    const order = await newOrder();
    const res = await send(update(order, 'PENDING'), {
      headers: { 'x-app-id': partner.appId.toUpperCase(), 'x-app-merchantid': shop.merchantId.toUpperCase() },
    });
    expect({ status: res.statusCode, body: res.body }).toEqual({ status: 204, body: '' });
  });
});
