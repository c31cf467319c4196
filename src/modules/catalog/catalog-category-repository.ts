// SQL of an Open Delivery CATEGORY notification (D29): name and status of existing categories,
// matched on their POS code, in one set-based statement; rows that do not change are not rewritten.
import type { Queryable } from '../../db/db.js';
import type { CategoryUpdate } from './od-notification-plan.js';

/** Returns the POS codes that matched a category of the merchant, and those whose values changed. */
export async function applyCategoryUpdates(
  tx: Queryable,
  merchantId: string,
  updates: CategoryUpdate[],
  at: Date,
): Promise<{ matched: Set<string>; changed: Set<string> }> {
  if (updates.length === 0) return { matched: new Set(), changed: new Set() };
  const pdvs = updates.map((u) => u.pdvId);
  const { rows } = await tx.query<{ pdv: string }>(
    `SELECT pdv_external_id AS pdv FROM categories WHERE merchant_id = $1 AND pdv_external_id = ANY($2::text[])`,
    [merchantId, pdvs],
  );
  const updated = await tx.query<{ pdv: string }>(
    `UPDATE categories c SET name = u.name, status = COALESCE(u.status, c.status), updated_at = $5
       FROM unnest($2::text[], $3::text[], $4::text[]) AS u(pdv, name, status)
      WHERE c.merchant_id = $1 AND c.pdv_external_id = u.pdv
        AND (c.name, c.status) IS DISTINCT FROM (u.name, COALESCE(u.status, c.status))
     RETURNING c.pdv_external_id AS pdv`,
    [merchantId, pdvs, updates.map((u) => u.name), updates.map((u) => u.status), at],
  );
  return { matched: new Set(rows.map((r) => r.pdv)), changed: new Set(updated.rows.map((r) => r.pdv)) };
}
