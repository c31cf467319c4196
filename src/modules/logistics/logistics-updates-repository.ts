import type { Static } from 'typebox';
import type { Queryable } from '../../db/db.js';
import { unnestParams } from '../../db/unnest.js';
import type { DeliveryUpdateBody } from './logistics-schemas.js';

export interface LogisticsUpdateRow {
  request_id: string;
  app_id: string;
  delivery_id: string;
  event_type: string;
  /** As received, after validation (DeliveryUpdateBody). */
  body: Static<typeof DeliveryUpdateBody>;
  received_at: Date;
  combined: boolean;
  status_before: string;
  status_after: string;
  raised_event: string | null;
  note: string | null;
}

/**
 * Stores the request once per (app, body hash). False when that signed body was already
 * received: the caller treats it as a replay and changes nothing.
 */
export async function insertRequestOnce(
  db: Queryable,
  r: {
    id: string;
    appId: string;
    bodySha256: string;
    merchantId: string;
    deliveryId: string;
    eventType: string;
    body: unknown;
    at: Date;
  },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO logistics_requests (id, app_id, body_sha256, merchant_id, delivery_id, event_type, body, received_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8)
     ON CONFLICT (app_id, body_sha256) DO NOTHING`,
    [r.id, r.appId, r.bodySha256, r.merchantId, r.deliveryId, r.eventType, JSON.stringify(r.body), r.at],
  );
  return rowCount === 1;
}

/** What one request did to each order it names, in one set-based insert. */
export async function insertUpdates(
  db: Queryable,
  requestId: string,
  updates: Array<{
    orderId: string;
    combined: boolean;
    statusBefore: string;
    statusAfter: string;
    raisedEvent: string | null;
    note: string | null;
  }>,
): Promise<void> {
  await db.query(
    `INSERT INTO logistics_updates (request_id, order_id, combined, status_before, status_after, raised_event, note)
     SELECT $1, u.order_id, u.combined, u.status_before, u.status_after, u.raised_event, u.note
       FROM unnest($2::uuid[], $3::boolean[], $4::text[], $5::text[], $6::text[], $7::text[])
            WITH ORDINALITY AS u (order_id, combined, status_before, status_after, raised_event, note, n)
      ORDER BY u.n`,
    [
      requestId,
      ...unnestParams(updates, ['orderId', 'combined', 'statusBefore', 'statusAfter', 'raisedEvent', 'note']),
    ],
  );
}

/** The logistics timeline of one order, oldest first. */
export async function listUpdatesOfOrder(db: Queryable, orderId: string): Promise<LogisticsUpdateRow[]> {
  const { rows } = await db.query<LogisticsUpdateRow>(
    `SELECT u.request_id, r.app_id, r.delivery_id, r.event_type, r.body, r.received_at, u.combined,
            u.status_before, u.status_after, u.raised_event, u.note
       FROM logistics_updates u JOIN logistics_requests r ON r.id = u.request_id
      WHERE u.order_id = $1
      ORDER BY u.position`,
    [orderId],
  );
  return rows;
}

// ---- Retention (D30) --------------------------------------------------------------------------

export async function deleteOrderUpdates(db: Queryable, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const { rowCount } = await db.query('DELETE FROM logistics_updates WHERE order_id = ANY($1::uuid[])', [orderIds]);
  return rowCount;
}

/** Requests older than `before` with no update left (their orders' history is gone). */
export async function deleteOrphanRequests(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM logistics_requests WHERE id = ANY (ARRAY(
       SELECT r.id FROM logistics_requests r
        WHERE r.received_at < $1 AND NOT EXISTS (SELECT 1 FROM logistics_updates u WHERE u.request_id = r.id)
        ORDER BY r.received_at LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}
