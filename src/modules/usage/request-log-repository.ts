// The request log's statements (migrations 0020, 0021): a key's requests are stored a batch to a
// row (modules/usage/request-log-batch.ts says what a row holds and why). The batch insert, the
// trim to the batches that hold a key's newest requests, a key's newest batches, and retention
// by age.
import type { Queryable } from '../../db/db.js';
import { insertUnnested } from '../../db/unnest.js';

export interface RequestLogBatchInsert {
  keyId: string;
  merchantId: string;
  firstAt: Date;
  lastAt: Date;
  /** How many requests `requests` holds (1 to 1,000). */
  entries: number;
  /** The batch's requests as JSON text, oldest first. */
  requests: string;
}

/** One statement whatever the number of batches; batches get seq in the order given. */
export async function insertBatches(db: Queryable, batches: RequestLogBatchInsert[]): Promise<void> {
  // Text arrays: measured cheaper on the embedded database than one JSON document of the batches
  // (docs/adr/0014-request-log-in-batches.md).
  await insertUnnested(
    db,
    `INSERT INTO request_log_batches (key_id, merchant_id, first_at, last_at, entries, requests)
     SELECT key_id, merchant_id, first_at, last_at, entries, requests
       FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::timestamptz[], $5::int[], $6::text[])
            WITH ORDINALITY AS b(key_id, merchant_id, first_at, last_at, entries, requests, n)
      ORDER BY n`,
    batches,
    ['keyId', 'merchantId', 'firstAt', 'lastAt', 'entries', 'requests'],
  );
}

/**
 * Each of these keys keeps the batches that hold its newest `keep` requests (the oldest of them
 * may hold older ones too, which reads skip); returns how many batches went.
 */
export async function trimKeys(db: Queryable, keyIds: string[], keep: number): Promise<number> {
  if (keyIds.length === 0) return 0;
  const { rowCount } = await db.query(
    `DELETE FROM request_log_batches r
      USING (SELECT key_id, seq
               FROM (SELECT key_id, seq,
                            sum(entries) OVER (PARTITION BY key_id ORDER BY seq DESC ROWS UNBOUNDED PRECEDING)
                              - entries AS newer
                       FROM request_log_batches WHERE key_id = ANY ($1::uuid[])) k
              WHERE newer >= $2) old
      WHERE r.key_id = old.key_id AND r.seq = old.seq`,
    [keyIds, keep],
  );
  return rowCount;
}

export interface RequestLogBatchRow {
  /** seq as text (a bigint). */
  seq: string;
  entries: number;
  /** How many of the key's requests are newer than this batch's. */
  newer: number;
  requests: string;
}

/**
 * A key's batches newest first that hold any of its newest `keep` requests, have one since
 * `since`, and start before the batch `beforeSeq` (or are it).
 */
export async function listKeyBatches(
  db: Queryable,
  keyId: string,
  filter: { since: Date; keep: number; beforeSeq?: string },
): Promise<RequestLogBatchRow[]> {
  // b.seq, not seq: ORDER BY a bare name takes the output column, the text alias, and sorted
  // batch 9 above 10 and 83 above 285, so the newest were never read.
  const { rows } = await db.query<RequestLogBatchRow>(
    `SELECT b.seq::text AS seq, entries, newer::int AS newer, requests
       FROM (SELECT seq, entries, last_at, requests,
                    sum(entries) OVER (ORDER BY seq DESC ROWS UNBOUNDED PRECEDING) - entries AS newer
               FROM request_log_batches WHERE key_id = $1) b
      WHERE newer < $2 AND last_at >= $3 AND ($4::bigint IS NULL OR b.seq <= $4)
      ORDER BY b.seq DESC`,
    [keyId, filter.keep, filter.since, filter.beforeSeq ?? null],
  );
  return rows;
}

/** D30: batches whose newest request is older than `before` go, a bounded number per call; returns the requests removed. */
export async function pruneBatches(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM request_log_batches WHERE ctid = ANY (ARRAY(
         SELECT ctid FROM request_log_batches WHERE last_at < $1 ORDER BY last_at LIMIT $2))
       RETURNING entries)
     SELECT coalesce(sum(entries), 0)::int AS n FROM gone`,
    [before, limit],
  );
  return rows[0]?.n ?? 0;
}
