import type { Queryable } from '../../db/db.js';
import { insertUnnested } from '../../db/unnest.js';

export interface NoticeInput {
  at: Date;
  kind: string;
  merchantId: string | null;
  message: string;
  detail: Record<string, unknown>;
}

export interface NoticeRow {
  id: number;
  at: Date;
  kind: string;
  merchant_id: string | null;
  message: string;
  detail: Record<string, unknown>;
}

export async function insertNotices(db: Queryable, notices: NoticeInput[]): Promise<void> {
  await insertUnnested(
    db,
    `INSERT INTO notices (at, kind, merchant_id, message, detail)
     SELECT * FROM unnest($1::timestamptz[], $2::text[], $3::uuid[], $4::text[], $5::jsonb[])`,
    notices,
    ['at', 'kind', 'merchantId', 'message', (n) => JSON.stringify(n.detail)],
  );
}

/** Newest first; keyset pagination on id (operator-api.md#lists). */
export async function listNotices(
  db: Queryable,
  filter: { merchantId?: string; kind?: string; beforeId?: number; limit: number },
): Promise<NoticeRow[]> {
  const { rows } = await db.query<NoticeRow>(
    `SELECT id, at, kind, merchant_id, message, detail FROM notices
      WHERE ($1::uuid IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR kind = $2)
        AND ($3::bigint IS NULL OR id < $3)
      ORDER BY id DESC LIMIT $4`,
    [filter.merchantId ?? null, filter.kind ?? null, filter.beforeId ?? null, filter.limit],
  );
  return rows;
}

/**
 * One notice, unless one of its kind about the same integration key was raised since `since`
 * (D39: a key's acknowledgment mismatches, once a day). One statement: the check and the insert
 * see the same rows; two requests at the very same moment may both insert, which costs a
 * duplicate line, never a lost one.
 */
export async function insertNoticeUnlessSince(
  db: Queryable,
  notice: NoticeInput,
  keyId: string,
  since: Date,
): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO notices (at, kind, merchant_id, message, detail)
     SELECT $1, $2, $3, $4, $5::jsonb
      WHERE NOT EXISTS (SELECT 1 FROM notices
                         WHERE merchant_id IS NOT DISTINCT FROM $3 AND kind = $2 AND at > $7
                           AND detail->>'keyId' = $6)`,
    [notice.at, notice.kind, notice.merchantId, notice.message, JSON.stringify(notice.detail), keyId, since],
  );
  return rowCount > 0;
}
