import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { firstRow } from '../../lib/first-row.js';
import type { OrderDocument } from './order-intake.js';
import type { OrderStatus } from './order-state.js';
import type { TrackingBody } from './orders-schemas.js';

export interface CancellationRequest {
  reason: string;
  code: string;
  mode?: string;
}

export interface OrderRow {
  id: string;
  merchant_id: string;
  type: 'DELIVERY' | 'TAKEOUT';
  display_id: string;
  status: OrderStatus;
  last_event: string;
  event_types: string[];
  customer_cancellation: CancellationRequest | null;
  pos_cancellation: CancellationRequest | null;
  delivery_code: string;
  order_amount: string;
  document: OrderDocument;
  order_external_code: string | null;
  preparation_time_min: number | null;
  preparation_start_at: Date | null;
  delivered_at: Date | null;
  /** D43: what confirmation took from counted stock, by product; null: nothing. */
  stock_taken: Record<string, string> | null;
  /** D44: the slot a scheduled order holds a place in. */
  slot_start: Date | null;
  version: number;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, merchant_id, type, display_id, status, last_event, event_types, customer_cancellation,
  pos_cancellation, delivery_code, order_amount::text AS order_amount, document, order_external_code,
  preparation_time_min, preparation_start_at, delivered_at, stock_taken, slot_start, version, created_at, updated_at`;

export async function insertOrder(
  db: Queryable,
  o: {
    id: string;
    merchantId: string;
    type: string;
    displayId: string;
    customerId: string;
    deliveryCode: string;
    totals: { itemsPrice: string; otherFees: string; discount: string; orderAmount: string };
    document: OrderDocument;
    at: Date;
    /** D44: a scheduled order's slot, preparation start and confirmation deadline. */
    schedule?: { slotStart: Date; preparationStartAt: Date; confirmBy: Date };
  },
): Promise<void> {
  await db.query(
    `INSERT INTO orders (id, merchant_id, type, display_id, status, last_event, event_types, customer_id,
                         delivery_code, items_price, other_fees, discount, order_amount, document, created_at, updated_at,
                         slot_start, preparation_start_at, confirm_by)
     VALUES ($1, $2, $3, $4, 'CREATED', 'CREATED', '{CREATED}', $5, $6, $7::numeric, $8::numeric, $9::numeric, $10::numeric,
             $11::jsonb, $12, $12, $13, $14, $15)`,
    [
      o.id,
      o.merchantId,
      o.type,
      o.displayId,
      o.customerId,
      o.deliveryCode,
      o.totals.itemsPrice,
      o.totals.otherFees,
      o.totals.discount,
      o.totals.orderAmount,
      JSON.stringify(o.document),
      o.at,
      o.schedule?.slotStart ?? null,
      o.schedule?.preparationStartAt ?? null,
      o.schedule?.confirmBy ?? null,
    ],
  );
}

/** D43: what the order holds of counted stock (in its change's transaction). */
export async function setStockTaken(db: Queryable, id: string, taken: Record<string, string> | null): Promise<void> {
  await db.query('UPDATE orders SET stock_taken = $2::jsonb WHERE id = $1', [id, taken ? JSON.stringify(taken) : null]);
}

/** What a POS's view of an order is made of (order-view.ts, od-order-view.ts). */
export type OrderViewRow = Pick<
  OrderRow,
  'id' | 'merchant_id' | 'last_event' | 'document' | 'preparation_start_at' | 'delivered_at'
>;

/**
 * The read behind GET /v1/orders/{id}: only the six columns its views use. The whole row (19
 * columns, two more JSON values, a text array and four timestamps to parse) cost about a fifth of
 * the route's CPU in PostgreSQL and Node (docs/benchmarks.md, "GET /v1/orders/{id}").
 */
export async function findOrderView(db: Queryable, id: string): Promise<OrderViewRow | undefined> {
  const { rows } = await db.query<OrderViewRow>(
    'SELECT id, merchant_id, last_event, document, preparation_start_at, delivered_at FROM orders WHERE id = $1',
    [id],
    { prepare: 'orders-view-by-id' },
  );
  return rows[0];
}

export async function findOrder(db: Queryable, id: string): Promise<OrderRow | undefined> {
  const { rows } = await db.query<OrderRow>(`SELECT ${COLUMNS} FROM orders WHERE id = $1`, [id]);
  return rows[0];
}

/** Rows locked for the caller's transaction, in id order (a fixed lock order cannot deadlock). */
export async function findOrdersForUpdate(db: Queryable, ids: string[]): Promise<OrderRow[]> {
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM orders WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE`,
    [ids],
  );
  return rows;
}

