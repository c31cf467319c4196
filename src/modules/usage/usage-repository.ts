import type { Queryable } from '../../db/db.js';
import { insertUnnested } from '../../db/unnest.js';
import type { RouteGroup } from './route-groups.js';

export interface UsageBucket {
  keyId: string;
  /** The minute's start, epoch milliseconds. */
  minute: number;
  group: string;
  requests: number;
  errors4xx: number;
  throttled: number;
  errors5xx: number;
  latencyMsSum: number;
  latencyMsMax: number;
}

/**
 * Adds a batch of per-minute counters, set-based (one statement whatever the batch size). The
 * arrays go as literals (db/unnest.ts, asLiterals), times as epoch milliseconds.
 */
export async function addUsage(db: Queryable, buckets: UsageBucket[]): Promise<void> {
  await insertUnnested(
    db,
    `INSERT INTO key_usage_minutes AS u (key_id, minute, route_group, requests, errors_4xx, throttled, errors_5xx,
                                         latency_ms_sum, latency_ms_max)
     SELECT key_id, to_timestamp(minute_ms / 1000.0), route_group, requests, errors_4xx, throttled, errors_5xx,
            latency_ms_sum, latency_ms_max
       FROM unnest($1::uuid[], $2::float8[], $3::text[], $4::int[], $5::int[], $6::int[], $7::int[], $8::bigint[],
                   $9::int[])
            AS b(key_id, minute_ms, route_group, requests, errors_4xx, throttled, errors_5xx, latency_ms_sum,
                 latency_ms_max)
     ON CONFLICT (key_id, minute, route_group) DO UPDATE SET
       requests = u.requests + EXCLUDED.requests,
       errors_4xx = u.errors_4xx + EXCLUDED.errors_4xx,
       throttled = u.throttled + EXCLUDED.throttled,
       errors_5xx = u.errors_5xx + EXCLUDED.errors_5xx,
       latency_ms_sum = u.latency_ms_sum + EXCLUDED.latency_ms_sum,
       latency_ms_max = GREATEST(u.latency_ms_max, EXCLUDED.latency_ms_max)`,
    buckets,
    ['keyId', 'minute', 'group', 'requests', 'errors4xx', 'throttled', 'errors5xx', 'latencyMsSum', 'latencyMsMax'],
    { asLiterals: true },
  );
}

export interface PresenceUpdate {
  keyId: string;
  merchantId: string;
  /** Epoch milliseconds, or null when the key did nothing of the kind since the last flush. */
  lastRequestAt: number | null;
  lastPollAt: number | null;
  lastAckAt: number | null;
}

/** Moves last-seen times forward only (several instances flush in any order). */
export async function advancePresence(db: Queryable, updates: PresenceUpdate[]): Promise<void> {
  await insertUnnested(
    db,
    `INSERT INTO key_presence AS p (key_id, merchant_id, last_request_at, last_poll_at, last_ack_at)
     SELECT key_id, merchant_id, to_timestamp(request_ms / 1000.0), to_timestamp(poll_ms / 1000.0),
            to_timestamp(ack_ms / 1000.0)
       FROM unnest($1::uuid[], $2::uuid[], $3::float8[], $4::float8[], $5::float8[])
            AS u(key_id, merchant_id, request_ms, poll_ms, ack_ms)
     ON CONFLICT (key_id) DO UPDATE SET
       last_request_at = GREATEST(p.last_request_at, EXCLUDED.last_request_at),
       last_poll_at = GREATEST(p.last_poll_at, EXCLUDED.last_poll_at),
       last_ack_at = GREATEST(p.last_ack_at, EXCLUDED.last_ack_at)`,
    updates,
    ['keyId', 'merchantId', 'lastRequestAt', 'lastPollAt', 'lastAckAt'],
    { asLiterals: true },
  );
}

export interface PresenceRow {
  key_id: string;
  merchant_id: string;
  last_request_at: Date | null;
  last_poll_at: Date | null;
  last_ack_at: Date | null;
}

export async function presenceOfKeys(db: Queryable, keyIds: string[]): Promise<PresenceRow[]> {
  const { rows } = await db.query<PresenceRow>(
    `SELECT key_id, merchant_id, last_request_at, last_poll_at, last_ack_at FROM key_presence
      WHERE key_id = ANY($1::uuid[])`,
    [keyIds],
  );
  return rows;
}

export interface UsageRow {
  route_group: RouteGroup;
  hour: Date;
  requests: number;
  errors_4xx: number;
  throttled: number;
  errors_5xx: number;
  latency_ms_sum: number;
  latency_ms_max: number;
}

