import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { Db } from '../../src/db/db.js';
import { newId } from '../../src/lib/ids.js';
import { confirmBody } from './order-session.js';
import { adminHeaders, bearer, type MerchantCredentials } from './test-app.js';

/** A hand-made product through the operator API (pdv_external_id null). */
export async function createProduct(
  app: FastifyInstance,
  merchantId: string,
  product: { name?: string; price: number; unit: 'KG' | 'UN'; status?: 'AVAILABLE' | 'UNAVAILABLE' },
): Promise<{ id: string; externalCode: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/products`,
    headers: adminHeaders,
    payload: { name: product.name ?? 'Produto', ...product },
  });
  if (res.statusCode !== 201) throw new Error(`product: ${res.statusCode} ${res.body}`);
  return res.json();
}

/**
 * A product linked to the POS (pdv_external_id set). Only a catalog upload creates these through
 * the interface; this fixture writes the row directly for order tests.
 */
export async function insertPosProduct(
  db: Db,
  merchantId: string,
  p: { pdvId: string; name: string; price: string; unit: 'KG' | 'UN'; externalCode?: string },
): Promise<string> {
  const id = newId();
  await db.query(
    `INSERT INTO products (id, merchant_id, pdv_external_id, name, price, unit, external_code)
     VALUES ($1, $2, $3, $4, $5::numeric, $6, $7)`,
    [id, merchantId, p.pdvId, p.name, p.price, p.unit, p.externalCode ?? `SC-${p.pdvId}`],
  );
  return id;
}

/** Hands in an order through the operator API; returns the 201 body. */
export async function createOrder(
  app: FastifyInstance,
  merchantId: string,
  body: Record<string, unknown>,
): Promise<Record<string, unknown> & { id: string; deliveryCode: string }> {
  const res = await app.inject({
    method: 'POST',
    url: `/admin/v1/merchants/${merchantId}/orders`,
    headers: adminHeaders,
    payload: body,
  });
  if (res.statusCode !== 201) throw new Error(`order: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A merchant with one product and one DELIVERY order: the smallest valid setup. */
export async function createSimpleOrder(app: FastifyInstance, merchantId: string, type = 'DELIVERY') {
  const product = await createProduct(app, merchantId, { name: 'Picanha', price: 89.9, unit: 'KG' });
  return createOrder(app, merchantId, { type, items: [{ productId: product.id, quantity: 1.25 }] });
}

/**
 * One DELIVERY order through its life over the POS API, each step awaited (confirm, ready,
 * dispatch, tracking): the feed's tests read its items back in this order (D36).
 */
export async function orderLife(app: FastifyInstance, me: MerchantCredentials, productId: string): Promise<string> {
  const order = await createOrder(app, me.merchantId, { type: 'DELIVERY', items: [{ productId, quantity: 1 }] });
  const post = async (action: string, payload?: object) => {
    const res = await app.inject({
      method: 'POST',
      url: `/v1/orders/${order.id}/${action}`,
      headers: bearer(me.token),
      payload,
    });
    expect(res.statusCode, `${action}: ${res.body}`).toBe(202);
  };
  await post('confirm', confirmBody);
  await post('readyForPickup');
  await post('dispatch', { deliveryTrackingInfo: { status: 'ON_THE_WAY' } });
  await post('tracking', { deliveryTrackingInfo: { status: 'ARRIVING' } });
  return order.id;
}
