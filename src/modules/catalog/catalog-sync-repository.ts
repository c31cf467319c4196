// SQL of the catalog sync queue (D16): one row per upload, pull or notification, claimed under a
// lease, finished with its outcome. Applying a plan is catalog-apply-repository.ts.
import type { Queryable } from '../../db/db.js';
import type { OdEntityType } from '../opendelivery/index.js';

export const SYNC_CHANNEL = 'catalog_sync';

/** UPLOAD: PUT /v1/merchantUpdate; PULL: fetched from the POS (D20); NOTIFY: OD's POST /v1/merchantUpdate (D29). */
export type SyncSource = 'UPLOAD' | 'PULL' | 'NOTIFY';
/** How a payload is read: our upload shapes or Open Delivery's (D29). */
export type SyncFormat = 'cleaver' | 'opendelivery';

export interface SyncRow {
  id: string;
  seq: number;
  merchant_id: string;
  source: SyncSource;
  format: SyncFormat;
  /** Ours (MERCHANT, ITEM, ITEM_OFFER) or, for a notification, Open Delivery's (a superset). */
  entity_type: OdEntityType | null;
  status: 'PROCESSING' | 'SUCCESS' | 'FAIL';
  more_info: string | null;
  details: Record<string, unknown> | null;
  attempts: number;
  received_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

const SYNC_COLUMNS = `id, seq, merchant_id, source, format, entity_type, status, more_info, details, attempts,
  received_at, started_at, finished_at`;

/** Stores an accepted upload (or a pull to fetch) and wakes the workers on commit. */
export async function insertSync(
  db: Queryable,
  s: {
    id: string;
    merchantId: string;
    source: SyncSource;
    format?: SyncFormat;
    entityType: OdEntityType | null;
    /** Null only for a pull whose answer is fetched by the worker. */
    payload: unknown;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `WITH inserted AS (
       INSERT INTO catalog_syncs (id, merchant_id, source, format, entity_type, payload, received_at)
       VALUES ($1, $2, $3, $4, $5, $6::json, $7) RETURNING merchant_id)
     SELECT pg_notify('${SYNC_CHANNEL}', merchant_id::text) FROM inserted`,
    [
      s.id,
      s.merchantId,
      s.source,
      s.format ?? 'cleaver',
      s.entityType,
      s.payload === null ? null : JSON.stringify(s.payload),
      s.at,
    ],
  );
}

export interface ClaimedSync extends SyncRow {
  payload: unknown;
  lease_owner: string;
}

/**
 * Claims the oldest runnable upload: the first unfinished one of its merchant (one at a time, in
 * arrival order, D16), not leased or with an expired lease (a crashed worker's). SKIP LOCKED lets
 * several workers claim different merchants at once.
 */
export async function claimNextSync(
  db: Queryable,
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<ClaimedSync | undefined> {
  const { rows } = await db.query<ClaimedSync>(
    `UPDATE catalog_syncs s
        SET lease_owner = $1, lease_until = $2::timestamptz + ($3::int * interval '1 millisecond'),
            attempts = s.attempts + 1, started_at = COALESCE(s.started_at, $2)
      WHERE s.id = (
        SELECT c.id FROM catalog_syncs c
         WHERE c.status = 'PROCESSING'
           AND (c.lease_until IS NULL OR c.lease_until <= $2)
           AND NOT EXISTS (SELECT 1 FROM catalog_syncs e
                            WHERE e.merchant_id = c.merchant_id AND e.status = 'PROCESSING' AND e.seq < c.seq)
         ORDER BY c.seq
         LIMIT 1
         FOR UPDATE SKIP LOCKED)
        AND s.status = 'PROCESSING'
      RETURNING ${SYNC_COLUMNS}, payload, lease_owner`,
    [owner, now, leaseMs],
  );
  return rows[0];
}

/**
 * When the safety sweep should look next: the earliest lease expiry among unfinished uploads, or
 * `now` when a runnable upload has no lease yet. That case is another worker's claim not yet
 * committed (SKIP LOCKED passed over it): without it, this worker would sleep a whole safety
 * poll instead of until that claim's lease, and re-run a crashed worker's upload late.
 */
export async function nextLeaseExpiry(db: Queryable, now: Date): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(CASE WHEN c.lease_until IS NOT NULL THEN c.lease_until
                     WHEN NOT EXISTS (SELECT 1 FROM catalog_syncs e
                                       WHERE e.merchant_id = c.merchant_id AND e.status = 'PROCESSING'
                                         AND e.seq < c.seq) THEN $1::timestamptz END) AS at
       FROM catalog_syncs c WHERE c.status = 'PROCESSING'`,
    [now],
  );
  return rows[0]?.at ?? null;
}

/** Heartbeat: the uploads this worker is still applying keep their lease (compare-and-set on the owner). */
export async function extendSyncLeases(
  db: Queryable,
  ids: string[],
  owner: string,
  now: Date,
  leaseMs: number,
): Promise<void> {
  await db.query(
    `UPDATE catalog_syncs SET lease_until = $3::timestamptz + ($4::int * interval '1 millisecond')
      WHERE id = ANY($1::uuid[]) AND lease_owner = $2 AND status = 'PROCESSING'`,
    [ids, owner, now, leaseMs],
  );
}

/**
 * A pulled POS answer becomes the sync's payload (D20), under the same lease: a re-run after a
 * crash processes it without fetching again. The text is stored as received (json keeps it as is).
 */
export async function storePulledPayload(
  db: Queryable,
  p: { id: string; owner: string; raw: string; entityType: OdEntityType | null; format: SyncFormat },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE catalog_syncs SET payload = $3::json, entity_type = $4, format = $5
      WHERE id = $1 AND lease_owner = $2 AND status = 'PROCESSING'`,
    [p.id, p.owner, p.raw, p.entityType, p.format],
  );
  return rowCount === 1;
}

