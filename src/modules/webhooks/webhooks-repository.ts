// Every statement on the webhook delivery queue (D10, D11): the outbox insert, the claim, the
// attempt results, requeues and the operator's reads. Size: the statements share the column list
// and the "waits for an earlier delivery of its order" clause, which must stay identical in the
// claim and in the reads that explain a wait; endpoint health lives in its own file.

import type { Db, Queryable } from '../../db/db.js';
import { unnestParams } from '../../db/unnest.js';
import { currentTraceparent } from '../../lib/tracing.js';

export * from './endpoint-health-repository.js';

/** The NOTIFY channel that wakes delivery workers (on PGlite too: NOTIFY reaches its own listeners). */
export const WEBHOOK_CHANNEL = 'cleaver_webhook_deliveries';

export type DeliveryStatus = 'PENDING' | 'DELIVERED' | 'FAILED';
export type WebhookProfile = 'cleaver' | 'opendelivery';

export interface DeliveryRow {
  id: string;
  seq: number;
  merchant_id: string;
  order_id: string;
  occurrence_id: string;
  event_type: string;
  body: string;
  /** The dialect of `body` (D28), which also decides the path. */
  profile: WebhookProfile;
  status: DeliveryStatus;
  attempt_count: number;
  next_attempt_at: Date | null;
  lease_token: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  delivered_at: Date | null;
  /** The trace the delivery continues (migration 0029), null while tracing was off. */
  traceparent: string | null;
}

export interface ClaimedRow extends DeliveryRow {
  orders_webhook_url: string | null;
  webhook_key_id: string | null;
  webhook_disabled_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt_no: number;
  started_at: Date;
  duration_ms: number;
  target_url: string | null;
  status_code: number | null;
  error: string | null;
  response_snippet: string | null;
}

const COLUMNS = `d.id, d.seq, d.merchant_id, d.order_id, d.occurrence_id, d.event_type, d.body, d.profile, d.status,
  d.attempt_count, d.next_attempt_at, d.lease_token, d.last_status_code, d.last_error, d.created_at,
  d.updated_at, d.delivered_at, d.traceparent`;

/** An earlier delivery of the same order is still pending: this one waits (D11 ordering). */
const WAITS_FOR_EARLIER = `EXISTS (SELECT 1 FROM webhook_deliveries e
   WHERE e.order_id = d.order_id AND e.status = 'PENDING' AND e.seq < d.seq)`;

/**
 * The outbox write, inside the event's transaction: a delivery only for a merchant with a
 * registered, enabled webhook URL; the same occurrence twice is one delivery. The NOTIFY is
 * delivered on commit, so workers never see a row that might still roll back.
 *
 * A merchant whose developer listens with `cleaver listen` (webhook-forwarding.ts) gets its
 * deliveries written even with no URL registered: they go to the listener.
 *
 * D28: the body stored is the one in the dialect of the key that registered the URL, read in
 * this same statement (its profile now, deleted or not); a webhook-only notification
 * (`cleaverOnly`, D8's second one) is not written at all for an opendelivery URL. An opt-in type
 * (D42) is written only when that key (or the listening key) asked for it.
 */
