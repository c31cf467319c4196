import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { firstRow } from '../../lib/first-row.js';
import { currentTraceparent, linkActiveSpan, tracingOn } from '../../lib/tracing.js';
import type { EventMetadata } from './events-schemas.js';

export interface OrderEventRow {
  order_id: string;
  event_type: string;
  occurrence_id: string;
  metadata: Static<typeof EventMetadata> | null;
  created_at: Date;
  /** The trace that recorded the event (migration 0029), null while tracing was off. */
  traceparent: string | null;
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
    `INSERT INTO order_events (order_id, event_type, merchant_id, occurrence_id, seq, metadata, created_at, traceparent)
     VALUES ($1, $2, $3, $4, nextval('order_events_seq'), $5::jsonb, $6, $7)
     ON CONFLICT (order_id, event_type) DO UPDATE
       SET occurrence_id = EXCLUDED.occurrence_id, seq = EXCLUDED.seq, metadata = EXCLUDED.metadata,
           created_at = EXCLUDED.created_at, traceparent = EXCLUDED.traceparent
     RETURNING seq`,
    [
      e.orderId,
      e.eventType,
      e.merchantId,
      e.occurrenceId,
      e.metadata ? JSON.stringify(e.metadata) : null,
      e.at,
      // The trace of the change that recorded it (null while tracing is off): the POS's poll and
      // acknowledgement link to it.
      currentTraceparent(),
    ],
  );
  return firstRow(rows, 'upsert of an order event').seq;
}

/**
 * The NOTIFY channel of the fan-out: the payload is the id of a key that got a pending receipt.
 * Sent in the receipts' transaction, so delivered only once they are committed; each process
 * forgets that the key had nothing pending (src/modules/events/pending-keys.ts).
 */
export const PENDING_CHANNEL = 'cleaver_event_receipts';

/**
 * The fan-out: a pending receipt for every live integration key of the merchant, set-based.
 * A re-opened event is pending again for every key, including keys that acknowledged it (D1),
 * and its receipts now stand for the new occurrence (D28). Each key is notified (PENDING_CHANNEL);
 * PostgreSQL sends one notification per key and transaction, however many events it records.
 * An opt-in type (D42) goes only to the keys whose extra_event_types name it.
 */
export async function fanOutReceipts(
  db: Queryable,
  e: { merchantId: string; orderId: string; eventType: string; seq: number; occurrenceId: string; optIn?: boolean },
): Promise<void> {
  await db.query(
    `WITH fanned AS (
       INSERT INTO event_receipts (key_id, order_id, event_type, seq, occurrence_id, acknowledged_at)
       SELECT k.id, $2, $3, $4, $5, NULL FROM integration_keys k
        WHERE k.merchant_id = $1 AND k.deleted_at IS NULL AND (NOT $6::boolean OR $3 = ANY(k.extra_event_types))
       ON CONFLICT (key_id, order_id, event_type) DO UPDATE
         SET seq = EXCLUDED.seq, occurrence_id = EXCLUDED.occurrence_id, acknowledged_at = NULL
       RETURNING key_id)
     SELECT pg_notify('${PENDING_CHANNEL}', key_id::text) FROM fanned`,
    [e.merchantId, e.orderId, e.eventType, e.seq, e.occurrenceId, e.optIn === true],
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
    `INSERT INTO order_event_log (occurrence_id, order_id, event_type, metadata, polled, created_at, traceparent)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7)`,
    [
      e.occurrenceId,
      e.orderId,
      e.eventType,
      e.metadata ? JSON.stringify(e.metadata) : null,
      e.polled,
      e.at,
      currentTraceparent(),
    ],
  );
}

const POLL_COLUMNS = 'e.order_id, e.event_type, e.occurrence_id, e.metadata, e.created_at, e.traceparent';

/** D42: the opt-in event types a key asked for (empty for a deleted or unknown key). */
export async function extraEventTypesOfKey(db: Queryable, keyId: string): Promise<string[]> {
  const { rows } = await db.query<{ extra_event_types: string[] }>(
    'SELECT extra_event_types FROM integration_keys WHERE id = $1 AND deleted_at IS NULL',
    [keyId],
  );
  return rows[0]?.extra_event_types ?? [];
}

