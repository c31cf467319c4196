// All SQL of the platform feed (D36): the outbox insert, the stamper that gives committed items
// their positions (docs/adr/0010-feed-cursor.md), pages by position, the relay's progress and
// retention.

import type { Queryable } from '../../db/db.js';
import { insertUnnested } from '../../db/unnest.js';
import { currentTraceparent } from '../../lib/tracing.js';
import type { FeedKind } from './feed-schemas.js';

/** Woken on commit of a transaction that wrote feed items (in-process on PGlite). */
export const FEED_CHANNEL = 'cleaver_feed';

export interface FeedItemInput {
  id: string;
  kind: FeedKind;
  type: string;
  merchantId: string;
  orderId?: string | null;
  occurredAt: Date;
  data: Record<string, unknown>;
}

export interface FeedItemRow {
  id: string;
  position: number;
  kind: FeedKind;
  type: string;
  merchant_id: string;
  order_id: string | null;
  occurred_at: Date;
  data: Record<string, unknown>;
  /** The trace of the change that wrote the item (migration 0029), null while tracing was off. */
  traceparent: string | null;
}

/**
 * The outbox write, in the caller's transaction, without a position. The NOTIFY is delivered
 * when (and only if) the transaction commits: it wakes the stamper.
 */
export async function insertItems(tx: Queryable, items: FeedItemInput[]): Promise<void> {
  if (items.length === 0) return;
  const traceparent = currentTraceparent();
  await insertUnnested(
    tx,
    `INSERT INTO feed_items (id, kind, type, merchant_id, order_id, occurred_at, data, traceparent)
     SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::uuid[], $5::uuid[], $6::timestamptz[], $7::jsonb[],
                          $8::text[])`,
    items,
    [
      'id',
      'kind',
      'type',
      'merchantId',
      (i) => i.orderId ?? null,
      'occurredAt',
      (i) => JSON.stringify(i.data),
      // The trace of the change (null while tracing is off): the relay's publish continues it.
      () => traceparent,
    ],
  );
  await tx.query(`SELECT pg_notify('${FEED_CHANNEL}', '')`);
}

/**
 * Stamps committed, unstamped items with the next positions, oldest insert first; returns how
 * many. Call inside a transaction of its own. First the stamper's row is locked (a statement of
 * its own): stampers run one at a time. Then, in a new statement, hence a new snapshot taken
 * after the previous stamper committed, the unstamped items it can see (committed ones only)
 * get positions above every position given before. An item that commits later is stamped by a
 * later run, with higher positions, so a reader that has seen position p has already seen every
 * item that will ever have a position below p.
 */
export async function stampCommitted(tx: Queryable, batch: number): Promise<number> {
  const { rows } = await tx.query<{ last_position: number }>(
    'SELECT last_position FROM feed_stamper WHERE id = 1 FOR UPDATE',
    [],
    { prepare: 'feed_stamper_lock' },
  );
  const last = Number(rows[0]?.last_position ?? 0);
  // The stamper's row moves in the same statement (one round trip less per run: the feed's lag
  // is mostly round trips, docs/benchmarks.md).
  const stamped = await tx.query<{ n: number }>(
    `WITH todo AS (
       SELECT id, row_number() OVER (ORDER BY seq) AS n
         FROM feed_items WHERE position IS NULL ORDER BY seq LIMIT $2
     ), stamped AS (
       UPDATE feed_items f SET position = $1::bigint + todo.n
         FROM todo WHERE f.id = todo.id AND f.position IS NULL
       RETURNING f.position
     ), top AS (
       UPDATE feed_stamper SET last_position = (SELECT max(position) FROM stamped)
        WHERE id = 1 AND EXISTS (SELECT 1 FROM stamped)
       RETURNING last_position
     )
     SELECT count(*)::int AS n FROM stamped`,
    [last, batch],
    { prepare: 'feed_stamp' },
  );
  return Number(stamped.rows[0]?.n ?? 0);
}

/** True when some committed item still waits for its position. */
export async function hasUnstamped(db: Queryable): Promise<boolean> {
  const { rows } = await db.query('SELECT 1 FROM feed_items WHERE position IS NULL LIMIT 1');
  return rows.length > 0;
}

/**
 * A page of stamped items after `after`, by position, with the highest position given at the
 * moment of the same snapshot (`head`): a filtered reader that found nothing up to `head` may
 * move its cursor there, since no item will ever be stamped at or below it again.
 */
