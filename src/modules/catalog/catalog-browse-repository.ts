// Browsing a large catalog a page at a time (operator-api.md#lists): the console's catalog page
// reads one page of products by (name, id) and the categories with their product counts, never
// the whole record (a 50,000-product catalog is 5 MB of HTML when rendered whole).
import type { Queryable } from '../../db/db.js';

export interface BrowsedProduct {
  id: string;
  pdv_external_id: string | null;
  name: string;
  description: string;
  price: string;
  unit: string;
  status: string;
  external_code: string;
}

export interface ProductFilter {
  /** Part of the name (any case), or exactly the POS id or the external code. */
  q?: string;
  categoryId?: string;
  status?: string;
  /** Keyset position: the (name, id) of the last product of the previous page. */
  after?: { key: string; id: string };
  limit: number;
}

export async function browseProducts(db: Queryable, merchantId: string, f: ProductFilter): Promise<BrowsedProduct[]> {
  const q = f.q?.trim() || null;
  const { rows } = await db.query<BrowsedProduct>(
    `SELECT p.id, p.pdv_external_id, p.name, p.description, p.price::text AS price, p.unit, p.status, p.external_code
       FROM products p
      WHERE p.merchant_id = $1
        AND ($2::text IS NULL OR p.name ILIKE '%' || $3 || '%' OR p.pdv_external_id = $2 OR p.external_code = $2)
        AND ($4::uuid IS NULL OR EXISTS (SELECT 1 FROM category_products cp WHERE cp.category_id = $4 AND cp.product_id = p.id))
        AND ($5::text IS NULL OR p.status = $5)
        AND ($6::text IS NULL OR (p.name, p.id) > ($6, $7::uuid))
      ORDER BY p.name, p.id LIMIT $8`,
    [
      merchantId,
      q,
      // LIKE wildcards typed by a person are literal characters.
      q?.replace(/[\\%_]/g, (c) => `\\${c}`) ?? null,
      f.categoryId ?? null,
      f.status ?? null,
      f.after?.key ?? null,
      f.after?.id ?? null,
      f.limit,
    ],
  );
  return rows;
}

export interface CategoryCount {
  id: string;
  pdv_external_id: string | null;
  name: string;
  status: string;
  products: number;
}

/** The merchant's categories in menu order, each with how many products it holds. */
export async function categoryCounts(db: Queryable, merchantId: string): Promise<CategoryCount[]> {
  const { rows } = await db.query<CategoryCount>(
    `SELECT c.id, c.pdv_external_id, c.name, c.status,
            (SELECT count(*)::int FROM category_products cp WHERE cp.category_id = c.id) AS products
       FROM categories c WHERE c.merchant_id = $1 ORDER BY c."index", c.id`,
    [merchantId],
  );
  return rows;
}

export async function productCount(db: Queryable, merchantId: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM products WHERE merchant_id = $1', [
    merchantId,
  ]);
  return rows[0]?.n ?? 0;
}

/** How many products, and how many of them available. */
export async function productCounts(db: Queryable, merchantId: string): Promise<{ total: number; available: number }> {
  const { rows } = await db.query<{ total: number; available: number }>(
    `SELECT count(*)::int AS total, (count(*) FILTER (WHERE status = 'AVAILABLE'))::int AS available
       FROM products WHERE merchant_id = $1`,
    [merchantId],
  );
  return rows[0] ?? { total: 0, available: 0 };
}

export interface SyncDay {
  day: string;
  success: number;
  fail: number;
  processing: number;
}

/** A merchant's catalog syncs per calendar day in `zone` since `since`, by outcome. */
export async function syncsByDay(db: Queryable, merchantId: string, since: Date, zone: string): Promise<SyncDay[]> {
  const { rows } = await db.query<SyncDay>(
    `SELECT to_char(received_at AT TIME ZONE $3, 'YYYY-MM-DD') AS day,
            (count(*) FILTER (WHERE status = 'SUCCESS'))::int AS success,
            (count(*) FILTER (WHERE status = 'FAIL'))::int AS fail,
            (count(*) FILTER (WHERE status = 'PROCESSING'))::int AS processing
       FROM catalog_syncs WHERE merchant_id = $1 AND received_at >= $2
      GROUP BY 1 ORDER BY 1`,
    [merchantId, since, zone],
  );
  return rows;
}
