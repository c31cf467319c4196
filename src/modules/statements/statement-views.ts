// D45: what statements and lines look like to the POS and operators (numbers in JSON; exact
// decimals in the database and the CSV), and the settlement settings a request may set.
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import { SETTLEMENT_CYCLES, type SettlementCycle } from './periods.js';
import type * as repo from './statements-repository.js';
import { NET_SIGN, type Totals } from './totals.js';

export interface SettlementSettings {
  commissionPercent: number;
  settlementCycle: SettlementCycle;
}

export interface StatementView {
  id: string;
  merchantId: string;
  periodStart: string;
  periodEnd: string;
  state: repo.StatementState;
  totals: Record<keyof Totals, number>;
  currency: 'BRL';
  closedAt: string | null;
  paidAt: string | null;
  paidReference: string | null;
}

export interface LineView {
  id: string;
  statementId: string;
  kind: repo.LineKind;
  value: number;
  /** The value with the sign its kind has in net (D45). */
  netEffect: number;
  orderId: string | null;
  reason: string | null;
  occurredAt: string;
}

export function statementView(row: repo.StatementRow, totals: Totals): StatementView {
  return {
    id: row.id,
    merchantId: row.merchant_id,
    periodStart: row.period_start.toISOString(),
    periodEnd: row.period_end.toISOString(),
    state: row.state,
    totals: Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, Number(v)])) as StatementView['totals'],
    currency: 'BRL',
    closedAt: row.closed_at?.toISOString() ?? null,
    paidAt: row.paid_at?.toISOString() ?? null,
    paidReference: row.paid_reference,
  };
}

export function lineView(row: repo.LineRow): LineView {
  return {
    id: row.id,
    statementId: row.statement_id,
    kind: row.kind,
    value: Number(row.value),
    netEffect: new Decimal(row.value).times(NET_SIGN[row.kind]).toNumber(),
    orderId: row.order_id,
    reason: typeof row.detail.reason === 'string' ? row.detail.reason : null,
    occurredAt: row.occurred_at.toISOString(),
  };
}

/** A settings change from a request, checked whole before anything is written (400 naming the field). */
export function parseSettlementSettings(body: {
  commissionPercent?: unknown;
  settlementCycle?: unknown;
}): { commissionPercent?: string; settlementCycle?: SettlementCycle } | undefined {
  const { commissionPercent, settlementCycle } = body;
  if (commissionPercent === undefined && settlementCycle === undefined) return undefined;
  let percent: string | undefined;
  if (commissionPercent !== undefined) {
    if (typeof commissionPercent !== 'number' || !Number.isFinite(commissionPercent)) {
      throw badRequest('commissionPercent must be a number');
    }
    const d = new Decimal(String(commissionPercent));
    if (d.isNegative() || d.greaterThan(100)) throw badRequest('commissionPercent must be between 0 and 100');
    if (d.decimalPlaces() > 2) throw badRequest('commissionPercent has more than 2 decimal places');
    percent = d.toFixed();
  }
  if (settlementCycle !== undefined && !SETTLEMENT_CYCLES.includes(settlementCycle as SettlementCycle)) {
    throw badRequest('settlementCycle must be DAILY or WEEKLY');
  }
  return { commissionPercent: percent, settlementCycle: settlementCycle as SettlementCycle | undefined };
}