export interface OrderState {
  status: OrderStatus;
  lastEvent: string;
  eventTypes: string[];
  customerCancellation: CancellationRequest | null;
  posCancellation: CancellationRequest | null;
  orderExternalCode: string | null;
  preparationTimeMin: number | null;
  preparationStartAt: Date | null;
  deliveredAt: Date | null;
}

export const stateOf = (o: OrderRow): OrderState => ({
  status: o.status,
  lastEvent: o.last_event,
  eventTypes: o.event_types,
  customerCancellation: o.customer_cancellation,
  posCancellation: o.pos_cancellation,
  orderExternalCode: o.order_external_code,
  preparationTimeMin: o.preparation_time_min,
  preparationStartAt: o.preparation_start_at,
  deliveredAt: o.delivered_at,
});

/** Compare-and-set (style.md#sql): false when another change got there first. */
export async function updateOrderIfVersion(
  db: Queryable,
  id: string,
  version: number,
  s: OrderState,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE orders SET status = $3, last_event = $4, event_types = $5::text[], customer_cancellation = $6::jsonb,
            pos_cancellation = $7::jsonb, order_external_code = $8, preparation_time_min = $9,
            preparation_start_at = $10, delivered_at = $11, version = version + 1, updated_at = $12
      WHERE id = $1 AND version = $2`,
    [
      id,
      version,
      s.status,
      s.lastEvent,
      s.eventTypes,
      s.customerCancellation ? JSON.stringify(s.customerCancellation) : null,
      s.posCancellation ? JSON.stringify(s.posCancellation) : null,
      s.orderExternalCode,
      s.preparationTimeMin,
      s.preparationStartAt,
      s.deliveredAt,
      at,
    ],
  );
  return rowCount === 1;
}

/**
 * D38: a weighing's compare-and-set: the new document and the two totals it changes, only if no
 * other change of the order got there first (false then).
 */
export async function updateWeighedOrderIfVersion(
  db: Queryable,
  id: string,
  version: number,
  w: { document: OrderDocument; itemsPrice: string; orderAmount: string },
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE orders SET document = $3::jsonb, items_price = $4::numeric, order_amount = $5::numeric,
            version = version + 1, updated_at = $6
      WHERE id = $1 AND version = $2`,
    [id, version, JSON.stringify(w.document), w.itemsPrice, w.orderAmount, at],
  );
  return rowCount === 1;
}

export interface WeighingRow {
  id: string;
  order_id: string;
  key_id: string | null;
  lines: Array<{ index: number; orderedQuantity: number; quantity: number }>;
  items_price_before: string;
  items_price_after: string;
  order_amount_after: string;
  weighing_adjustment: { value: number; currency: string } | null;
  weighed_at: Date;
}

export async function insertWeighing(db: Queryable, w: Omit<WeighingRow, 'order_id'> & { orderId: string }) {
  await db.query(
    `INSERT INTO order_weighings (id, order_id, key_id, lines, items_price_before, items_price_after,
                                  order_amount_after, weighing_adjustment, weighed_at)
     VALUES ($1, $2, $3, $4::jsonb, $5::numeric, $6::numeric, $7::numeric, $8::jsonb, $9)`,
    [
      w.id,
      w.orderId,
      w.key_id,
      JSON.stringify(w.lines),
      w.items_price_before,
      w.items_price_after,
      w.order_amount_after,
      w.weighing_adjustment ? JSON.stringify(w.weighing_adjustment) : null,
      w.weighed_at,
    ],
  );
}

/** An order's weighings, oldest first (its timeline, D38). */
export async function listWeighings(db: Queryable, orderId: string): Promise<WeighingRow[]> {
  const { rows } = await db.query<WeighingRow>(
    `SELECT id, order_id, key_id, lines, items_price_before::text AS items_price_before,
            items_price_after::text AS items_price_after, order_amount_after::text AS order_amount_after,
            weighing_adjustment, weighed_at
       FROM order_weighings WHERE order_id = $1 ORDER BY position`,
    [orderId],
  );
  return rows;
}

