// The request log's statements (migration 0019): the batch insert, the trim to the newest rows of
// each key, a key's page newest first, and retention by age.
import type { Queryable } from '../../db/db.js';

export interface RequestLogInsert {
  keyId: string;
  merchantId: string;
  at: Date;
  requestId: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  errorTitle: string | null;
  body: string | null;
  bodyTruncated: boolean;
}

/** One statement whatever the batch size; rows get seq in the order given. */
export async function insertRequests(db: Queryable, rows: RequestLogInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO request_log (key_id, merchant_id, at, request_id, method, path, status, duration_ms, error_title,
                              body, body_truncated)
     SELECT key_id, merchant_id, at, request_id, method, path, status, duration_ms, error_title, body, body_truncated
       FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::text[], $5::text[], $6::text[], $7::smallint[],
                   $8::int[], $9::text[], $10::text[], $11::boolean[])
            WITH ORDINALITY AS r(key_id, merchant_id, at, request_id, method, path, status, duration_ms, error_title,
                                 body, body_truncated, n)
      ORDER BY n`,
    [
      rows.map((r) => r.keyId),
      rows.map((r) => r.merchantId),
      rows.map((r) => r.at),
      rows.map((r) => r.requestId),
      rows.map((r) => r.method),
      rows.map((r) => r.path),
      rows.map((r) => r.status),
      rows.map((r) => r.durationMs),
      rows.map((r) => r.errorTitle),
      rows.map((r) => r.body),
      rows.map((r) => r.bodyTruncated),
    ],
  );
}

/** Each of these keys keeps its newest `keep` rows; returns how many rows went. */
export async function trimKeys(db: Queryable, keyIds: string[], keep: number): Promise<number> {
  if (keyIds.length === 0) return 0;
  const { rowCount } = await db.query(
    `DELETE FROM request_log r
      USING (SELECT k.key_id,
                    (SELECT l.seq FROM request_log l WHERE l.key_id = k.key_id
                      ORDER BY l.seq DESC OFFSET $2 LIMIT 1) AS floor
               FROM unnest($1::uuid[]) AS k(key_id)) f
      WHERE f.floor IS NOT NULL AND r.key_id = f.key_id AND r.seq <= f.floor`,
    [keyIds, keep],
  );
  return rowCount;
}

export interface RequestLogRow {
  /** seq as text (a bigint): the `before` of the next page. */
  position: string;
  at: Date;
  request_id: string;
  method: string;
  path: string;
  status: number;
  duration_ms: number;
  error_title: string | null;
  body: string | null;
  body_truncated: boolean;
}

/**
 * A key's requests newest first: only its newest `keep` rows since `since` (what a trim not yet
 * run would leave), before the `beforeSeq` position, failed ones (status >= 400) or one status only.
 */
export async function listKeyRequests(
  db: Queryable,
  keyId: string,
  filter: { since: Date; keep: number; beforeSeq?: string; failed?: boolean; status?: number; limit: number },
): Promise<RequestLogRow[]> {
  const { rows } = await db.query<RequestLogRow>(
    `SELECT seq::text AS position, at, request_id, method, path, status, duration_ms, error_title, body, body_truncated
       FROM request_log
      WHERE key_id = $1 AND at >= $2
        AND seq >= COALESCE((SELECT l.seq FROM request_log l WHERE l.key_id = $1
                              ORDER BY l.seq DESC OFFSET $3 LIMIT 1), 0)
        AND ($4::bigint IS NULL OR seq < $4)
        AND ($5::boolean IS NOT TRUE OR status >= 400)
        AND ($6::int IS NULL OR status = $6)
      ORDER BY request_log.seq DESC LIMIT $7`,
    [
      keyId,
      filter.since,
      filter.keep - 1,
      filter.beforeSeq ?? null,
      filter.failed ?? null,
      filter.status ?? null,
      filter.limit,
    ],
  );
  return rows;
}

/** D30: rows older than `before` go, one bounded batch per call. */
export async function pruneRequests(db: Queryable, before: Date, limit: number): Promise<number> {
  const { rowCount } = await db.query(
    `DELETE FROM request_log WHERE ctid = ANY (ARRAY(
       SELECT ctid FROM request_log WHERE at < $1 ORDER BY at LIMIT $2))`,
    [before, limit],
  );
  return rowCount;
}
