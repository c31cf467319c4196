// POST /v1/logistics/confirmationCode (spec 4.15): the same code check as validateCode (4.11).
import { beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { expectError, type LogisticsApp, logisticsSuite, sign, signedCall } from '../support/logistics.js';
import { bearer, type MerchantCredentials, type TestApp } from '../support/test-app.js';

const suite = logisticsSuite();
const { tick, newOrder, operatorView } = suite;
let t: TestApp;
let shop: MerchantCredentials;
let otherShop: MerchantCredentials;
let partner: LogisticsApp;
beforeAll(() => {
  ({ t, shop, otherShop, partner } = suite.world);
});

describe('POST /v1/logistics/confirmationCode (spec 4.15)', () => {
  const confirm = (orderId: string, deliveryCode: unknown, merchantId = shop.merchantId) => {
    tick();
    return signedCall(t.app, partner, merchantId, 'confirmationCode', JSON.stringify({ orderId, deliveryCode }));
  };

  it('echoes the order id and code when the code is right, changing nothing', async () => {
    const order = await newOrder();
    const res = await confirm(order.id, order.deliveryCode);
    expect({ status: res.statusCode, body: res.json() }).toEqual({
      status: 200,
      body: { orderId: order.id, deliveryCode: order.deliveryCode },
    });
    const view = await operatorView(order.id);
    expect([view.status, view.events.length]).toEqual(['CREATED', 1]);
  });

  it('answers 400 Invalid code provided for a wrong code, and the order is not handed over', async () => {
    const order = await newOrder();
    const wrong = order.deliveryCode === '0000' ? '0001' : '0000';
    for (const code of [wrong, `${order.deliveryCode} `, `${order.deliveryCode}0`]) {
      expectError(expect, await confirm(order.id, code), 400, 'Invalid code provided');
    }
    expect((await operatorView(order.id)).status).toBe('CREATED');
  });

  it('checks the same code as POST /v1/orders/{id}/validateCode', async () => {
    const order = await newOrder();
    const pos = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/validateCode`,
      headers: bearer(shop.token),
      payload: { deliveryCode: order.deliveryCode },
    });
    const partnerSide = await confirm(order.id, order.deliveryCode);
    expect([partnerSide.statusCode, partnerSide.json()]).toEqual([pos.statusCode, pos.json()]);
  });

  it('answers 404 Order not found for another merchant’s order or an unknown one', async () => {
    const theirs = await newOrder(otherShop);
    expectError(expect, await confirm(theirs.id, theirs.deliveryCode), 404, 'Order not found');
    expectError(expect, await confirm(newId(), '1234'), 404, 'Order not found');
    // With the other shop's merchant id (the app serves both), it is that shop's order.
    expect((await confirm(theirs.id, theirs.deliveryCode, otherShop.merchantId)).statusCode).toBe(200);
  });

  it('validates the body', async () => {
    const order = await newOrder();
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', JSON.stringify({ orderId: order.id })),
      400,
      'deliveryCode is required',
    );
    expectError(expect, await confirm('abc', '1234'), 400, 'orderId must be a uuid');
    expectError(expect, await confirm(order.id, 1234), 400, 'deliveryCode must be string');
  });

  it('needs the same signed headers', async () => {
    const order = await newOrder();
    const raw = JSON.stringify({ orderId: order.id, deliveryCode: order.deliveryCode });
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', raw, { 'x-app-signature': undefined }),
      400,
      'X-App-Signature is required',
    );
    expectError(
      expect,
      await signedCall(t.app, partner, shop.merchantId, 'confirmationCode', raw, {
        'x-app-signature': sign('wrong', raw),
      }),
      401,
      'X-App-Signature does not match the request body',
    );
  });
});