export async function countCustomerOrders(db: Queryable, merchantId: string, customerId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM orders WHERE merchant_id = $1 AND customer_id = $2',
    [merchantId, customerId],
  );
  return firstRow(rows, 'count of customer orders').n;
}

export async function insertTracking(
  db: Queryable,
  t: { id: string; orderId: string; keyId: string | null; body: unknown; at: Date },
): Promise<void> {
  await db.query(
    'INSERT INTO order_tracking (id, order_id, key_id, body, received_at) VALUES ($1, $2, $3, $4::jsonb, $5)',
    [t.id, t.orderId, t.keyId, JSON.stringify(t.body), t.at],
  );
}

export async function listTracking(
  db: Queryable,
  orderId: string,
): Promise<Array<{ id: string; key_id: string | null; body: Static<typeof TrackingBody>; received_at: Date }>> {
  const { rows } = await db.query<{
    id: string;
    key_id: string | null;
    body: Static<typeof TrackingBody>;
    received_at: Date;
  }>('SELECT id, key_id, body, received_at FROM order_tracking WHERE order_id = $1 ORDER BY position', [orderId]);
  return rows;
}

/** What an operator list of orders filters on (operator-api.md#lists). */
export interface OrderListFilter {
  merchantId?: string;
  status?: string;
  since?: Date;
  /** An order id, or a display id as the customer and the POS see it (exact). */
  q?: string;
  /** Keyset position: the (created_at, id) of the last row of the previous page. */
  after?: { at: Date; id: string };
  limit: number;
}

/**
 * Orders newest first, a keyset page at a time: `(created_at, id) < after` walks the
 * (merchant_id, created_at, id) and (created_at, id) indexes backwards, so page 1,000 costs what
 * page 1 does.
 */
export async function listOrders(db: Queryable, filter: OrderListFilter): Promise<OrderRow[]> {
  const q = filter.q?.trim() || null;
  const qIsId = q !== null && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(q);
  const { rows } = await db.query<OrderRow>(
    `SELECT ${COLUMNS} FROM orders
      WHERE ($1::uuid IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR status = $2)
        AND ($3::timestamptz IS NULL OR created_at >= $3)
        AND ($4::uuid IS NULL OR id = $4) AND ($5::text IS NULL OR display_id = $5)
        AND ($6::timestamptz IS NULL OR (created_at, id) < ($6, $7::uuid))
      ORDER BY created_at DESC, id DESC LIMIT $8`,
    [
      filter.merchantId ?? null,
      filter.status ?? null,
      filter.since ?? null,
      qIsId ? q.toLowerCase() : null,
      q !== null && !qIsId ? q : null,
      filter.after?.at ?? null,
      filter.after?.id ?? null,
      filter.limit,
    ],
  );
  return rows;
}

// ---- Retention (D30) --------------------------------------------------------------------------

/** Finished orders whose history is older than `before` and not pruned yet, oldest first. */
export async function finishedOrdersToPrune(db: Queryable, before: Date, limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT id FROM orders
      WHERE status IN ('DELIVERED', 'CONCLUDED', 'CANCELLED') AND history_pruned_at IS NULL AND updated_at < $1
      ORDER BY updated_at LIMIT $2`,
    [before, limit],
  );
  return rows.map((r) => r.id);
}

/** The order's own history (tracking, weighings), and the mark that its history is pruned. */
export async function pruneOrderHistory(db: Queryable, orderIds: string[], at: Date): Promise<number> {
  if (orderIds.length === 0) return 0;
  const tracking = await db.query('DELETE FROM order_tracking WHERE order_id = ANY($1::uuid[])', [orderIds]);
  // D38: the weighings' timeline entries are history too; the document keeps their result.
  await db.query('DELETE FROM order_weighings WHERE order_id = ANY($1::uuid[])', [orderIds]);
  await db.query('UPDATE orders SET history_pruned_at = $2 WHERE id = ANY($1::uuid[])', [orderIds, at]);
  return tracking.rowCount;
}
