import type { Queryable } from '../../db/db.js';
import type { Criterion } from './criteria.js';
import type { Timings } from './homologation-timings.js';

export type RunStatus = 'RUNNING' | 'PASSED' | 'FAILED' | 'CANCELLED';

export interface RunRow {
  id: string;
  key_id: string;
  merchant_id: string;
  status: RunStatus;
  timings: Timings;
  started_at: Date;
  finished_at: Date | null;
  criteria: Criterion[];
  orders: Array<{ orderId: string; scenario: string; deliveryCode: string }>;
  signature: string | null;
  catalog_failed_at: Date | null;
}

const COLUMNS =
  'id, key_id, merchant_id, status, timings, started_at, finished_at, criteria, orders, signature, catalog_failed_at';

/** Inserts a RUNNING run; false when the key already has one (the partial unique index). */
export async function insertRun(
  db: Queryable,
  run: { id: string; keyId: string; merchantId: string; timings: Timings; at: Date },
): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO homologation_runs (id, key_id, merchant_id, status, timings, started_at)
     VALUES ($1, $2, $3, 'RUNNING', $4, $5)
     ON CONFLICT (key_id) WHERE status = 'RUNNING' DO NOTHING RETURNING id`,
    [run.id, run.keyId, run.merchantId, JSON.stringify(run.timings), run.at],
  );
  return rows.length === 1;
}

/** Runs left RUNNING by a process that stopped: CANCELLED once well past their duration. */
export async function cancelStaleRuns(db: Queryable, keyId: string, now: Date, liveIds: string[]): Promise<void> {
  await db.query(
    `UPDATE homologation_runs SET status = 'CANCELLED', finished_at = $2
      WHERE key_id = $1 AND status = 'RUNNING' AND NOT (id = ANY($3::uuid[]))
        AND started_at + ((timings->>'durationMs')::bigint + 60000) * interval '1 millisecond' < $2`,
    [keyId, now, liveIds],
  );
}

export async function setOrders(db: Queryable, id: string, orders: RunRow['orders']): Promise<void> {
  // Only while RUNNING: a finished run's orders are part of its signed report.
  await db.query("UPDATE homologation_runs SET orders = $2 WHERE id = $1 AND status = 'RUNNING'", [
    id,
    JSON.stringify(orders),
  ]);
}

export async function finishRun(
  db: Queryable,
  run: {
    id: string;
    status: RunStatus;
    at: Date;
    criteria: Criterion[];
    signature: string | null;
    /** The orders the report lists (and its signature covers), written with it. */
    orders?: RunRow['orders'];
  },
): Promise<void> {
  await db.query(
    `UPDATE homologation_runs SET status = $2, finished_at = $3, criteria = $4, signature = $5,
        orders = COALESCE($6::jsonb, orders)
      WHERE id = $1 AND status = 'RUNNING'`,
    [
      run.id,
      run.status,
      run.at,
      JSON.stringify(run.criteria),
      run.signature,
      run.orders ? JSON.stringify(run.orders) : null,
    ],
  );
}

export async function findRun(db: Queryable, id: string): Promise<RunRow | undefined> {
  const { rows } = await db.query<RunRow>(`SELECT ${COLUMNS} FROM homologation_runs WHERE id = $1`, [id]);
  return rows[0];
}

export async function listKeyRuns(db: Queryable, keyId: string, limit = 100): Promise<RunRow[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${COLUMNS} FROM homologation_runs WHERE key_id = $1 ORDER BY started_at DESC, id LIMIT $2`,
    [keyId, limit],
  );
  return rows;
}

export async function listMerchantRuns(db: Queryable, merchantId: string, limit = 50): Promise<RunRow[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${COLUMNS} FROM homologation_runs WHERE merchant_id = $1 ORDER BY started_at DESC, id LIMIT $2`,
    [merchantId, limit],
  );
  return rows;
}

/** The newest runs of every key (the console's homologation page), by merchant and status. */
export async function listRecentRuns(
  db: Queryable,
  filter: { merchantId?: string; status?: string; limit: number },
): Promise<RunRow[]> {
  const { rows } = await db.query<RunRow>(
    `SELECT ${COLUMNS} FROM homologation_runs
      WHERE ($1::uuid IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR status = $2)
      ORDER BY started_at DESC, id LIMIT $3`,
    [filter.merchantId ?? null, filter.status ?? null, filter.limit],
  );
  return rows;
}

/** The catalog worker asks whether this upload must FAIL (spec 3.2): once per RUNNING run. */
export async function takeCatalogFailure(db: Queryable, merchantId: string, now: Date): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>(
    `UPDATE homologation_runs SET catalog_fail_armed = false, catalog_failed_at = $2
      WHERE merchant_id = $1 AND status = 'RUNNING' AND catalog_fail_armed RETURNING id`,
    [merchantId, now],
  );
  return rows.length > 0;
}
