// The statements' tables (0027_statements.sql). Every write of a line runs in the caller's
// transaction, under a share lock of its statement's row: the closing transaction locks the rows
// it closes FOR UPDATE SKIP LOCKED, so it never closes a statement a line is being written to (it
// takes it on its next pass) and two closers never take the same statement.
import type { Queryable } from '../../db/db.js';
import type { SettlementCycle } from './periods.js';

export const LINE_KINDS = [
  'ORDER',
  'WEIGHING_ADJUSTMENT',
  'CANCELLATION',
  'COMMISSION',
  'COLLECTED_BY_MERCHANT',
  'ADJUSTMENT',
] as const;
export type LineKind = (typeof LINE_KINDS)[number];
export const STATEMENT_STATES = ['OPEN', 'CLOSED', 'PAID'] as const;
export type StatementState = (typeof STATEMENT_STATES)[number];

export interface SettingsRow {
  commission_percent: string;
  settlement_cycle: SettlementCycle;
}

export interface StatementRow {
  id: string;
  merchant_id: string;
  period_start: Date;
  period_end: Date;
  state: StatementState;
  totals: Record<string, string> | null;
  closed_at: Date | null;
  paid_at: Date | null;
  paid_reference: string | null;
  created_at: Date;
}

export interface LineRow {
  position: string;
  id: string;
  statement_id: string;
  kind: LineKind;
  value: string;
  order_id: string | null;
  detail: Record<string, unknown>;
  occurred_at: Date;
}

export interface LineInput {
  id: string;
  statementId: string;
  kind: LineKind;
  value: string;
  orderId: string | null;
  detail: Record<string, unknown>;
  occurredAt: Date;
}

const STATEMENT_COLUMNS = `id, merchant_id, period_start, period_end, state, totals, closed_at, paid_at, paid_reference,
  created_at`;
const LINE_COLUMNS = `position::text AS position, id, statement_id, kind, value::text AS value, order_id, detail,
  occurred_at`;

export async function findSettings(q: Queryable, merchantId: string): Promise<SettingsRow | undefined> {
  const { rows } = await q.query<SettingsRow>(
    `SELECT commission_percent::text AS commission_percent, settlement_cycle FROM statement_settings
      WHERE merchant_id = $1`,
    [merchantId],
  );
  return rows[0];
}

/** Sets what is given, keeping the rest (a first row starts from the table's defaults). */
export async function upsertSettings(
  q: Queryable,
  merchantId: string,
  changes: { commissionPercent?: string; settlementCycle?: SettlementCycle },
  at: Date,
): Promise<SettingsRow> {
  const { rows } = await q.query<SettingsRow>(
    `INSERT INTO statement_settings (merchant_id, commission_percent, settlement_cycle, updated_at)
     VALUES ($1, COALESCE($2::numeric, 12), COALESCE($3::text, 'WEEKLY'), $4)
     ON CONFLICT (merchant_id) DO UPDATE
        SET commission_percent = COALESCE($2::numeric, statement_settings.commission_percent),
            settlement_cycle = COALESCE($3::text, statement_settings.settlement_cycle), updated_at = $4
     RETURNING commission_percent::text AS commission_percent, settlement_cycle`,
    [merchantId, changes.commissionPercent ?? null, changes.settlementCycle ?? null, at],
  );
  return rows[0] as SettingsRow;
}

/** The statement whose period contains `at`, share-locked against closing until the caller commits. */
export async function lockStatementAt(
  q: Queryable,
  merchantId: string,
  at: Date,
): Promise<Pick<StatementRow, 'id' | 'state' | 'period_end'> | undefined> {
  const { rows } = await q.query<Pick<StatementRow, 'id' | 'state' | 'period_end'>>(
    `SELECT id, state, period_end FROM statements
      WHERE merchant_id = $1 AND period_start <= $2 AND period_end > $2 FOR SHARE`,
    [merchantId, at],
  );
  return rows[0];
}

export async function latestPeriodEnd(q: Queryable, merchantId: string): Promise<Date | null> {
  const { rows } = await q.query<{ end: Date | null }>(
    `SELECT max(period_end) AS end FROM statements WHERE merchant_id = $1`,
    [merchantId],
  );
  return rows[0]?.end ?? null;
}