/** D42: a key's pending receipts of opt-in types it no longer asks for. */
export async function dropPendingReceiptsOfTypes(db: Queryable, keyId: string, types: string[]): Promise<void> {
  await db.query(
    'DELETE FROM event_receipts WHERE key_id = $1 AND acknowledged_at IS NULL AND event_type = ANY($2::text[])',
    [keyId, types],
  );
}

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
        { prepare: 'events-pending-of-key-by-type' },
      )
    : await db.query<OrderEventRow>(
        `SELECT ${POLL_COLUMNS} FROM event_receipts r
           JOIN order_events e ON e.order_id = r.order_id AND e.event_type = r.event_type
          WHERE r.key_id = $1 AND r.acknowledged_at IS NULL
          ORDER BY r.seq LIMIT $2`,
        [keyId, limit],
        { prepare: 'events-pending-of-key' },
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

/**
 * D28: an acknowledgment naming an occurrence id. Which merchant owns `orderId` (as
 * merchantOfOrder), and the order, event type and merchant of the occurrence, if it exists.
 */
export async function lookupOccurrence(
  db: Queryable,
  occurrenceId: string,
  orderId: string,
): Promise<{
  owner: string | null;
  occurrence: { order_id: string; event_type: string; merchant_id: string } | null;
}> {
  const { rows } = await db.query<{
    owner: string | null;
    order_id: string | null;
    event_type: string | null;
    merchant_id: string | null;
  }>(
    `SELECT (SELECT merchant_id FROM order_events WHERE order_id = $2 LIMIT 1) AS owner,
            l.order_id, l.event_type,
            (SELECT merchant_id FROM order_events WHERE order_id = l.order_id LIMIT 1) AS merchant_id
       FROM (SELECT 1) one
       LEFT JOIN order_event_log l ON l.occurrence_id = $1`,
    [occurrenceId, orderId],
  );
  const row = rows[0];
  return {
    owner: row?.owner ?? null,
    occurrence:
      row?.order_id && row.event_type && row.merchant_id
        ? { order_id: row.order_id, event_type: row.event_type, merchant_id: row.merchant_id }
        : null,
  };
}

/**
 * While tracing is on, an acknowledgement's span links to the trace that recorded the event (the
 * order's intake or change); off, the statement is the plain update.
 */
const RETURNING_TRACE = `
     RETURNING (SELECT e.traceparent FROM order_events e WHERE e.order_id = r.order_id AND e.event_type = r.event_type)
               AS traceparent`;

/**
 * D28: acknowledges the receipt only while it stands for this occurrence. The check is on the
 * receipt row itself, so a re-opening committed meanwhile (a new occurrence) is never
 * acknowledged by the old one's id. Receipts older than the occurrence column compare the
 * event's current occurrence instead.
 */
export async function acknowledgeOccurrence(
  db: Queryable,
  r: { keyId: string; orderId: string; eventType: string; occurrenceId: string; at: Date },
): Promise<boolean> {
  const { rows, rowCount } = await db.query<{ traceparent: string | null }>(
    `UPDATE event_receipts r SET acknowledged_at = $5
      WHERE r.key_id = $1 AND r.order_id = $2 AND r.event_type = $3 AND r.acknowledged_at IS NULL
        AND (r.occurrence_id = $4
             OR (r.occurrence_id IS NULL AND EXISTS (SELECT 1 FROM order_events e
                  WHERE e.order_id = $2 AND e.event_type = $3 AND e.occurrence_id = $4)))${tracingOn() ? RETURNING_TRACE : ''}`,
    [r.keyId, r.orderId, r.eventType, r.occurrenceId, r.at],
  );
  linkActiveSpan(rows, (row) => row.traceparent);
  return rowCount > 0;
}

/** Spec 4.13 rule 3: acknowledging twice changes nothing the second time. */
export async function acknowledgeReceipt(
  db: Queryable,
  r: { keyId: string; orderId: string; eventType: string; at: Date },
): Promise<boolean> {
  const { rows, rowCount } = await db.query<{ traceparent: string | null }>(
    `UPDATE event_receipts r SET acknowledged_at = $4
      WHERE r.key_id = $1 AND r.order_id = $2 AND r.event_type = $3 AND r.acknowledged_at IS NULL${tracingOn() ? RETURNING_TRACE : ''}`,
    [r.keyId, r.orderId, r.eventType, r.at],
  );
  linkActiveSpan(rows, (row) => row.traceparent);
  return rowCount > 0;
}

export interface LogEntryRow {
  occurrence_id: string;
  event_type: string;
  metadata: Static<typeof EventMetadata> | null;
  polled: boolean;
  created_at: Date;
  /** Only on the current occurrence of a polled event type. */
  current: boolean;
  /** The trace that recorded the occurrence (migration 0029), null while tracing was off. */
  traceparent: string | null;
}

export async function orderTimeline(db: Queryable, orderId: string): Promise<LogEntryRow[]> {
  const { rows } = await db.query<LogEntryRow>(
    `SELECT l.occurrence_id, l.event_type, l.metadata, l.polled, l.created_at, l.traceparent,
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

// ---- Retention (D30): each function one bounded batch, found through its own index ----------

/** Acknowledged receipts older than `before`. */
export async function deleteAcknowledgedReceipts(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM event_receipts WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM event_receipts WHERE acknowledged_at IS NOT NULL AND acknowledged_at < $1
        ORDER BY acknowledged_at LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}

/**
 * Pending receipts whose event happened before `before`: the oldest `limit` pending receipts by
 * seq (which grows with time) are read, and those that are old enough go. When none of them
 * is, none later is either.
 */
export async function expirePendingReceipts(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `WITH oldest AS (
       SELECT r.ctid AS rid, e.created_at FROM (
         SELECT ctid, order_id, event_type FROM event_receipts WHERE acknowledged_at IS NULL ORDER BY seq LIMIT $2
       ) r JOIN order_events e ON e.order_id = r.order_id AND e.event_type = r.event_type
     )
     DELETE FROM event_receipts WHERE ctid IN (SELECT rid FROM oldest WHERE created_at < $1)`,
    [before, limit],
  );
  return rowCount;
}

/** Everything events keeps about these orders: the event log, the events and their receipts. */
export async function deleteOrderHistory(db: Queryable, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const log = await db.query('DELETE FROM order_event_log WHERE order_id = ANY($1::uuid[])', [orderIds]);
  // Receipts go with their events (ON DELETE CASCADE).
  const events = await db.query('DELETE FROM order_events WHERE order_id = ANY($1::uuid[])', [orderIds]);
  return log.rowCount + events.rowCount;
}
