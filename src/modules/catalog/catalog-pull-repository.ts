// SQL of the pull's memory (D20, D29): the last answer applied with SUCCESS per merchant, so an
// unchanged menu is not processed again (see catalog_pull_states in migration 0009).
import type { Queryable } from '../../db/db.js';

export interface PullState {
  url: string;
  etag: string | null;
  body_sha256: string;
  applied_at: Date;
  /** True while the catalog is still exactly what that answer produced. */
  current: boolean;
}

export async function findPullState(db: Queryable, merchantId: string): Promise<PullState | undefined> {
  const { rows } = await db.query<PullState>(
    `SELECT p.url, p.etag, p.body_sha256, p.applied_at, (p.catalog_version = s.version) AS current
       FROM catalog_pull_states p LEFT JOIN catalog_states s ON s.merchant_id = p.merchant_id
      WHERE p.merchant_id = $1`,
    [merchantId],
  );
  const row = rows[0];
  return row ? { ...row, current: row.current === true } : undefined;
}

/** Inside the apply transaction, after the catalog version was bumped: remembers this answer. */
export async function savePullState(
  tx: Queryable,
  s: { merchantId: string; url: string; etag: string | null; sha256: string; syncId: string; at: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO catalog_pull_states (merchant_id, url, etag, body_sha256, catalog_version, sync_id, applied_at)
     SELECT $1, $2, $3, $4, s.version, $5, $6 FROM catalog_states s WHERE s.merchant_id = $1
     ON CONFLICT (merchant_id) DO UPDATE
       SET url = excluded.url, etag = excluded.etag, body_sha256 = excluded.body_sha256,
           catalog_version = excluded.catalog_version, sync_id = excluded.sync_id, applied_at = excluded.applied_at`,
    [s.merchantId, s.url, s.etag, s.sha256, s.syncId, s.at],
  );
}

/** The same body came back under a new ETag: keep the new one for the next If-None-Match. */
export async function updatePullEtag(db: Queryable, merchantId: string, etag: string): Promise<void> {
  await db.query(`UPDATE catalog_pull_states SET etag = $2 WHERE merchant_id = $1 AND etag IS DISTINCT FROM $2`, [
    merchantId,
    etag,
  ]);
}