export async function insertDelivery(
  tx: Queryable,
  delivery: {
    id: string;
    merchantId: string;
    orderId: string;
    occurrenceId: string;
    eventType: string;
    bodies: Record<WebhookProfile, string>;
    cleaverOnly: boolean;
    optIn?: boolean;
    at: Date;
  },
): Promise<boolean> {
  const { rows } = await tx.query<{ id: string }>(
    `WITH target AS (
       SELECT m.id, COALESCE(k.profile, fk.profile, 'cleaver') AS profile,
              COALESCE(k.extra_event_types, fk.extra_event_types) AS extra
         FROM merchants m LEFT JOIN integration_keys k ON k.id = m.webhook_key_id
              LEFT JOIN webhook_forwarding f ON f.merchant_id = m.id AND f.until > $8
              LEFT JOIN integration_keys fk ON fk.id = f.key_id
        WHERE m.id = $2
          AND ((m.orders_webhook_url IS NOT NULL AND m.webhook_disabled_at IS NULL) OR f.merchant_id IS NOT NULL)
     ), ins AS (
       INSERT INTO webhook_deliveries
              (id, merchant_id, order_id, occurrence_id, event_type, body, profile, status, next_attempt_at,
               created_at, updated_at, traceparent)
       SELECT $1, t.id, $3, $4, $5, CASE WHEN t.profile = 'opendelivery' THEN $7 ELSE $6 END, t.profile, 'PENDING',
              -- behind an earlier delivery of the order that waits for a retry: due no sooner
              GREATEST($8::timestamptz, (SELECT max(e.next_attempt_at) FROM webhook_deliveries e
                                          WHERE e.order_id = $3 AND e.status = 'PENDING' AND e.lease_token IS NULL)),
              $8, $8, $10
         FROM target t
        WHERE NOT ($9::boolean AND t.profile = 'opendelivery')
          AND (NOT $11::boolean OR $5 = ANY(COALESCE(t.extra, '{}'::text[])))
       ON CONFLICT (occurrence_id) DO NOTHING
       RETURNING id)
     SELECT ins.id, pg_notify('${WEBHOOK_CHANNEL}', '') FROM ins`,
    [
      delivery.id,
      delivery.merchantId,
      delivery.orderId,
      delivery.occurrenceId,
      delivery.eventType,
      delivery.bodies.cleaver,
      delivery.bodies.opendelivery,
      delivery.at,
      delivery.cleaverOnly,
      // The trace of the change that recorded the event (null while tracing is off): the
      // delivery continues it.
      currentTraceparent(),
      delivery.optIn === true,
    ],
  );
  return rows.length > 0;
}

/**
 * Claims up to `limit` due deliveries that are first in line for their order, skipping rows
 * another worker holds, and leases them until `leaseUntil`: next_attempt_at becomes the lease
 * end, so a worker that dies mid-attempt leaves a row that is simply due again later (at least
 * once). A row that still carries a lease token was claimed and never finished: that lost
 * attempt is written down before the new one starts.
 */
export async function claimDueDeliveries(
  db: Db,
  claim: { now: Date; limit: number; leaseToken: string; leaseUntil: Date; forwardedMerchantId?: string },
): Promise<ClaimedRow[]> {
  // The claim must walk the due index in order and stop after `limit` runnable rows. Right after
  // a burst (a backlog after an outage, thousands queued at once) the table's statistics still
  // say few rows are PENDING, and the planner then chose to fetch every due row, test each one
  // against its order's earlier deliveries and sort them all: one claim cost the whole backlog
  // (37 ms at 10,000 pending on PGlite, 14 ms on PostgreSQL, against 1.5 / 0.4 ms walking the
  // index; docs/adr/0007-embedded-database-upkeep.md). Sorting and bitmap scans are off for this
  // statement's transaction only, so the plan no longer depends on how fresh the statistics are.
  return inDueOrder(db, (tx) => claimDue(tx, claim));
}

/**
 * Runs the queue's reads in a transaction whose plans walk the due index in order: no sort, no
 * bitmap scan, no parallel workers. With statistics from a burst ago, the planner otherwise read
 * every row of the table for a query that needs the first few (docs/adr/0007).
 */
function inDueOrder<T>(db: Db, run: (tx: Queryable) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.exec(
      'SET LOCAL enable_sort = off; SET LOCAL enable_bitmapscan = off; SET LOCAL max_parallel_workers_per_gather = 0',
    );
    return run(tx);
  });
}

