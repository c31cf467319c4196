// D36: the `platform` role, for the marketplace's service tokens: order intake, the platform's
// order actions, reading merchants, catalogs, orders and the feed; anything else is 403; its
// calls are audited; it stands beside the viewer < support < admin ladder.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../support/expect-error.js';
import { createProduct } from '../support/orders.js';
import { adminHeaders, createMerchant, createTestApp, type TestApp } from '../support/test-app.js';
import { createOperator, type TestOperator } from './support.js';

let t: TestApp;
let platform: TestOperator;
beforeAll(async () => {
  t = await createTestApp();
  platform = await createOperator(t.app, 'platform');
});
afterAll(() => t.close());

const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
  t.app.inject({ method, url: `/admin/v1${url}`, headers: platform.headers, payload });

describe('the platform role', () => {
  it('hands in an order, acts on it, reads it and the feed; audited under its name', async () => {
    const me = await createMerchant(t.app, 'Açougue Plataforma');
    const product = await createProduct(t.app, me.merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
    const created = await call('POST', `/merchants/${me.merchantId}/orders`, {
      type: 'DELIVERY',
      items: [{ productId: product.id, quantity: 1 }],
    });
    expect(created.statusCode).toBe(201);
    const orderId = created.json().id as string;
    expect((await call('GET', `/orders/${orderId}`)).statusCode).toBe(200);
    expect((await call('GET', `/merchants/${me.merchantId}`)).statusCode).toBe(200);
    expect((await call('GET', `/merchants/${me.merchantId}/products/${product.id}`)).statusCode).toBe(200);
    const cancelled = await call('POST', `/orders/${orderId}/events`, { eventType: 'CANCELLED' });
    expect(cancelled.statusCode).toBe(202);
    const feed = await call('GET', `/feed?merchantId=${me.merchantId}&kinds=order`);
    expect(feed.statusCode).toBe(200);
    expect(feed.json().items.map((i: { type: string }) => i.type)).toEqual(['CREATED', 'CANCELLED']);
    const audit = await t.app.inject({
      method: 'GET',
      url: `/admin/v1/audit?actor=${encodeURIComponent(platform.email)}`,
      headers: adminHeaders,
    });
    expect(audit.json().map((e: { action: string }) => e.action)).toEqual(['order.platformEvent', 'order.create']);
  });

  it.each([
    ['GET', '/audit', undefined, 'viewer'],
    ['GET', '/notices', undefined, 'viewer'],
    ['GET', '/operators', undefined, 'viewer'],
    ['POST', '/merchants', { name: 'x' }, 'admin'],
  ] as const)('%s %s is 403', async (method, url, payload, needed) => {
    const res = await call(method, url, payload);
    expectError(res, 403, `Forbidden: this needs the ${needed} role (yours is platform)`);
  });

  it('tokens: an admin may give one; a viewer may not; a platform operator holds platform tokens only', async () => {
    const viewer = await createOperator(t.app, 'viewer');
    const refused = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${viewer.id}/tokens`,
      headers: adminHeaders,
      payload: { role: 'platform' },
    });
    expectError(refused, 400, "role must not be higher than the operator's role (viewer)");
    const support = await createOperator(t.app, 'support');
    const given = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${support.id}/tokens`,
      headers: adminHeaders,
      payload: { role: 'platform' },
    });
    expect(given.statusCode).toBe(201);
    expect(given.json().role).toBe('platform');
    const upward = await t.app.inject({
      method: 'POST',
      url: `/admin/v1/operators/${platform.id}/tokens`,
      headers: adminHeaders,
      payload: { role: 'viewer' },
    });
    expectError(upward, 400, "role must not be higher than the operator's role (platform)");
  });

  it('a platform token of an operator who became a viewer acts as nothing', async () => {
    const op = await createOperator(t.app, 'platform');
    const demoted = await t.app.inject({
      method: 'PATCH',
      url: `/admin/v1/operators/${op.id}`,
      headers: adminHeaders,
      payload: { role: 'viewer' },
    });
    expect(demoted.statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/admin/v1/feed', headers: op.headers });
    expectError(res, 401, 'Invalid operator token');
  });
});
