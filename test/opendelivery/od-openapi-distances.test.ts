// The OpenAPI document describes both dialects (D27, D28): which answers and codes depend on the
// profile. And D28.7: tracking and logistics distances are accepted as strings (Open Delivery) or
// numbers (the spec) whatever the profile.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogisticsApp, deliveryUpdate, signedCall } from '../support/logistics.js';
import { createSimpleOrder } from '../support/orders.js';
import { createTestApp, type TestApp } from '../support/test-app.js';
import { connectPos, createKey, createMerchantOnly, expectOdError } from './od-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

interface Operation {
  description?: string;
  security?: unknown[];
  responses: Record<string, { description?: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
}

describe('the OpenAPI document (D27, D28)', () => {
  const doc = () => t.app.swagger() as unknown as { paths: Record<string, Record<string, Operation>> };

  it('documents 422 on every order action, with problem+json beside application/json', () => {
    const paths = doc().paths;
    for (const action of [
      'confirm',
      'preparing',
      'readyForPickup',
      'pickedUp',
      'dispatch',
      'delivered',
      'tracking',
      'requestCancellation',
      'acceptCancellation',
      'denyCancellation',
    ]) {
      const op = paths[`/v1/orders/{orderId}/${action}`].post;
      expect(Object.keys(op.responses['422'].content ?? {}).sort(), action).toEqual([
        'application/json',
        'application/problem+json',
      ]);
      expect(op.description, action).toMatch(/422 for an `opendelivery` key/);
    }
    const cancellation = paths['/v1/orders/{orderId}/requestCancellation'].post.responses['422'];
    expect(JSON.stringify(cancellation.content?.['application/problem+json'].schema)).toContain('cancellationStatus');
    expect(paths['/v1/orders/{orderId}/details'].patch.responses).toHaveProperty('200');
  });

  it('every error of a merchant route may be problem+json; the order and status answers name both shapes', () => {
    const paths = doc().paths;
    for (const [path, ops] of Object.entries(paths)) {
      if (!path.startsWith('/v1/') || path.startsWith('/v1/logistics/') || path === '/v1/versions/orderingApp')
        continue;
      for (const [method, op] of Object.entries(ops)) {
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) < 400) continue;
          expect(Object.keys(response.content ?? {}), `${method} ${path} ${status}`).toContain(
            'application/problem+json',
          );
        }
      }
    }
    const order = paths['/v1/orders/{orderId}'].get;
    expect(order.responses['200'].content?.['application/json'].schema.anyOf).toHaveLength(2);
    expect(order.description).toMatch(/`opendelivery` key reads Open Delivery’s Order/);
    const status = paths['/v1/merchantStatus'].get;
    expect(status.responses['200'].content?.['application/json'].schema.anyOf).toHaveLength(2);
    expect(paths['/v1/merchantOnboarding'].put.responses).toHaveProperty('201');
    const polling = paths['/v1/events:polling'].get;
    expect(polling.description).toMatch(/for an `opendelivery` key one occurrence/);
  });

  it('documents the profile of keys and the public version route', () => {
    const paths = doc().paths;
    const patch = paths['/admin/v1/merchants/{merchantId}/integrationKeys/{keyId}'].patch;
    expect(JSON.stringify(patch.requestBody?.content['application/json'].schema)).toContain('opendelivery');
    const versions = paths['/v1/versions/orderingApp'].get;
    expect(versions.security).toEqual([]);
    expect(versions.responses).not.toHaveProperty('401');
  });
});

describe('distances as strings or numbers, in both profiles (D28.7)', () => {
  it('tracking takes either; a distance that is not a number of meters is a 400 naming it', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Distâncias');
    const order = await createSimpleOrder(t.app, merchantId);
    const tracking = (distanceToPickup: unknown, distanceToDelivery: unknown) => ({
      deliveryTrackingInfo: {
        geoLocalization: {
          latitude: -23.5,
          longitude: -46.6,
          lastAddress: { distanceToPickup, distanceToDelivery, timestamp: new Date().toISOString() },
        },
      },
    });
    for (const profile of ['cleaver', 'opendelivery'] as const) {
      const pos = await connectPos(t.app, await createKey(t.app, merchantId, profile));
      expect((await pos.post(`/v1/orders/${order.id}/tracking`, tracking('120', '3400.75'))).statusCode).toBe(202);
      expect((await pos.post(`/v1/orders/${order.id}/tracking`, tracking(120, 3400.75))).statusCode).toBe(202);
      const bad = await pos.post(`/v1/orders/${order.id}/tracking`, tracking('perto', '1'));
      const title =
        'deliveryTrackingInfo.geoLocalization.lastAddress.distanceToPickup must match pattern "^[0-9]+(\\.[0-9]+)?$"';
      if (profile === 'opendelivery') expectOdError(bad, 400, title);
      else expect({ status: bad.statusCode, body: bad.json() }).toEqual({ status: 400, body: { title, status: 400 } });
    }
    const view = await t.app.inject({
      url: `/admin/v1/orders/${order.id}`,
      headers: { authorization: `Bearer ${t.config.adminToken}` },
    });
    const distances = (
      view.json().tracking as Array<{ body: { deliveryTrackingInfo: { geoLocalization: { lastAddress: unknown } } } }>
    ).map((x) => x.body.deliveryTrackingInfo.geoLocalization.lastAddress);
    expect(distances).toHaveLength(4);
    for (const d of distances) expect(d).toMatchObject({ distanceToPickup: 120, distanceToDelivery: 3400.75 });
  });

  it('a logistics partner may send them either way too', async () => {
    const merchantId = await createMerchantOnly(t.app, 'Açougue Logística');
    const order = await createSimpleOrder(t.app, merchantId);
    const partner = await createLogisticsApp(t.app, [merchantId]);
    for (const distances of [
      { distanceToPickup: '800', distanceToDelivery: '1500.5' },
      { distanceToPickup: 800, distanceToDelivery: 1500.5 },
    ]) {
      const body = deliveryUpdate(
        { id: order.id, displayId: order.displayId },
        { id: merchantId },
        { type: 'PICKUP_ONGOING' },
        {
          geoLocalization: {
            latitude: -23.5,
            longitude: -46.6,
            lastAddress: { ...distances, timestamp: new Date().toISOString() },
          },
        },
      );
      const res = await signedCall(t.app, partner, merchantId, 'deliveryUpdate', JSON.stringify(body));
      expect(res.statusCode, res.body).toBe(204);
    }
  });
});