async function claimDue(
  db: Queryable,
  claim: { now: Date; limit: number; leaseToken: string; leaseUntil: Date; forwardedMerchantId?: string },
): Promise<ClaimedRow[]> {
  // Workers leave alone the merchants someone listens to with `cleaver listen`; the listener
  // claims only its own merchant's deliveries (webhook-forwarding.ts).
  const scope = claim.forwardedMerchantId
    ? 'd.merchant_id = $5'
    : `NOT EXISTS (SELECT 1 FROM webhook_forwarding f WHERE f.merchant_id = d.merchant_id AND f.until > $1)`;
  const params: unknown[] = [claim.now, claim.limit, claim.leaseToken, claim.leaseUntil];
  if (claim.forwardedMerchantId) params.push(claim.forwardedMerchantId);
  const { rows } = await db.query<ClaimedRow>(
    `WITH due AS (
       SELECT d.id FROM webhook_deliveries d
        WHERE d.status = 'PENDING' AND d.next_attempt_at <= $1 AND ${scope} AND NOT ${WAITS_FOR_EARLIER}
        ORDER BY d.next_attempt_at, d.seq
        LIMIT $2
        FOR UPDATE OF d SKIP LOCKED
     ), lost AS (
       INSERT INTO webhook_attempts (delivery_id, attempt_no, started_at, duration_ms, error)
       SELECT d.id, d.attempt_count, d.updated_at,
              GREATEST(0, (EXTRACT(EPOCH FROM (d.next_attempt_at - d.updated_at)) * 1000)::int),
              'Attempt interrupted: the worker stopped before recording a result; retried after its lease expired'
         FROM webhook_deliveries d JOIN due ON due.id = d.id
        WHERE d.lease_token IS NOT NULL AND d.attempt_count > 0
       ON CONFLICT (delivery_id, attempt_no) DO NOTHING
     )
     UPDATE webhook_deliveries d
        SET attempt_count = d.attempt_count + 1, lease_token = $3, next_attempt_at = $4, updated_at = $1
       FROM due, merchants m
      WHERE d.id = due.id AND m.id = d.merchant_id
     RETURNING ${COLUMNS}, m.orders_webhook_url, m.webhook_key_id, m.webhook_disabled_at`,
    params,
  );
  return rows.sort((a, b) => a.seq - b.seq);
}

export interface AttemptResult {
  deliveryId: string;
  /** The merchant whose endpoint was tried: its health follows the outcome. */
  merchantId?: string;
  leaseToken: string;
  attemptNo: number;
  startedAt: Date;
  durationMs: number;
  targetUrl: string | null;
  statusCode: number | null;
  error: string | null;
  responseSnippet: string | null;
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * Writes attempts and their deliveries' new state, many at once (set-based, one statement). A
 * delivery's state changes only if the writer still holds its lease (compare-and-set on the
 * token); the attempt is kept anyway, since it happened. Returns the ids whose state was written.
 */
export async function recordAttempts(db: Queryable, results: AttemptResult[]): Promise<Set<string>> {
  if (results.length === 0) return new Set();
  const iso = (d: Date | null) => (d ? d.toISOString() : null);
  const { rows } = await db.query<{ id: string }>(
    `WITH r AS (
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[], $4::timestamptz[], $5::int[], $6::text[],
                            $7::int[], $8::text[], $9::text[], $10::text[], $11::timestamptz[], $12::timestamptz[])
         AS r(delivery_id, lease_token, attempt_no, started_at, duration_ms, target_url,
              status_code, error, response_snippet, status, next_attempt_at, at)
     ), attempt AS (
       INSERT INTO webhook_attempts
              (delivery_id, attempt_no, started_at, duration_ms, target_url, status_code, error, response_snippet)
       SELECT delivery_id, attempt_no, started_at, duration_ms, target_url, status_code, error, response_snippet FROM r
       ON CONFLICT (delivery_id, attempt_no) DO NOTHING
     ), held_back AS (
       -- Later deliveries of an order whose earlier one now waits for a retry cannot go before
       -- it (D11): moving their due time along keeps them out of every claim until then, so a
       -- long outage does not leave the claim scanning a growing pile of blocked rows.
       UPDATE webhook_deliveries l
          SET next_attempt_at = r.next_attempt_at
         FROM r JOIN webhook_deliveries d0 ON d0.id = r.delivery_id AND d0.lease_token = r.lease_token
        WHERE r.status = 'PENDING' AND l.order_id = d0.order_id AND l.seq > d0.seq
          AND l.status = 'PENDING' AND l.lease_token IS NULL AND l.next_attempt_at < r.next_attempt_at
          AND l.id <> ALL ($1::uuid[])
     )
     UPDATE webhook_deliveries d
        SET status = r.status, next_attempt_at = r.next_attempt_at, lease_token = NULL,
            last_status_code = r.status_code, last_error = r.error, updated_at = r.at,
            delivered_at = CASE WHEN r.status = 'DELIVERED' THEN r.at ELSE d.delivered_at END
       FROM r
      WHERE d.id = r.delivery_id AND d.lease_token = r.lease_token
     RETURNING d.id`,
    unnestParams(results, [
      'deliveryId',
      'leaseToken',
      'attemptNo',
      (r) => iso(r.startedAt),
      'durationMs',
      'targetUrl',
      'statusCode',
      'error',
      'responseSnippet',
      'status',
      (r) => iso(r.nextAttemptAt),
      (r) => iso(r.at),
    ]),
  );
  return new Set(rows.map((r) => r.id));
}

