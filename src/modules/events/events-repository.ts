import type { Queryable } from '../../db/db.js';

export interface OrderEventRow {
  order_id: string;
  event_type: string;
  occurrence_id: string;
  metadata: Record<string, unknown> | null;
  created_at: Date;
}

/**
 * D1: one row per (order, event type). A repeat re-opens it: new occurrence id, new createdAt,
 * new seq (so it is polled again after the events in between).
 */
export async function upsertEvent(
  db: Queryable,
  e: {
    orderId: string;
    eventType: string;
    merchantId: string;
    occurrenceId: string;
    metadata: Record<string, unknown> | undefined;
    at: Date;
  },
): Promise<number> {
  const { rows } = await db.query<{ seq: number }>(
    `INSERT INTO order_events (order_id, event_type, merchant_id, occurrence_id, seq, metadata, created_at)
     VALUES ($1, $2, $3, $4, nextval('order_events_seq'), $5::jsonb, $6)
     ON CONFLICT (order_id, event_type) DO UPDATE
       SET occurrence_id = EXCLUDED.occurrence_id, seq = EXCLUDED.seq, metadata = EXCLUDED.metadata,
           created_at = EXCLUDED.created_at
     RETURNING seq`,
    [e.orderId, e.eventType, e.merchantId, e.occurrenceId, e.metadata ? JSON.stringify(e.metadata) : null, e.at],
  );
  return rows[0].seq;
}

/**
 * The fan-out: a pending receipt for every live integration key of the merchant, set-based.
 * A re-opened event is pending again for every key, including keys that acknowledged it (D1).
 */
export async function fanOutReceipts(
  db: Queryable,
  e: { merchantId: string; orderId: string; eventType: string; seq: number },
): Promise<void> {
  await db.query(
    `INSERT INTO event_receipts (key_id, order_id, event_type, seq, acknowledged_at)
     SELECT k.id, $2, $3, $4, NULL FROM integration_keys k WHERE k.merchant_id = $1 AND k.deleted_at IS NULL
     ON CONFLICT (key_id, order_id, event_type) DO UPDATE SET seq = EXCLUDED.seq, acknowledged_at = NULL`,
    [e.merchantId, e.orderId, e.eventType, e.seq],
  );
}

export async function insertLogEntry(
  db: Queryable,
  e: {
    occurrenceId: string;
    orderId: string;
    eventType: string;
    metadata: Record<string, unknown> | undefined;
    polled: boolean;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO order_event_log (occurrence_id, order_id, event_type, metadata, polled, created_at)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6)`,
    [e.occurrenceId, e.orderId, e.eventType, e.metadata ? JSON.stringify(e.metadata) : null, e.polled, e.at],
  );
}

const POLL_COLUMNS = 'e.order_id, e.event_type, e.occurrence_id, e.metadata, e.created_at';

/** D3: the calling key's pending events, oldest first; reads only the partial pending index. */
export async function pendingEventsOfKey(
  db: Queryable,
  keyId: string,
  eventTypes: string[] | undefined,
  limit: number,
): Promise<OrderEventRow[]> {
  const { rows } = eventTypes
    ? await db.query<OrderEventRow>(
        `SELECT ${POLL_COLUMNS} FROM event_receipts r
           JOIN order_events e ON e.order_id = r.order_id AND e.event_type = r.event_type
          WHERE r.key_id = $1 AND r.acknowledged_at IS NULL AND r.event_type = ANY($2::text[])
          ORDER BY r.seq LIMIT $3`,
        [keyId, eventTypes, limit],
      )
    : await db.query<OrderEventRow>(
        `SELECT ${POLL_COLUMNS} FROM event_receipts r
           JOIN order_events e ON e.order_id = r.order_id AND e.event_type = r.event_type
          WHERE r.key_id = $1 AND r.acknowledged_at IS NULL
          ORDER BY r.seq LIMIT $2`,
        [keyId, limit],
      );
  return rows;
}

/** The merchant an order belongs to, read from its events (every order has CREATED). */
export async function merchantOfOrder(db: Queryable, orderId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ merchant_id: string }>(
    'SELECT merchant_id FROM order_events WHERE order_id = $1 LIMIT 1',
    [orderId],
  );
  return rows[0]?.merchant_id;
}

/** Spec 4.13 rule 3: acknowledging twice changes nothing the second time. */
export async function acknowledgeReceipt(
  db: Queryable,
  r: { keyId: string; orderId: string; eventType: string; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE event_receipts SET acknowledged_at = $4
      WHERE key_id = $1 AND order_id = $2 AND event_type = $3 AND acknowledged_at IS NULL`,
    [r.keyId, r.orderId, r.eventType, r.at],
  );
  return rowCount > 0;
}

export interface LogEntryRow {
  occurrence_id: string;
  event_type: string;
  metadata: Record<string, unknown> | null;
  polled: boolean;
  created_at: Date;
  /** Only on the current occurrence of a polled event type. */
  current: boolean;
}

export async function orderTimeline(db: Queryable, orderId: string): Promise<LogEntryRow[]> {
  const { rows } = await db.query<LogEntryRow>(
    `SELECT l.occurrence_id, l.event_type, l.metadata, l.polled, l.created_at,
            (e.occurrence_id IS NOT NULL) AS current
       FROM order_event_log l
       LEFT JOIN order_events e ON e.order_id = l.order_id AND e.occurrence_id = l.occurrence_id
      WHERE l.order_id = $1
      ORDER BY l.position`,
    [orderId],
  );
  return rows;
}

export interface ReceiptRow {
  key_id: string;
  event_type: string;
  acknowledged_at: Date | null;
}

export async function receiptsOfOrder(db: Queryable, orderId: string): Promise<ReceiptRow[]> {
  const { rows } = await db.query<ReceiptRow>(
    'SELECT key_id, event_type, acknowledged_at FROM event_receipts WHERE order_id = $1 ORDER BY key_id',
    [orderId],
  );
  return rows;
}
