// D27: a key with the default `cleaver` profile sees exactly what the spec shows, even beside an
// opendelivery key of the same merchant doing the same things. And the spec's dialect is not Open
// Delivery's: the order a cleaver key reads fails Open Delivery's schema, which is why a POS
// built for Open Delivery needs the other profile.
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { OdOrder } from '../../src/modules/opendelivery/index.js';
import { CANCELLATION_CODES } from '../../src/modules/orders/orders-schemas.js';
import { createOrder, insertPosProduct } from '../support/orders.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connectPos, createKey, createMerchantOnly, type OdPos, operator, poll } from './od-support.js';

let t: TestApp;
let cleaver: OdPos;
let od: OdPos;
let merchantId: string;
let picanhaId: string;

beforeAll(async () => {
  t = await createTestApp();
  merchantId = await createMerchantOnly(t.app, 'Açougue Spec');
  cleaver = await connectPos(t.app, await createKey(t.app, merchantId));
  od = await connectPos(t.app, await createKey(t.app, merchantId, 'opendelivery'));
  picanhaId = await insertPosProduct(t.database.db, merchantId, {
    pdvId: 'PIC-01',
    name: 'Picanha',
    price: '89.90',
    unit: 'KG',
    externalCode: 'BAL-4410',
  });
});
afterAll(() => t.close());

function expectSpecError(
  res: { statusCode: number; headers: Record<string, unknown>; json(): unknown },
  status: number,
  title: string,
) {
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect({ status: res.statusCode, body: res.json() }).toEqual({ status, body: { title, status } });
}

describe('the cleaver profile', () => {
  it('token, onboarding and merchantStatus are the spec’s', async () => {
    expect((cleaver as unknown as { tokenResponse: { token_type: string } }).tokenResponse.token_type).toBe('Bearer');
    const onboard = await cleaver.put('/v1/merchantOnboarding', { ordersWebhookURL: 'http://127.0.0.1:9' });
    expect(onboard.statusCode).toBe(200);
    expect(onboard.json()).toEqual({ getMerchantURL: null, ordersWebhookURL: 'http://127.0.0.1:9' });
    const upload = await cleaver.put('/v1/merchantUpdate', { entityType: 'ITEM', updatedObjects: [] });
    expect(upload.statusCode).toBe(204);
    const status = await cleaver.get(`/v1/merchantStatus?merchantId=${merchantId}`);
    expect(status.json()).toEqual({ status: 'PROCESSING', lastRead: expect.any(String), moreInfo: null });
  });

  it('reads the order of spec 2.6, with its nulls, which Open Delivery’s schema refuses', async () => {
    const order = await createOrder(t.app, merchantId, {
      type: 'TAKEOUT',
      items: [{ pdvId: 'PIC-01', quantity: 0.5 }],
    });
    const res = await cleaver.get(`/v1/orders/${order.id}`);
    expect(res.statusCode).toBe(200);
    const view = res.json();
    expect(view).toMatchObject({
      schedule: null,
      preparationStartDateTime: null,
      customer: { documentNumber: null, phone: { extension: null } },
      sendTracking: true,
      sendDelivered: true,
    });
    expect(view.items[0]).toEqual({
      id: 'PIC-01',
      name: 'Picanha',
      externalCode: 'BAL-4410',
      unit: 'KG',
      quantity: 0.5,
      unitPrice: { value: 89.9, currency: 'BRL' },
      originalPrice: { value: 89.9, currency: 'BRL' },
      totalPrice: { value: 44.95, currency: 'BRL' },
      options: [],
    });
    expect(view).not.toHaveProperty('sendPickedUp');
    const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;
    const validate = addFormats(new Ajv2020({ strict: false, allErrors: true })).compile(OdOrder as object);
    expect(validate(view)).toBe(false);
    expect(validate.errors?.map((e) => e.instancePath)).toEqual(
      expect.arrayContaining(['/preparationStartDateTime', '/schedule', '/items/0/id']),
    );
    // The same order read by the opendelivery key of the same merchant.
    const odView = (await od.get(`/v1/orders/${order.id}`)).json();
    expect(odView.items[0]).toMatchObject({ id: picanhaId, externalCode: 'PIC-01' });
    expect(validate(odView)).toBe(true);
  });

  it('polls type eventIds with the spec’s metadata; refusals are 400 application/json', async () => {
    const order = await createOrder(t.app, merchantId, { type: 'DELIVERY', items: [{ pdvId: 'PIC-01', quantity: 1 }] });
    const confirm = { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' };
    expect((await cleaver.post(`/v1/orders/${order.id}/confirm`, confirm)).statusCode).toBe(202);
    expectSpecError(
      await cleaver.post(`/v1/orders/${order.id}/confirm`, confirm),
      400,
      'Order has already same event type',
    );
    expect((await operator(t.app, 'POST', `/orders/${order.id}/customerCancellation`, {})).statusCode).toBe(202);
    expectSpecError(
      await cleaver.post(`/v1/orders/${order.id}/denyCancellation`, { reason: 'Pronto', code: 'DISH_ALREADY_DONE' }),
      400,
      `code must be one of ${CANCELLATION_CODES.join(', ')}`,
    );
    const request = { reason: 'Sem estoque', code: 'UNAVAILABLE_ITEM', mode: 'MANUAL' };
    expect((await cleaver.post(`/v1/orders/${order.id}/requestCancellation`, request)).statusCode).toBe(202);
    expect(
      (await operator(t.app, 'POST', `/orders/${order.id}/cancellationDecision`, { decision: 'deny' })).statusCode,
    ).toBe(202);
    // The spec's answer to a repeat names no outcome, and stays 400.
    expectSpecError(
      await cleaver.post(`/v1/orders/${order.id}/requestCancellation`, request),
      400,
      'Order has already same event type',
    );
    const events = (await poll(cleaver)).filter((e) => e.orderId === order.id);
    expect(events.every((e) => e.eventId === eventIdOf(e.eventType as never))).toBe(true);
    expect(events.find((e) => e.eventType === 'ORDER_CANCELLATION_REQUEST')?.metadata).toEqual({
      reason: 'O cliente pediu o cancelamento',
      code: 'CUSTOMER_REQUEST',
    });
    expect(events.find((e) => e.eventType === 'CANCELLATION_REQUESTED')?.metadata).toEqual(request);
    // Open Delivery's ONDEMAND event type is not part of the spec's list.
    const filter = await cleaver.get('/v1/events:polling?eventType=PREPARATION_REQUESTED');
    expect(filter.statusCode).toBe(400);
    expect(filter.json().title).toMatch(/^eventType must be one of CREATED/);
    expect((await od.get('/v1/events:polling?eventType=PREPARATION_REQUESTED')).statusCode).toBe(204);
  });
});