export async function recordAttempt(db: Queryable, result: AttemptResult): Promise<boolean> {
  return (await recordAttempts(db, [result])).has(result.deliveryId);
}

/** D11: a 410 disables the merchant's webhook, unless the merchant has registered a new URL since. */
export async function disableMerchantWebhook(
  db: Queryable,
  merchantId: string,
  baseUrl: string,
  at: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE merchants SET webhook_disabled_at = $3, webhook_disabled_reason = 'HTTP 410 Gone from the receiver',
            updated_at = $3
      WHERE id = $1 AND orders_webhook_url = $2 AND webhook_disabled_at IS NULL`,
    [merchantId, baseUrl, at],
  );
  return rowCount > 0;
}

/** When the next delivery that is first in line for its order becomes due (for the worker's timer). */
export async function nextDueAt(db: Db, now: Date): Promise<Date | null> {
  // A listened-to merchant's rows are the listener's: counting them would wake the workers for
  // rows they may not claim (a spin while `cleaver listen` runs). The first row in due order
  // rather than min(): an aggregate over an anti-join read every pending row (and, with stale
  // statistics, the whole table with parallel workers: 14 ms at 20,000 rows after a drain).
  const { rows } = await inDueOrder(db, (tx) =>
    tx.query<{ due: Date }>(
      `SELECT d.next_attempt_at AS due FROM webhook_deliveries d
        WHERE d.status = 'PENDING' AND NOT ${WAITS_FOR_EARLIER}
          AND NOT EXISTS (SELECT 1 FROM webhook_forwarding f WHERE f.merchant_id = d.merchant_id AND f.until > $1)
        ORDER BY d.next_attempt_at, d.seq LIMIT 1`,
      [now],
    ),
  );
  return rows[0]?.due ?? null;
}

export async function countPending(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM webhook_deliveries WHERE status = 'PENDING'`,
  );
  return rows[0]?.n ?? 0;
}

export async function listMerchantDeliveries(
  db: Queryable,
  merchantId: string | undefined,
  filter: { status?: DeliveryStatus; orderId?: string; beforeSeq?: number; limit: number },
): Promise<DeliveryRow[]> {
  // Keyset on seq (operator-api.md#lists): (merchant_id, seq) and (merchant_id, status, seq) indexes.
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries d
      WHERE ($1::uuid IS NULL OR d.merchant_id = $1) AND ($2::text IS NULL OR d.status = $2)
        AND ($3::uuid IS NULL OR d.order_id = $3) AND ($4::bigint IS NULL OR d.seq < $4)
      ORDER BY d.seq DESC LIMIT $5`,
    [merchantId ?? null, filter.status ?? null, filter.orderId ?? null, filter.beforeSeq ?? null, filter.limit],
  );
  return rows;
}

export async function listOrderDeliveries(db: Queryable, orderId: string): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT ${COLUMNS} FROM webhook_deliveries d WHERE d.order_id = $1 ORDER BY d.seq`,
    [orderId],
  );
  return rows;
}

/** The trace each delivery of an order continues (those recorded while tracing was on). */
export async function orderDeliveryTraces(db: Queryable, orderId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ id: string; traceparent: string }>(
    'SELECT id, traceparent FROM webhook_deliveries WHERE order_id = $1 AND traceparent IS NOT NULL',
    [orderId],
  );
  return new Map(rows.map((r) => [r.id, r.traceparent]));
}

