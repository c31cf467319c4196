import type { Queryable } from '../../db/db.js';
import { type SearchPageFilter, searchPageParams } from '../../db/search-page.js';

export interface LogisticsAppRow {
  id: string;
  name: string;
  secret_enc: string;
  active: boolean;
  created_at: Date;
  merchant_ids: string[];
}

export async function insertLogisticsApp(
  db: Queryable,
  app: { id: string; name: string; secretEnc: string; merchantIds: string[]; createdAt: Date },
): Promise<void> {
  await db.query('INSERT INTO logistics_apps (id, name, secret_enc, created_at) VALUES ($1, $2, $3, $4)', [
    app.id,
    app.name,
    app.secretEnc,
    app.createdAt,
  ]);
  await db.query(
    `INSERT INTO logistics_app_merchants (app_id, merchant_id)
     SELECT $1, m FROM unnest($2::uuid[]) AS m ON CONFLICT DO NOTHING`,
    [app.id, app.merchantIds],
  );
}

export async function findLogisticsApp(db: Queryable, id: string): Promise<LogisticsAppRow | undefined> {
  const { rows } = await db.query<LogisticsAppRow>(
    `SELECT a.id, a.name, a.secret_enc, a.active, a.created_at,
            COALESCE(array_agg(l.merchant_id::text ORDER BY l.merchant_id) FILTER (WHERE l.merchant_id IS NOT NULL), '{}') AS merchant_ids
       FROM logistics_apps a LEFT JOIN logistics_app_merchants l ON l.app_id = a.id
      WHERE a.id = $1 GROUP BY a.id`,
    [id],
  );
  return rows[0];
}

/**
 * Oldest first, a keyset page at a time (operator-api.md#lists); `q` is part of the name (any
 * case) or the app id, `active` filters. The page is chosen first, then its merchants are joined.
 */
export async function listLogisticsApps(
  db: Queryable,
  filter: SearchPageFilter & { active?: boolean } = {},
): Promise<LogisticsAppRow[]> {
  const page = searchPageParams(filter);
  const { rows } = await db.query<LogisticsAppRow>(
    `WITH chosen AS (
       SELECT * FROM logistics_apps
        WHERE ($1::text IS NULL OR name ILIKE '%' || $2 || '%' OR id::text = lower($1))
          AND ($3::boolean IS NULL OR active = $3)
          AND ($4::timestamptz IS NULL OR (created_at, id) > ($4, $5::uuid))
        ORDER BY created_at, id LIMIT $6)
     SELECT a.id, a.name, a.secret_enc, a.active, a.created_at,
            COALESCE(array_agg(l.merchant_id::text ORDER BY l.merchant_id) FILTER (WHERE l.merchant_id IS NOT NULL), '{}') AS merchant_ids
       FROM chosen a LEFT JOIN logistics_app_merchants l ON l.app_id = a.id
      GROUP BY a.id, a.name, a.secret_enc, a.active, a.created_at ORDER BY a.created_at, a.id`,
    [page.q, page.qLiteral, filter.active ?? null, page.afterAt, page.afterId, page.limit],
  );
  return rows;
}

export async function deactivateLogisticsApp(db: Queryable, id: string, at: Date): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE logistics_apps SET active = false, deactivated_at = $2 WHERE id = $1 AND active',
    [id, at],
  );
  return rowCount > 0;
}