export async function readPage(
  db: Queryable,
  filter: { after: number; limit: number; kinds: FeedKind[] | null; merchantId: string | null },
): Promise<{ rows: FeedItemRow[]; head: number }> {
  const { rows } = await db.query<FeedItemRow & { head: number }>(
    `WITH head AS (SELECT last_position AS head FROM feed_stamper WHERE id = 1),
          page AS (
            SELECT id, position, kind, type, merchant_id, order_id, occurred_at, data, traceparent FROM feed_items
             WHERE position > $1 AND position <= (SELECT head FROM head)
               AND ($2::text[] IS NULL OR kind = ANY($2)) AND ($3::uuid IS NULL OR merchant_id = $3)
             ORDER BY position LIMIT $4
          )
     SELECT head.head, page.* FROM head LEFT JOIN page ON true ORDER BY page.position`,
    [filter.after, filter.kinds, filter.merchantId, filter.limit],
  );
  const head = Number(rows[0]?.head ?? 0);
  return {
    head,
    rows: rows.filter((r) => r.id !== null).map((r) => ({ ...r, position: Number(r.position) })),
  };
}

/** The highest position given so far. */
export async function headPosition(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ last_position: number }>('SELECT last_position FROM feed_stamper WHERE id = 1');
  return Number(rows[0]?.last_position ?? 0);
}

// ---- the NATS relay's progress ------------------------------------------------------------------

export interface RelayRow {
  name: string;
  position: number;
  published_at: Date | null;
}

export async function relayState(db: Queryable, name: string, at: Date): Promise<RelayRow> {
  await db.query(
    'INSERT INTO feed_relays (name, position, updated_at) VALUES ($1, 0, $2) ON CONFLICT (name) DO NOTHING',
    [name, at],
  );
  const { rows } = await db.query<RelayRow>('SELECT name, position, published_at FROM feed_relays WHERE name = $1', [
    name,
  ]);
  const row = rows[0] as RelayRow;
  return { ...row, position: Number(row.position) };
}

/**
 * One round trip of the relay's pass: its mark (another relay of the same name may have moved
 * it), the head, and a page of stamped items after the mark.
 */
export async function readRelayPage(
  db: Queryable,
  name: string,
  limit: number,
): Promise<{ mark: number; head: number; rows: FeedItemRow[] }> {
  const { rows } = await db.query<FeedItemRow & { head: number; mark: number }>(
    `WITH mark AS (SELECT position AS mark FROM feed_relays WHERE name = $1),
          head AS (SELECT last_position AS head FROM feed_stamper WHERE id = 1),
          page AS (
            SELECT id, position, kind, type, merchant_id, order_id, occurred_at, data, traceparent FROM feed_items
             WHERE position > (SELECT mark FROM mark) AND position <= (SELECT head FROM head)
             ORDER BY position LIMIT $2
          )
     SELECT mark.mark, head.head, page.* FROM mark CROSS JOIN head LEFT JOIN page ON true ORDER BY page.position`,
    [name, limit],
    { prepare: 'feed_relay_page' },
  );
  return {
    mark: Number(rows[0]?.mark ?? 0),
    head: Number(rows[0]?.head ?? 0),
    rows: rows.filter((r) => r.id !== null).map((r) => ({ ...r, position: Number(r.position) })),
  };
}

/** Moves the relay's mark forward only (two relays of one name never move it back). */
export async function advanceRelay(db: Queryable, name: string, position: number, at: Date): Promise<void> {
  await db.query(
    `UPDATE feed_relays SET position = GREATEST(position, $2), published_at = $3, updated_at = $3 WHERE name = $1`,
    [name, position, at],
    { prepare: 'feed_relay_advance' },
  );
}

export async function relayRows(db: Queryable): Promise<RelayRow[]> {
  const { rows } = await db.query<RelayRow>('SELECT name, position, published_at FROM feed_relays ORDER BY name');
  return rows.map((r) => ({ ...r, position: Number(r.position) }));
}

// ---- retention (D36) ------------------------------------------------------------------------------

/**
 * Deletes up to `limit` stamped items older than `before`, never one above `keepFrom` (the
 * lowest position a relay has not published yet): the NATS relay is always behind on nothing.
 */
export async function pruneItems(
  db: Queryable,
  before: Date,
  keepAbove: number | null,
  limit: number,
): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM feed_items WHERE id IN (
       SELECT id FROM feed_items
        WHERE occurred_at < $1 AND position IS NOT NULL AND ($2::bigint IS NULL OR position <= $2)
        ORDER BY occurred_at LIMIT $3)`,
    [before, keepAbove, limit],
  );
  return rowCount;
}

/** An order's delivery-code checks, oldest first (migration 0024's partial index finds them). */
export async function codeChecksOfOrder(
  db: Queryable,
  orderId: string,
): Promise<Array<{ occurred_at: Date; data: { valid: boolean; source: string } }>> {
  const { rows } = await db.query<{ occurred_at: Date; data: { valid: boolean; source: string } }>(
    `SELECT occurred_at, data FROM feed_items
      WHERE order_id = $1 AND type = 'DELIVERY_CODE_CHECKED' ORDER BY occurred_at, seq`,
    [orderId],
  );
  return rows;
}