/** A new OPEN statement; nothing when another transaction opened the same period first. */
export async function insertStatement(
  q: Queryable,
  s: { id: string; merchantId: string; start: Date; end: Date; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO statements (id, merchant_id, period_start, period_end, state, created_at)
     VALUES ($1, $2, $3, $4, 'OPEN', $5) ON CONFLICT (merchant_id, period_start) DO NOTHING`,
    [s.id, s.merchantId, s.start, s.end, s.at],
  );
}

/**
 * The lines, in one statement. An order's ORDER, COMMISSION and COLLECTED_BY_MERCHANT lines are
 * unique per order: a second attempt to count an order writes nothing (and says so).
 */
export async function insertLines(q: Queryable, lines: LineInput[]): Promise<number> {
  if (lines.length === 0) return 0;
  const { rows } = await q.query<{ n: string }>(
    `WITH written AS (
       INSERT INTO statement_lines (id, statement_id, kind, value, order_id, detail, occurred_at)
       SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::numeric[], $5::uuid[], $6::jsonb[], $7::timestamptz[])
       ON CONFLICT DO NOTHING RETURNING 1)
     SELECT count(*)::text AS n FROM written`,
    [
      lines.map((l) => l.id),
      lines.map((l) => l.statementId),
      lines.map((l) => l.kind),
      lines.map((l) => l.value),
      lines.map((l) => l.orderId),
      lines.map((l) => JSON.stringify(l.detail)),
      lines.map((l) => l.occurredAt),
    ],
  );
  return Number(rows[0]?.n ?? 0);
}

/** Whether an order has been counted already (its ORDER line exists). */
export async function orderCounted(q: Queryable, orderId: string): Promise<boolean> {
  const { rows } = await q.query(`SELECT 1 FROM statement_lines WHERE order_id = $1 AND kind = 'ORDER'`, [orderId]);
  return rows.length > 0;
}

export async function findStatement(q: Queryable, id: string): Promise<StatementRow | undefined> {
  const { rows } = await q.query<StatementRow>(`SELECT ${STATEMENT_COLUMNS} FROM statements WHERE id = $1`, [id]);
  return rows[0];
}

/** The sums per kind of some statements' lines (an OPEN statement's totals, a closing's). */
export async function sumsByKind(
  q: Queryable,
  statementIds: string[],
): Promise<Array<{ statement_id: string; kind: LineKind; sum: string }>> {
  if (statementIds.length === 0) return [];
  const { rows } = await q.query<{ statement_id: string; kind: LineKind; sum: string }>(
    `SELECT statement_id, kind, sum(value)::text AS sum FROM statement_lines
      WHERE statement_id = ANY($1::uuid[]) GROUP BY statement_id, kind`,
    [statementIds],
  );
  return rows;
}

export interface StatementFilter {
  merchantId?: string;
  state?: StatementState;
  /** Statements whose period ends after `from` and starts before `to`. */
  from?: Date;
  to?: Date;
  after?: { at: Date; id: string };
  limit: number;
}

/** Newest period first; keyset on (period_start, id) (operator-api.md#lists). */
export async function listStatements(q: Queryable, f: StatementFilter): Promise<StatementRow[]> {
  const { rows } = await q.query<StatementRow>(
    `SELECT ${STATEMENT_COLUMNS} FROM statements
      WHERE ($1::uuid IS NULL OR merchant_id = $1) AND ($2::text IS NULL OR state = $2)
        AND ($3::timestamptz IS NULL OR period_end > $3) AND ($4::timestamptz IS NULL OR period_start < $4)
        AND ($5::timestamptz IS NULL OR (period_start, id) < ($5, $6::uuid))
      ORDER BY period_start DESC, id DESC LIMIT $7`,
    [
      f.merchantId ?? null,
      f.state ?? null,
      f.from ?? null,
      f.to ?? null,
      f.after?.at ?? null,
      f.after?.id ?? null,
      f.limit,
    ],
  );
  return rows;
}

export async function listLines(q: Queryable, statementId: string): Promise<LineRow[]> {
  const { rows } = await q.query<LineRow>(
    // The table's number, not the text of LINE_COLUMNS' alias of the same name (as text, 100
    // sorts before 99: the lines of a statement would come out of the order they were written).
    `SELECT ${LINE_COLUMNS} FROM statement_lines l WHERE statement_id = $1 ORDER BY l.position`,
    [statementId],
  );
  return rows;
}

/**
 * Up to `limit` OPEN statements whose period ended by `now`, locked for closing. SKIP LOCKED: a
 * statement another closer holds, or one a line is being written to (share lock), is left for
 * the next pass; so several workers close every statement exactly once.
 */
export async function lockDueStatements(
  q: Queryable,
  now: Date,
  limit: number,
): Promise<Array<Pick<StatementRow, 'id' | 'merchant_id'>>> {
  const { rows } = await q.query<Pick<StatementRow, 'id' | 'merchant_id'>>(
    `SELECT id, merchant_id FROM statements WHERE state = 'OPEN' AND period_end <= $1
      ORDER BY period_end, id LIMIT $2 FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return rows;
}

export async function closeStatements(
  q: Queryable,
  closing: Array<{ id: string; totals: Record<string, string> }>,
  at: Date,
): Promise<void> {
  if (closing.length === 0) return;
  await q.query(
    `UPDATE statements s SET state = 'CLOSED', totals = c.totals, closed_at = $3
       FROM unnest($1::uuid[], $2::jsonb[]) AS c (id, totals)
      WHERE s.id = c.id AND s.state = 'OPEN'`,
    [closing.map((c) => c.id), closing.map((c) => JSON.stringify(c.totals)), at],
  );
}

/** CLOSED → PAID; undefined when the statement is not CLOSED (or missing). */
export async function markPaid(
  q: Queryable,
  id: string,
  paid: { paidAt: Date; reference: string },
): Promise<StatementRow | undefined> {
  const { rows } = await q.query<StatementRow>(
    `UPDATE statements SET state = 'PAID', paid_at = $2, paid_reference = $3
      WHERE id = $1 AND state = 'CLOSED' RETURNING ${STATEMENT_COLUMNS}`,
    [id, paid.paidAt, paid.reference],
  );
  return rows[0];
}