export async function listAttempts(db: Queryable, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  const { rows } = await db.query<AttemptRow>(
    `SELECT delivery_id, attempt_no, started_at, duration_ms, target_url, status_code, error, response_snippet
       FROM webhook_attempts WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt_no`,
    [deliveryIds],
  );
  return rows;
}

export async function findDelivery(db: Queryable, id: string): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(`SELECT ${COLUMNS} FROM webhook_deliveries d WHERE d.id = $1`, [id]);
  return rows[0];
}

/**
 * Operator replay: due now, same webhook-id. Not while an attempt holds a live lease (it would
 * run twice at once). Returns the row when it was requeued.
 */
export async function requeueDelivery(db: Queryable, id: string, now: Date): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(
    `WITH upd AS (
       UPDATE webhook_deliveries d
          SET status = 'PENDING', next_attempt_at = $2, lease_token = NULL, updated_at = $2
        WHERE d.id = $1 AND NOT (d.status = 'PENDING' AND d.lease_token IS NOT NULL AND d.next_attempt_at > $2)
       RETURNING ${COLUMNS}
     ), released AS (
       -- Later deliveries of the order that were only held back behind this one (never tried
       -- themselves) follow it now rather than at its old retry time.
       UPDATE webhook_deliveries l SET next_attempt_at = $2
         FROM upd
        WHERE l.order_id = upd.order_id AND l.seq > upd.seq AND l.status = 'PENDING'
          AND l.lease_token IS NULL AND l.attempt_count = 0 AND l.next_attempt_at > $2
     )
     SELECT upd.*, pg_notify('${WEBHOOK_CHANNEL}', '') FROM upd`,
    [id, now],
  );
  return rows[0];
}

export interface MerchantWebhookRow {
  id: string;
  orders_webhook_url: string | null;
  webhook_key_id: string | null;
  webhook_disabled_at: Date | null;
}

export async function findMerchantWebhook(db: Queryable, merchantId: string): Promise<MerchantWebhookRow | undefined> {
  const { rows } = await db.query<MerchantWebhookRow>(
    'SELECT id, orders_webhook_url, webhook_key_id, webhook_disabled_at FROM merchants WHERE id = $1',
    [merchantId],
  );
  return rows[0];
}

/** The orders webhook URL registered now by each of these merchants, in one query (delivery views). */
export async function merchantWebhookUrls(db: Queryable, merchantIds: string[]): Promise<Map<string, string | null>> {
  if (merchantIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: string; orders_webhook_url: string | null }>(
    'SELECT id, orders_webhook_url FROM merchants WHERE id = ANY($1::uuid[])',
    [merchantIds],
  );
  return new Map(rows.map((r) => [r.id, r.orders_webhook_url]));
}

/** Retention (D30): the deliveries of these orders, with their attempts (ON DELETE CASCADE). */
export async function deleteOrderDeliveries(db: Queryable, orderIds: string[]): Promise<number> {
  if (orderIds.length === 0) return 0;
  const { rowCount } = await db.query('DELETE FROM webhook_deliveries WHERE order_id = ANY($1::uuid[])', [orderIds]);
  return rowCount;
}

/**
 * Bulk replay (operator): the merchant's deliveries that match, due now, same webhook-ids, in
 * their order (the claim keeps per-order order, D11). Deliveries an attempt holds are left alone.
 */
export async function requeueMerchantDeliveries(
  db: Queryable,
  merchantId: string,
  filter: { failedOnly: boolean; since: Date | null },
  now: Date,
): Promise<number> {
  const { rows } = await db.query(
    `WITH upd AS (
       UPDATE webhook_deliveries d
          SET status = 'PENDING', next_attempt_at = $4, lease_token = NULL, updated_at = $4
        WHERE d.merchant_id = $1
          AND ($2::boolean IS FALSE OR d.status = 'FAILED')
          AND ($3::timestamptz IS NULL OR d.created_at >= $3)
          AND NOT (d.status = 'PENDING' AND d.lease_token IS NOT NULL AND d.next_attempt_at > $4)
       RETURNING d.id
     )
     SELECT upd.id, pg_notify('${WEBHOOK_CHANNEL}', '') FROM upd`,
    [merchantId, filter.failedOnly, filter.since, now],
  );
  return rows.length;
}

