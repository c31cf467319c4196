// D42: the weighings that wait for the platform's decision for the customer. A row leaves
// PENDING_APPROVAL once: `claimPending` is the compare-and-set, in the transaction that changes
// the order, so of a decision and the deadline racing exactly one writes.
import type { Queryable } from '../../db/db.js';

export type WeighingDecision = 'ACCEPT' | 'REJECT' | 'REMOVE_LINES';
export type ApprovalState = 'PENDING_APPROVAL' | 'ACCEPTED' | 'REJECTED' | 'LINES_REMOVED';

/** A request line as kept while it waits: the kilograms it stands for, exact text (D9). */
export interface StoredRequestLine {
  index: number;
  orderedQuantity: number;
  quantity: string;
  scaleLabel?: string;
  labelPrice?: string;
  outside: boolean;
}

export interface ApprovalRow {
  id: string;
  order_id: string;
  merchant_id: string;
  key_id: string | null;
  state: ApprovalState;
  request: StoredRequestLine[];
  default_decision: WeighingDecision;
  deadline: Date;
}

export async function insertApproval(
  db: Queryable,
  a: {
    id: string;
    orderId: string;
    merchantId: string;
    keyId: string | null;
    request: StoredRequestLine[];
    lines: unknown;
    itemsPriceBefore: string;
    itemsPriceAfter: string;
    deadline: Date;
    defaultDecision: WeighingDecision;
    at: Date;
  },
): Promise<void> {
  await db.query(
    `INSERT INTO weighing_approvals (id, order_id, merchant_id, key_id, request, lines, items_price_before,
                                     items_price_after, deadline, default_decision, created_at)
     VALUES ($1, $2, $3, $4, $5::jsonb, $6::jsonb, $7::numeric, $8::numeric, $9, $10, $11)`,
    [
      a.id,
      a.orderId,
      a.merchantId,
      a.keyId,
      JSON.stringify(a.request),
      JSON.stringify(a.lines),
      a.itemsPriceBefore,
      a.itemsPriceAfter,
      a.deadline,
      a.defaultDecision,
      a.at,
    ],
  );
}

const COLUMNS = 'id, order_id, merchant_id, key_id, state, request, default_decision, deadline';

export async function findApproval(db: Queryable, id: string): Promise<ApprovalRow | undefined> {
  const { rows } = await db.query<ApprovalRow>(`SELECT ${COLUMNS} FROM weighing_approvals WHERE id = $1`, [id]);
  return rows[0];
}

/** The decision, only if none came first (false then). */
export async function claimPending(
  db: Queryable,
  id: string,
  d: { state: ApprovalState; decision: WeighingDecision; by: 'platform' | 'deadline'; removed: number[]; at: Date },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE weighing_approvals SET state = $2, decision = $3, decided_by = $4, removed_lines = $5::jsonb, decided_at = $6
      WHERE id = $1 AND state = 'PENDING_APPROVAL'`,
    [id, d.state, d.decision, d.by, JSON.stringify(d.removed), d.at],
  );
  return rowCount === 1;
}

/** Pending weighings whose deadline has passed, oldest deadline first (the deadline worker's batch). */
export async function dueApprovals(
  db: Queryable,
  now: Date,
  limit: number,
): Promise<Array<Pick<ApprovalRow, 'id' | 'order_id' | 'default_decision'>>> {
  const { rows } = await db.query<Pick<ApprovalRow, 'id' | 'order_id' | 'default_decision'>>(
    `SELECT id, order_id, default_decision FROM weighing_approvals
      WHERE state = 'PENDING_APPROVAL' AND deadline <= $1 ORDER BY deadline LIMIT $2`,
    [now, limit],
  );
  return rows;
}

/** The earliest pending deadline (when the worker must look again), or null. */
export async function nextDeadline(db: Queryable): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(deadline) AS at FROM weighing_approvals WHERE state = 'PENDING_APPROVAL'`,
  );
  return rows[0]?.at ?? null;
}