/** A key's counters per route group and hour since `since`. */
export async function usageOfKey(db: Queryable, keyId: string, since: Date): Promise<UsageRow[]> {
  const { rows } = await db.query<UsageRow>(
    `SELECT route_group, date_trunc('hour', minute) AS hour, sum(requests)::int AS requests,
            sum(errors_4xx)::int AS errors_4xx, sum(throttled)::int AS throttled, sum(errors_5xx)::int AS errors_5xx,
            sum(latency_ms_sum)::bigint AS latency_ms_sum, max(latency_ms_max)::int AS latency_ms_max
       FROM key_usage_minutes
      WHERE key_id = $1 AND minute >= $2
      GROUP BY route_group, date_trunc('hour', minute)
      ORDER BY hour, route_group`,
    [keyId, since],
  );
  return rows;
}

/** D30: counters older than the horizon go, in one bounded batch per call. */
export async function pruneUsage(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM key_usage_minutes WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM key_usage_minutes WHERE minute < $1 LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}

/**
 * Merchants whose keys have all been silent since `silentSince` (and that have a key that was
 * ever seen), still AVAILABLE and not already switched off by presence.
 */
export async function silentMerchants(db: Queryable, silentSince: Date): Promise<string[]> {
  const { rows } = await db.query<{ merchant_id: string }>(
    `SELECT merchant_id FROM key_presence
      GROUP BY merchant_id
     HAVING max(last_request_at) < $1`,
    [silentSince],
  );
  return rows.map((r) => r.merchant_id);
}

/** Merchants with a key seen since `since`. */
export async function activeMerchants(db: Queryable, merchantIds: string[], since: Date): Promise<string[]> {
  if (merchantIds.length === 0) return [];
  const { rows } = await db.query<{ merchant_id: string }>(
    `SELECT DISTINCT merchant_id FROM key_presence WHERE merchant_id = ANY($1::uuid[]) AND last_request_at >= $2`,
    [merchantIds, since],
  );
  return rows.map((r) => r.merchant_id);
}

/** How many keys were last seen when: online since `lateSince`, late since `offlineSince`, offline before. */
export async function countByPresence(
  db: Queryable,
  lateSince: Date,
  offlineSince: Date,
): Promise<{ online: number; late: number; offline: number }> {
  const { rows } = await db.query<{ online: number; late: number; offline: number }>(
    `SELECT count(*) FILTER (WHERE last_request_at >= $1)::int AS online,
            count(*) FILTER (WHERE last_request_at < $1 AND last_request_at >= $2)::int AS late,
            count(*) FILTER (WHERE last_request_at < $2)::int AS offline
       FROM key_presence`,
    [lateSince, offlineSince],
  );
  return rows[0] ?? { online: 0, late: 0, offline: 0 };
}

// ---- presence changes announced on the platform feed (D36 `merchant PRESENCE_CHANGED`) ---------

export interface PresenceChange {
  key_id: string;
  merchant_id: string;
  /** The state last announced (NULL: none yet). */
  announced: 'online' | 'late' | 'offline' | null;
  state: 'online' | 'late' | 'offline';
}

/**
 * Keys whose presence by last_request_at (online since `lateSince`, late since `offlineSince`,
 * offline before; as countByPresence and the switch read it) is not the one last announced.
 * One pass over key_presence (a row per key ever seen).
 */
export async function presenceChanges(
  db: Queryable,
  lateSince: Date,
  offlineSince: Date,
  limit: number,
): Promise<PresenceChange[]> {
  const { rows } = await db.query<PresenceChange>(
    `SELECT key_id, merchant_id, announced, state FROM (
       SELECT key_id, merchant_id, feed_state AS announced,
              CASE WHEN last_request_at >= $1 THEN 'online' WHEN last_request_at >= $2 THEN 'late' ELSE 'offline' END
                AS state
         FROM key_presence WHERE last_request_at IS NOT NULL) p
      WHERE announced IS DISTINCT FROM state
      ORDER BY key_id LIMIT $3`,
    [lateSince, offlineSince, limit],
  );
  return rows;
}

/**
 * Records the announced states (compare-and-set: a key whose announced state is no longer the
 * one read is left alone, another worker announced it); returns the keys moved.
 */
export async function announcePresence(tx: Queryable, changes: PresenceChange[]): Promise<PresenceChange[]> {
  if (changes.length === 0) return [];
  const { rows } = await tx.query<PresenceChange>(
    `UPDATE key_presence p SET feed_state = c.state
       FROM unnest($1::uuid[], $2::text[], $3::text[]) AS c(key_id, announced, state)
      WHERE p.key_id = c.key_id AND p.feed_state IS NOT DISTINCT FROM c.announced
      RETURNING p.key_id, p.merchant_id, c.announced, c.state`,
    [changes.map((c) => c.key_id), changes.map((c) => c.announced), changes.map((c) => c.state)],
  );
  return rows;
}