/** For each order, its earliest delivery still pending: what later ones of the order wait for. */
export async function firstPendingOfOrders(
  db: Queryable,
  orderIds: string[],
): Promise<Map<string, { id: string; seq: number; event_type: string }>> {
  if (orderIds.length === 0) return new Map();
  const { rows } = await db.query<{ order_id: string; id: string; seq: number; event_type: string }>(
    `SELECT DISTINCT ON (order_id) order_id, id, seq, event_type FROM webhook_deliveries
      WHERE order_id = ANY($1::uuid[]) AND status = 'PENDING'
      ORDER BY order_id, seq`,
    [orderIds],
  );
  return new Map(rows.map((r) => [r.order_id, { id: r.id, seq: r.seq, event_type: r.event_type }]));
}

export interface AttemptDay {
  day: string;
  attempts: number;
  ok: number;
  p50: number;
  p95: number;
}

/**
 * A merchant's webhook attempts per calendar day in `zone` since `since`: how many, how many got
 * a 2xx, and the median and 95th percentile of their duration (the console's charts).
 */
export async function attemptsByDay(
  db: Queryable,
  merchantId: string,
  since: Date,
  zone: string,
): Promise<AttemptDay[]> {
  const { rows } = await db.query<AttemptDay>(
    `SELECT to_char(a.started_at AT TIME ZONE $3, 'YYYY-MM-DD') AS day, count(*)::int AS attempts,
            (count(*) FILTER (WHERE a.status_code BETWEEN 200 AND 299))::int AS ok,
            percentile_cont(0.5) WITHIN GROUP (ORDER BY a.duration_ms)::float8 AS p50,
            percentile_cont(0.95) WITHIN GROUP (ORDER BY a.duration_ms)::float8 AS p95
       FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE d.merchant_id = $1 AND d.created_at >= $2::timestamptz - interval '2 days' AND a.started_at >= $2
      GROUP BY 1 ORDER BY 1`,
    [merchantId, since, zone],
  );
  return rows;
}

/** How many of a merchant's deliveries have this status, counted up to `cap`. */
/**
 * How many deliveries have a status, counted up to `cap` (one merchant's, or every merchant's
 * without one): an exact count of millions of DELIVERED rows on every page view would read them
 * all, while the (merchant_id, status, seq) and (status, seq) indexes stop after `cap`.
 */
export async function countDeliveries(
  db: Queryable,
  merchantId: string | undefined,
  status: DeliveryStatus,
  cap: number,
): Promise<number> {
  const { rows } = merchantId
    ? await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries WHERE merchant_id = $1 AND status = $2 LIMIT $3) c`,
        [merchantId, status, cap],
      )
    : await db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT 1 FROM webhook_deliveries WHERE status = $1 LIMIT $2) c`,
        [status, cap],
      );
  return rows[0]?.n ?? 0;
}

export interface RecentAttemptRow extends AttemptRow {
  occurrence_id: string;
  order_id: string;
  event_type: string;
  delivery_status: DeliveryStatus;
}

/**
 * A merchant's latest webhook attempts, newest first: those of its last `deliveries` deliveries
 * (the (merchant_id, seq) order of the merchant index), so the read stays small however long the
 * merchant's history is.
 */
export async function recentAttempts(
  db: Queryable,
  merchantId: string,
  limit: number,
  deliveries = 200,
): Promise<RecentAttemptRow[]> {
  const { rows } = await db.query<RecentAttemptRow>(
    `SELECT a.delivery_id, a.attempt_no, a.started_at, a.duration_ms, a.target_url, a.status_code, a.error,
            a.response_snippet, d.occurrence_id, d.order_id, d.event_type, d.status AS delivery_status
       FROM (SELECT id, occurrence_id, order_id, event_type, status FROM webhook_deliveries
              WHERE merchant_id = $1 ORDER BY seq DESC LIMIT $3) d
       JOIN webhook_attempts a ON a.delivery_id = d.id
      ORDER BY a.started_at DESC, a.attempt_no DESC LIMIT $2`,
    [merchantId, limit, deliveries],
  );
  return rows;
}
