// Orders in the console: list with filters, order page with items, totals, timeline and
// acknowledgments per integration key, and the platform's actions as forms.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventIdOf } from '../../src/modules/events/index.js';
import { createLogisticsApp, deliveryUpdate, signedCall } from '../support/logistics.js';
import { createSimpleOrder } from '../support/orders.js';
import { bearer, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { login } from './console-session.js';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

describe('orders', () => {
  it('lists orders, filters by merchant and status, and shows an order with its timeline', async () => {
    const me = await createMerchant(t.app, 'Casa de Carnes');
    const other = await createMerchant(t.app, 'Outro Açougue');
    const order = await createSimpleOrder(t.app, me.merchantId);
    await createSimpleOrder(t.app, other.merchantId);
    const s = await login(t.app);

    const all = await s.get('/console/orders');
    expect(all.statusCode).toBe(200);
    expect(all.body.match(/href="\/console\/orders\/[0-9a-f-]{36}"/g)).toHaveLength(2);
    const mine = await s.get(`/console/orders?merchantId=${me.merchantId}&status=CREATED`);
    expect(mine.body.match(/href="\/console\/orders\/[0-9a-f-]{36}"/g)).toEqual([`href="/console/orders/${order.id}"`]);
    expect((await s.get(`/console/orders?merchantId=${me.merchantId}&status=CONCLUDED`)).body).toContain(
      'No orders match.',
    );
    const bad = await s.get('/console/orders?status=NOPE');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('“NOPE” is not one of the choices for Status.');

    const page = await s.get(`/console/orders/${order.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Picanha');
    expect(page.body).toContain('1.25 KG');
    expect(page.body).toContain('R$112.38'); // 1.25 × 89.90 = 112.375 → centavos, half up
    expect(page.body).toContain('<strong>CREATED</strong>');
    expect(page.body).toMatch(/key-[0-9a-f]{8}: <span class="badge badge-warn">not acknowledged<\/span>/);

    // The POS acknowledges: the timeline fragment says so for that key.
    const ack = await t.app.inject({
      method: 'POST',
      url: '/v1/events/acknowledgment',
      headers: bearer(me.token),
      payload: [{ id: eventIdOf('CREATED'), orderId: order.id, eventType: 'CREATED' }],
    });
    expect(ack.statusCode).toBe(202);
    const fragment = await s.get(`/console/orders/${order.id}/timeline`);
    expect(fragment.statusCode).toBe(200);
    expect(fragment.body).not.toContain('<html');
    expect(fragment.body).toMatch(/key-[0-9a-f]{8}: <span class="badge badge-ok">acknowledged<\/span> <time/);
  });

  it('the timeline shows each check of the delivery code, right or wrong, and who checked', async () => {
    const me = await createMerchant(t.app, 'Açougue Código');
    const order = await createSimpleOrder(t.app, me.merchantId);
    const check = (deliveryCode: string) =>
      t.app.inject({
        method: 'POST',
        url: `/v1/orders/${order.id}/validateCode`,
        headers: bearer(me.token),
        payload: { deliveryCode },
      });
    expect((await check('0000')).statusCode).toBe(400);
    expect((await check(order.deliveryCode)).statusCode).toBe(200);
    const s = await login(t.app);
    const page = await s.get(`/console/orders/${order.id}/timeline`);
    expect(page.statusCode).toBe(200);
    const wrong = page.body.indexOf('<strong>Delivery code checked: wrong (by the POS)</strong>');
    const right = page.body.indexOf('<strong>Delivery code checked: right (by the POS)</strong>');
    expect(wrong).toBeGreaterThan(0);
    // Oldest first: the wrong try, then the right one.
    expect(right).toBeGreaterThan(wrong);
    expect(page.body).toContain('<span class="badge badge-muted">Delivery code</span>');
  });

  it('plays the platform: customer cancellation, POS tracking, conclude', async () => {
    const me = await createMerchant(t.app);
    const order = await createSimpleOrder(t.app, me.merchantId);
    const s = await login(t.app);

    const cancel = await s.post(`/console/orders/${order.id}/customerCancellation`, { reason: 'Mudei de ideia' });
    expect(cancel.statusCode).toBe(303);
    expect(cancel.headers.location).toBe(`/console/orders/${order.id}?done=customerCancellation`);
    // Asked again (an old tab): the order page comes back saying so in plain words.
    const again = await s.post(`/console/orders/${order.id}/customerCancellation`, {});
    expect(again.statusCode).toBe(400);
    expect(again.body).toContain(
      '“Request cancellation as the customer” cannot be done to this order now (it is Created).',
    );
    const page = await s.get(`/console/orders/${order.id}`);
    expect(page.body).toContain('<strong>ORDER_CANCELLATION_REQUEST</strong>');
    expect(page.body).toContain('<dt title="reason">reason</dt><dd>Mudei de ideia</dd>');

    const confirm = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/confirm`,
      headers: bearer(me.token),
      payload: { createdAt: new Date().toISOString(), orderExternalCode: 'PDV-1' },
    });
    expect(confirm.statusCode).toBe(202);
    const track = await t.app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/tracking`,
      headers: bearer(me.token),
      payload: { deliveryTrackingInfo: { geoLocalization: { latitude: -23.5, longitude: -46.6 } } },
    });
    expect(track.statusCode).toBe(202);

    const partner = await createLogisticsApp(t.app, [me.merchantId]);
    const update = JSON.stringify(deliveryUpdate(order, { id: me.merchantId }, { type: 'DELIVERY_ONGOING' }));
    const logistics = await signedCall(t.app, partner, me.merchantId, 'deliveryUpdate', update);
    expect(logistics.statusCode, logistics.body).toBeLessThan(300);
    const withLogistics = await s.get(`/console/orders/${order.id}/timeline`);
    expect(withLogistics.body).toContain('<strong>Logistics DELIVERY_ONGOING</strong>');
    expect(withLogistics.body).toContain('<span class="badge badge-muted">Logistics</span>');

    const concluded = await s.post(`/console/orders/${order.id}/events`, { eventType: 'CONCLUDED', confirm: 'yes' });
    expect(concluded.statusCode).toBe(303);
    const done = await s.get(`/console/orders/${order.id}`);
    expect(done.body).toContain(
      '<span class="badge badge-ok" title="CONCLUDED" data-code="CONCLUDED">Concluded</span>',
    );
    expect(done.body).toContain('<strong>Tracking update</strong>');
    expect(done.body).toContain('nothing more can happen to it');
    const twice = await s.post(`/console/orders/${order.id}/events`, { eventType: 'CONCLUDED', confirm: 'yes' });
    expect(twice.statusCode).toBe(400);
    expect(twice.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(twice.body).toContain('role="alert"');
    const bad = await s.post(`/console/orders/${order.id}/events`, { eventType: 'DELIVERED' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('That is not one of the platform’s actions.');
    expect(bad.body).not.toContain('eventType');
  });
});

describe('merchants', () => {
  it('creates a merchant and a key whose secret is shown once and works', async () => {
    const s = await login(t.app);
    const created = await s.post('/console/merchants', { name: 'Boi na Brasa', status: 'AVAILABLE' });
    const merchantId = /([0-9a-f-]{36})/.exec(created.headers.location as string)?.[1] as string;
    const keyPage = await s.post(`/console/merchants/${merchantId}/keys`, { name: 'PDV loja 1' });
    expect(keyPage.statusCode).toBe(201);
    expect(keyPage.headers['cache-control']).toBe('no-store');
    const secret = /<code id="client-secret" class="wrap">([^<]+)<\/code>/.exec(keyPage.body)?.[1] as string;
    expect(secret).toBeTruthy();
    const token = await t.app.inject({
      method: 'POST',
      url: '/oauth/token',
      payload: { client_id: merchantId, client_secret: secret, grant_type: 'client_credentials' },
    });
    expect(token.statusCode).toBe(200);
    const again = await s.get(`/console/merchants/${merchantId}`);
    expect(again.body).toContain('PDV loja 1');
    expect(again.body).not.toContain(secret);
    const list = await s.get('/console/merchants');
    expect(list.body).toMatch(/<td data-label="Keys" class="num">1<\/td>\s*<td data-label="Last seen"><time/);

    const status = await s.post(`/console/merchants/${merchantId}/status`, { status: 'UNAVAILABLE' });
    expect(status.statusCode).toBe(303);
    expect((await t.services.merchants.requireMerchant(merchantId)).status).toBe('UNAVAILABLE');
  });
});
