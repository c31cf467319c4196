// D43: the pause and the counted stock of products (product_availability), read with the
// product's own status, unit and stock minimum. Every take of stock is one conditional UPDATE
// (`stock >= quantity`): two confirmations racing for the last kilograms leave one of them short,
// never a negative stock.
import type { Queryable } from '../../db/db.js';

export type PauseReason = 'OUT_OF_STOCK' | 'QUALITY' | 'NOT_TODAY' | 'OTHER';

export interface AvailabilityRow {
  product_id: string;
  merchant_id: string;
  pdv_external_id: string | null;
  unit: 'KG' | 'UN';
  /** The catalog's own status (uploads write it). */
  status: 'AVAILABLE' | 'UNAVAILABLE';
  paused: boolean;
  pause_reason: PauseReason | null;
  paused_until: Date | null;
  /** numeric as text; null: not counted. */
  stock: string | null;
  /** The stock at or below which the product is out of stock (weight.min for KG, 0 for UN). */
  stock_min: string;
}

/**
 * D43: a KG product is out of stock at or below its weight minimum (the least a customer may
 * order), a UN product at 0.
 */
const STOCK_MIN = `(CASE WHEN p.unit = 'KG' THEN COALESCE(p.weight_min, 0) ELSE 0 END)::text`;

const COLUMNS = `p.id AS product_id, p.merchant_id, p.pdv_external_id, p.unit, p.status,
  COALESCE(a.paused, false) AS paused, a.pause_reason, a.paused_until, a.stock::text AS stock,
  ${STOCK_MIN} AS stock_min`;

/** The products of a merchant named by id or POS code, with their availability. */
export async function findAvailability(
  db: Queryable,
  merchantId: string,
  refs: { ids: string[]; pdvIds: string[] },
): Promise<AvailabilityRow[]> {
  const { rows } = await db.query<AvailabilityRow>(
    `SELECT ${COLUMNS} FROM products p LEFT JOIN product_availability a ON a.product_id = p.id
      WHERE p.merchant_id = $1 AND (p.id = ANY($2::uuid[]) OR p.pdv_external_id = ANY($3::text[]))`,
    [merchantId, refs.ids, refs.pdvIds],
  );
  return rows;
}

/** Every product of a merchant that has a pause or a counted stock (the merchant record, lists). */
export async function listAvailability(db: Queryable, merchantId: string): Promise<AvailabilityRow[]> {
  const { rows } = await db.query<AvailabilityRow>(
    `SELECT ${COLUMNS} FROM product_availability a JOIN products p ON p.id = a.product_id
      WHERE a.merchant_id = $1`,
    [merchantId],
  );
  return rows;
}

/** The same row for these product ids, locked for the caller's transaction, in id order. */
export async function lockAvailability(db: Queryable, productIds: string[]): Promise<AvailabilityRow[]> {
  if (productIds.length === 0) return [];
  const { rows } = await db.query<AvailabilityRow>(
    `SELECT ${COLUMNS} FROM products p LEFT JOIN product_availability a ON a.product_id = p.id
      WHERE p.id = ANY($1::uuid[]) ORDER BY p.id FOR UPDATE OF p`,
    [productIds],
  );
  return rows;
}

/**
 * Writes what the availability route says of one product: the pause (or its end) and, when
 * given, the stock. `pause` undefined leaves it as it is.
 */
export async function writeAvailability(
  db: Queryable,
  a: {
    productId: string;
    merchantId: string;
    pause?: { paused: boolean; reason: PauseReason | null; until: Date | null };
    stock?: string;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO product_availability (product_id, merchant_id, paused, pause_reason, paused_until, stock, updated_at)
     VALUES ($1, $2, COALESCE($3::boolean, false), $4, $5, $6::numeric, $7)
     ON CONFLICT (product_id) DO UPDATE SET
       paused = COALESCE($3::boolean, product_availability.paused),
       pause_reason = CASE WHEN $3::boolean IS NULL THEN product_availability.pause_reason ELSE $4 END,
       paused_until = CASE WHEN $3::boolean IS NULL THEN product_availability.paused_until ELSE $5 END,
       stock = COALESCE($6::numeric, product_availability.stock),
       updated_at = $7`,
    [
      a.productId,
      a.merchantId,
      a.pause ? a.pause.paused : null,
      a.pause?.reason ?? null,
      a.pause?.until ?? null,
      a.stock ?? null,
      a.at,
    ],
  );
}

/** The route's `available: true` also switches the catalog's own status on (no upload needed). */
export async function setCatalogStatusAvailable(db: Queryable, productId: string, at: Date): Promise<void> {
  await db.query(`UPDATE products SET status = 'AVAILABLE', updated_at = $2 WHERE id = $1 AND status <> 'AVAILABLE'`, [
    productId,
    at,
  ]);
}

/**
 * Moves counted stock by `delta` (positive: taken, negative: given back), only when the result is
 * not negative. Returns the new stock; `short` when the product is counted and has too little;
 * `uncounted` when it is not counted.
 */
export async function moveStock(
  db: Queryable,
  productId: string,
  delta: string,
  at: Date,
): Promise<{ stock: string } | 'short' | 'uncounted'> {
  const { rows } = await db.query<{ stock: string }>(
    `UPDATE product_availability SET stock = stock - $2::numeric, updated_at = $3
      WHERE product_id = $1 AND stock IS NOT NULL AND stock - $2::numeric >= 0
      RETURNING stock::text AS stock`,
    [productId, delta, at],
  );
  if (rows[0]) return rows[0];
  const { rows: counted } = await db.query<{ n: number }>(
    'SELECT 1 AS n FROM product_availability WHERE product_id = $1 AND stock IS NOT NULL',
    [productId],
  );
  return counted.length > 0 ? 'short' : 'uncounted';
}

/**
 * Ends the pauses whose time has come, a batch at a time; each row is taken by one worker
 * (SKIP LOCKED), so several workers never end one pause twice.
 */
export async function endDuePauses(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<Array<{ product_id: string; merchant_id: string }>> {
  const { rows } = await db.query<{ product_id: string; merchant_id: string }>(
    `UPDATE product_availability a SET paused = false, pause_reason = NULL, paused_until = NULL, updated_at = $1
      WHERE a.product_id IN (SELECT product_id FROM product_availability
                               WHERE paused AND paused_until IS NOT NULL AND paused_until <= $1
                               ORDER BY paused_until LIMIT $2 FOR UPDATE SKIP LOCKED)
      RETURNING a.product_id, a.merchant_id`,
    [now, limit],
  );
  return rows;
}
