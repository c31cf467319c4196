import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/db.js';
import { newId } from '../../src/lib/ids.js';
import { adminHeaders } from './test-app.js';

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
