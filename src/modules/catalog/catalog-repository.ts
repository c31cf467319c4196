import type { Queryable } from '../../db/db.js';
import { firstRow } from '../../lib/first-row.js';

export interface CategoryRow {
  id: string;
  merchant_id: string;
  pdv_external_id: string | null;
  name: string;
  index: number;
  status: 'AVAILABLE' | 'UNAVAILABLE';
  external_code: string;
}

export interface ProductRow {
  id: string;
  merchant_id: string;
  pdv_external_id: string | null;
  name: string;
  description: string;
  /** numeric as text: exact (D9) */
  price: string;
  unit: 'KG' | 'UN';
  status: 'AVAILABLE' | 'UNAVAILABLE';
  stock: string;
  external_code: string;
  ean: string;
  sku: string;
  /** D41: the code on the scale's labels; null when none was given. */
  scale_code: string | null;
  /** D42: the ordered quantity's limits (kg, exact text); the three null together. */
  weight_min: string | null;
  weight_max: string | null;
  weight_step: string | null;
  /** D44: hours (exact text), or null. */
  lead_time_hours: string | null;
}

const PRODUCT_COLUMNS = `id, merchant_id, pdv_external_id, name, description, price::text AS price, unit, status,
  stock::text AS stock, external_code, ean, sku, scale_code, weight_min::text AS weight_min,
  weight_max::text AS weight_max, weight_step::text AS weight_step, lead_time_hours::text AS lead_time_hours`;

/** A hand-made category goes after the merchant's existing ones (spec 2.4: index from 0). */
export async function insertHandMadeCategory(
  db: Queryable,
  c: { id: string; merchantId: string; name: string; status: string; externalCode: string; at: Date },
): Promise<CategoryRow> {
  const { rows } = await db.query<CategoryRow>(
    `INSERT INTO categories (id, merchant_id, pdv_external_id, name, "index", status, external_code, created_at, updated_at)
     SELECT $1, $2, NULL, $3, COALESCE(max("index") + 1, 0), $4, $5, $6, $6 FROM categories WHERE merchant_id = $2
     RETURNING id, merchant_id, pdv_external_id, name, "index", status, external_code`,
    [c.id, c.merchantId, c.name, c.status, c.externalCode, c.at],
  );
  return firstRow(rows, 'insert of a hand-made category');
}

export async function findCategory(db: Queryable, merchantId: string, id: string): Promise<CategoryRow | undefined> {
  const { rows } = await db.query<CategoryRow>(
    `SELECT id, merchant_id, pdv_external_id, name, "index", status, external_code
       FROM categories WHERE merchant_id = $1 AND id = $2`,
    [merchantId, id],
  );
  return rows[0];
}

export async function insertHandMadeProduct(
  db: Queryable,
  p: {
    id: string;
    merchantId: string;
    name: string;
    description: string;
    price: string;
    unit: string;
    status: string;
    externalCode: string;
    categoryId?: string;
    at: Date;
  },
): Promise<ProductRow> {
  const { rows } = await db.query<ProductRow>(
    `INSERT INTO products (id, merchant_id, pdv_external_id, name, description, price, unit, status, external_code,
                           created_at, updated_at)
     VALUES ($1, $2, NULL, $3, $4, $5::numeric, $6, $7, $8, $9, $9)
     RETURNING ${PRODUCT_COLUMNS}`,
    [p.id, p.merchantId, p.name, p.description, p.price, p.unit, p.status, p.externalCode, p.at],
  );
  if (p.categoryId) {
    await db.query(
      `INSERT INTO category_products (category_id, product_id, position)
       SELECT $1, $2, COALESCE(max(position) + 1, 0) FROM category_products WHERE category_id = $1`,
      [p.categoryId, p.id],
    );
  }
  return firstRow(rows, 'insert of a hand-made product');
}