/** Compare-and-set on the lease: false when another worker took the upload over. */
export async function finishSync(
  db: Queryable,
  f: { id: string; owner: string; status: 'SUCCESS' | 'FAIL'; moreInfo: string; details: unknown; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE catalog_syncs
        SET status = $3, more_info = $4, details = $5::jsonb, finished_at = $6, lease_owner = NULL, lease_until = NULL
      WHERE id = $1 AND lease_owner = $2 AND status = 'PROCESSING'`,
    [f.id, f.owner, f.status, f.moreInfo, JSON.stringify(f.details), f.at],
  );
  return rowCount === 1;
}

/** D36: the products an apply wrote (added or changed), by their write time. */
export async function productIdsWrittenAt(db: Queryable, merchantId: string, at: Date): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    'SELECT id FROM products WHERE merchant_id = $1 AND updated_at = $2 ORDER BY id',
    [merchantId, at],
  );
  return rows.map((r) => r.id);
}

/** Bumps the version that validates cached merchant records (D24). */
export async function touchCatalogState(db: Queryable, merchantId: string, at: Date): Promise<void> {
  await db.query(
    `INSERT INTO catalog_states (merchant_id, version, updated_at) VALUES ($1, 1, $2)
     ON CONFLICT (merchant_id) DO UPDATE SET version = catalog_states.version + 1, updated_at = $2`,
    [merchantId, at],
  );
}

export async function latestSync(db: Queryable, merchantId: string): Promise<SyncRow | undefined> {
  const { rows } = await db.query<SyncRow>(
    `SELECT ${SYNC_COLUMNS} FROM catalog_syncs WHERE merchant_id = $1 ORDER BY seq DESC LIMIT 1`,
    [merchantId],
  );
  return rows[0];
}

/** Newest first; `beforeSeq` is the keyset position (operator-api.md#lists) on (merchant_id, seq). */
export async function listSyncs(
  db: Queryable,
  merchantId: string,
  filter: { status?: string; beforeSeq?: number; limit: number },
): Promise<SyncRow[]> {
  const { rows } = await db.query<SyncRow>(
    `SELECT ${SYNC_COLUMNS} FROM catalog_syncs
      WHERE merchant_id = $1 AND ($2::text IS NULL OR status = $2) AND ($3::bigint IS NULL OR seq < $3)
      ORDER BY seq DESC LIMIT $4`,
    [merchantId, filter.status ?? null, filter.beforeSeq ?? null, filter.limit],
  );
  return rows;
}

// ---- Retention (D30) --------------------------------------------------------------------------

/** Drops the payloads of finished syncs beyond each merchant's last `keep` (one bounded batch). */
export async function dropOldPayloads(db: Queryable, keep: number, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `UPDATE catalog_syncs SET payload = NULL WHERE id = ANY (ARRAY(
       SELECT id FROM (
         SELECT id, status, row_number() OVER (PARTITION BY merchant_id ORDER BY seq DESC) AS n
           FROM catalog_syncs WHERE payload IS NOT NULL
       ) ranked WHERE n > $1 AND status <> 'PROCESSING' LIMIT $2))`,
    [keep, limit],
  );
  return rowCount;
}

/** Finished syncs older than `before`, except each merchant's latest (merchantStatus reads it). */
export async function deleteOldSyncs(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM catalog_syncs WHERE id = ANY (ARRAY(
       SELECT s.id FROM catalog_syncs s
        WHERE s.status <> 'PROCESSING' AND s.finished_at < $1
          AND EXISTS (SELECT 1 FROM catalog_syncs n WHERE n.merchant_id = s.merchant_id AND n.seq > s.seq)
        ORDER BY s.finished_at LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}
