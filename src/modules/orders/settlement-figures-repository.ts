// D45: what a concluded order brings to its merchant's statement, read in the transaction that
// concludes it: the order's final amount (items as last weighed, fees, less discounts) and the
// part of its payments made on delivery (PENDING: cash or card handed to the shop, which
// therefore already holds that money).
import type { Queryable } from '../../db/db.js';
import { Decimal } from '../../lib/money.js';
import type { OrderDocument } from './order-intake.js';

export interface OrderSettlementFigures {
  merchantId: string;
  /** Decimal text (D9). */
  orderAmount: string;
  /** Decimal text: the PENDING payment methods' values. */
  collectedOnDelivery: string;
}

export async function orderSettlementFigures(q: Queryable, orderId: string): Promise<OrderSettlementFigures | null> {
  const { rows } = await q.query<{ merchant_id: string; order_amount: string; payments: OrderDocument['payments'] }>(
    `SELECT merchant_id, order_amount::text AS order_amount, document->'payments' AS payments FROM orders WHERE id = $1`,
    [orderId],
  );
  const row = rows[0];
  if (!row) return null;
  const collected = (row.payments?.methods ?? [])
    .filter((m) => m.type === 'PENDING')
    .reduce((sum, m) => sum.plus(new Decimal(String(m.value))), new Decimal(0));
  return { merchantId: row.merchant_id, orderAmount: row.order_amount, collectedOnDelivery: collected.toFixed() };
}