/** Products of one merchant named by internal id or POS code (order intake). */
export async function findProductsByRefs(
  db: Queryable,
  merchantId: string,
  refs: { ids: string[]; pdvIds: string[] },
): Promise<ProductRow[]> {
  const { rows } = await db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products
      WHERE merchant_id = $1 AND (id = ANY($2::uuid[]) OR pdv_external_id = ANY($3::text[]))`,
    [merchantId, refs.ids, refs.pdvIds],
  );
  return rows;
}

// ---- The merchant record (spec 2.3–2.5) ----

export interface RecordHeadRow {
  id: string;
  status: 'AVAILABLE' | 'UNAVAILABLE';
  merchant_updated_at: Date;
  catalog_version: number;
  catalog_updated_at: Date | null;
  /** D43: the store's timed pause. */
  pause_reason: string | null;
  paused_until: Date | null;
}

/** One primary-key read: what a cached record is validated against (D24). */
export async function findRecordHead(db: Queryable, merchantId: string): Promise<RecordHeadRow | undefined> {
  const { rows } = await db.query<RecordHeadRow>(
    `SELECT m.id, m.status, m.updated_at AS merchant_updated_at, COALESCE(s.version, 0) AS catalog_version,
            s.updated_at AS catalog_updated_at, m.pause_reason, m.paused_until
       FROM merchants m LEFT JOIN catalog_states s ON s.merchant_id = m.id
      WHERE m.id = $1`,
    [merchantId],
  );
  return rows[0];
}

export interface RecordCategoryRow extends CategoryRow {
  product_ids: string[];
}

export async function listRecordCategories(db: Queryable, merchantId: string): Promise<RecordCategoryRow[]> {
  const { rows } = await db.query<RecordCategoryRow>(
    `SELECT c.id, c.merchant_id, c.pdv_external_id, c.name, c."index", c.status, c.external_code,
            COALESCE((SELECT array_agg(cp.product_id::text ORDER BY cp.position, cp.product_id)
                        FROM category_products cp WHERE cp.category_id = c.id), '{}') AS product_ids
       FROM categories c
      WHERE c.merchant_id = $1
      ORDER BY c."index", c.name, c.id`,
    [merchantId],
  );
  return rows;
}

export async function listRecordProducts(db: Queryable, merchantId: string): Promise<ProductRow[]> {
  const { rows } = await db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products WHERE merchant_id = $1 ORDER BY name, id`,
    [merchantId],
  );
  return rows;
}

export async function listRecordMedia(
  db: Queryable,
  merchantId: string,
): Promise<Array<{ product_id: string; url: string }>> {
  const { rows } = await db.query<{ product_id: string; url: string }>(
    `SELECT m.product_id, m.url FROM product_media m JOIN products p ON p.id = m.product_id
      WHERE p.merchant_id = $1 ORDER BY m.product_id, m.position`,
    [merchantId],
  );
  return rows;
}

export interface CutRow {
  product_id: string;
  id: string;
  name: string;
  spice_id: string | null;
  spice_name: string | null;
}

export async function listRecordCuts(db: Queryable, merchantId: string): Promise<CutRow[]> {
  const { rows } = await db.query<CutRow>(
    `SELECT k.product_id, k.id, k.name, k.spice_id, k.spice_name FROM product_cuts k JOIN products p ON p.id = k.product_id
      WHERE p.merchant_id = $1 ORDER BY k.product_id, k.position, k.id`,
    [merchantId],
  );
  return rows;
}

// ---- Cuts (D37): written by operators only, never by an upload ----

/** One product of this merchant (operator routes: 404 for another merchant's). */
export async function findProduct(db: Queryable, merchantId: string, id: string): Promise<ProductRow | undefined> {
  const { rows } = await db.query<ProductRow>(
    `SELECT ${PRODUCT_COLUMNS} FROM products WHERE merchant_id = $1 AND id = $2`,
    [merchantId, id],
  );
  return rows[0];
}

/** The cuts of these products, in the order they were added (order intake, the product page). */
export async function listCutsOfProducts(db: Queryable, productIds: string[]): Promise<CutRow[]> {
  if (productIds.length === 0) return [];
  const { rows } = await db.query<CutRow>(
    `SELECT product_id, id, name, spice_id, spice_name FROM product_cuts
      WHERE product_id = ANY($1::uuid[]) ORDER BY product_id, position, id`,
    [productIds],
  );
  return rows;
}

/** A new cut after the product's others; undefined when the product already has a cut of this id. */
export async function insertCut(
  db: Queryable,
  c: { productId: string; id: string; name: string; spiceId: string | null; spiceName: string | null },
): Promise<CutRow | undefined> {
  const { rows } = await db.query<CutRow>(
    `INSERT INTO product_cuts (id, product_id, name, spice_id, spice_name, position)
     SELECT $1, $2, $3, $4, $5, COALESCE(max(position) + 1, 0) FROM product_cuts WHERE product_id = $2
     ON CONFLICT (product_id, id) DO NOTHING
     RETURNING product_id, id, name, spice_id, spice_name`,
    [c.id, c.productId, c.name, c.spiceId, c.spiceName],
  );
  return rows[0];
}

export async function deleteCut(db: Queryable, productId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM product_cuts WHERE product_id = $1 AND id = $2', [productId, id]);
  return rowCount > 0;
}
