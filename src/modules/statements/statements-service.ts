// Statements (D45): each merchant's money, period by period. Lines are written by listeners the
// orders' change calls inside its own transaction (an outbox, as the platform feed's items are):
// a crash either keeps the change with its lines or loses both. A closing transaction sums the
// lines of statements whose period ended, writes their totals, closes them and writes the feed
// item `settlement STATEMENT_CLOSED`; the database refuses any later change (0027_statements.sql).
import type { Db, Queryable } from '../../db/db.js';
import type { Clock } from '../../lib/clock.js';
import { decodeTimeCursor, encodeTimeCursor, page } from '../../lib/cursor.js';
import { badRequest, conflict, notFound } from '../../lib/errors.js';
import { newId } from '../../lib/ids.js';
import { Decimal } from '../../lib/money.js';
import type { FeedInput } from '../feed/index.js';
import { orderSettlementFigures } from '../orders/index.js';
import { nextPeriod, type SettlementCycle } from './periods.js';
import {
  type LineView,
  lineView,
  type SettlementSettings,
  type StatementView,
  statementView,
} from './statement-views.js';
import * as repo from './statements-repository.js';
import { commissionOn, moneyText, type Totals, totalsOf } from './totals.js';

export const DEFAULT_COMMISSION_PERCENT = '12';
export const DEFAULT_SETTLEMENT_CYCLE: SettlementCycle = 'WEEKLY';
/** Statements closed per transaction: one closing's locks and feed items stay small. */
const CLOSE_BATCH = 500;
/** Largest adjustment an operator may enter (numeric(14,4)). */
const MAX_ADJUSTMENT = new Decimal('9999999999.99');

/** An event as the events module hands it to its listeners (kept structural: no import). */
interface RecordedOrderEvent {
  orderId: string;
  eventType: string;
  createdAt: Date;
}

const statementNotFound = () => notFound('Statement not found');

export function createStatementsService(deps: {
  db: Db;
  clock: Clock;
  /** The platform feed, in the closing's transaction (D45: `settlement STATEMENT_CLOSED`). */
  feed?: (tx: Queryable, items: FeedInput[]) => Promise<void>;
}) {
  const { db, clock } = deps;
  const recordFeed = deps.feed ?? (async () => {});

  async function settingsIn(q: Queryable, merchantId: string): Promise<repo.SettingsRow> {
    return (
      (await repo.findSettings(q, merchantId)) ?? {
        commission_percent: DEFAULT_COMMISSION_PERCENT,
        settlement_cycle: DEFAULT_SETTLEMENT_CYCLE,
      }
    );
  }

  const settingsView = (row: repo.SettingsRow): SettlementSettings => ({
    commissionPercent: Number(row.commission_percent),
    settlementCycle: row.settlement_cycle,
  });

  /**
   * The OPEN statement a line written at `at` goes into, share-locked until the caller commits.
   * The period containing `at`; if that one is closed already (a line that arrives after its
   * period closed), the next one; opened when it does not exist yet.
   */
  async function openStatementFor(tx: Queryable, merchantId: string, at: Date): Promise<string> {
    let moment = at;
    for (let attempt = 0; attempt < 8; attempt++) {
      const found = await repo.lockStatementAt(tx, merchantId, moment);
      if (found?.state === 'OPEN') return found.id;
      if (found) {
        moment = found.period_end;
        continue;
      }
      const settings = await settingsIn(tx, merchantId);
      const period = nextPeriod(moment, settings.settlement_cycle, await repo.latestPeriodEnd(tx, merchantId));
      await repo.insertStatement(tx, {
        id: newId(),
        merchantId,
        start: period.start,
        end: period.end,
        at: clock.now(),
      });
      moment = period.start;
    }
    throw new Error(`no open statement could be found or opened for merchant ${merchantId}`);
  }

  /**
   * D45: an order counted when it concludes, in the transaction that concludes it: ORDER (its
   * final amount), COMMISSION (the merchant's rate of it, half up to the cent) and
   * COLLECTED_BY_MERCHANT (what was paid on delivery), when not zero. Counted once whatever
   * happens: the lines are unique per order and kind.
   */
  async function countConcludedOrder(tx: Queryable, orderId: string, at: Date): Promise<void> {
    const figures = await orderSettlementFigures(tx, orderId);
    if (!figures || (await repo.orderCounted(tx, orderId))) return;
    const statementId = await openStatementFor(tx, figures.merchantId, at);
    const settings = await settingsIn(tx, figures.merchantId);
    const amount = new Decimal(figures.orderAmount);
    const rate = new Decimal(settings.commission_percent);
    const line = (kind: repo.LineKind, value: Decimal, detail: Record<string, unknown> = {}) => ({
      id: newId(),
      statementId,
      kind,
      value: value.toFixed(),
      orderId,
      detail,
      occurredAt: at,
    });
    const collected = new Decimal(figures.collectedOnDelivery);
    await repo.insertLines(tx, [
      line('ORDER', amount),
      line('COMMISSION', commissionOn(amount, rate), { commissionPercent: rate.toFixed() }),
      ...(collected.isZero() ? [] : [line('COLLECTED_BY_MERCHANT', collected)]),
    ]);
  }

  async function totalsByStatement(q: Queryable, rows: repo.StatementRow[]): Promise<Map<string, Totals>> {
    const open = rows.filter((r) => r.state === 'OPEN' || !r.totals).map((r) => r.id);
    const sums = await repo.sumsByKind(q, open);
    const byStatement = new Map<string, Partial<Record<repo.LineKind, string>>>();
    for (const s of sums) byStatement.set(s.statement_id, { ...byStatement.get(s.statement_id), [s.kind]: s.sum });
    return new Map(
      rows.map((r) => [
        r.id,
        r.state !== 'OPEN' && r.totals ? (r.totals as Totals) : totalsOf(byStatement.get(r.id) ?? {}),
      ]),
    );
  }

  async function requireStatement(id: string, merchantId?: string): Promise<repo.StatementRow> {
    const row = await repo.findStatement(db, id);
    // D21: another merchant's statement is indistinguishable from a missing one.
    if (!row || (merchantId !== undefined && row.merchant_id !== merchantId)) throw statementNotFound();
    return row;
  }

  return {
    /** The events module's listener: an order that concludes is counted (D45). */
    onOrderEvent: async (tx: Queryable, event: RecordedOrderEvent): Promise<void> => {
      if (event.eventType === 'CONCLUDED') await countConcludedOrder(tx, event.orderId, event.createdAt);
    },

    async settingsOf(merchantId: string): Promise<SettlementSettings> {
      return settingsView(await settingsIn(db, merchantId));
    },

    async updateSettings(
      merchantId: string,
      changes: { commissionPercent?: string; settlementCycle?: SettlementCycle },
    ): Promise<SettlementSettings> {
      return settingsView(await repo.upsertSettings(db, merchantId, changes, clock.now()));
    },

    async get(id: string, merchantId?: string): Promise<StatementView> {
      const row = await requireStatement(id, merchantId);
      const totals = await totalsByStatement(db, [row]);
      return statementView(row, totals.get(row.id) as Totals);
    },

    async lines(id: string, merchantId?: string): Promise<{ statement: StatementView; lines: LineView[] }> {
      const row = await requireStatement(id, merchantId);
      const [totals, lines] = await Promise.all([totalsByStatement(db, [row]), repo.listLines(db, id)]);
      return { statement: statementView(row, totals.get(row.id) as Totals), lines: lines.map(lineView) };
    },

    /** Newest period first, paged (operator-api.md#lists). */
    async list(filter: {
      merchantId?: string;
      state?: repo.StatementState;
      from?: string;
      to?: string;
      cursor?: string;
      limit?: number;
    }): Promise<{ items: StatementView[]; next: string | null }> {
      const limit = filter.limit ?? 100;
      const from = filter.from ? new Date(filter.from) : undefined;
      const to = filter.to ? new Date(filter.to) : undefined;
      if (from && to && from.getTime() >= to.getTime()) throw badRequest('from must be before to');
      const rows = await repo.listStatements(db, {
        merchantId: filter.merchantId,
        state: filter.state,
        from,
        to,
        after: decodeTimeCursor(filter.cursor),
        limit: limit + 1,
      });
      const paged = page(rows, limit, (r) => encodeTimeCursor(r.period_start, r.id));
      const totals = await totalsByStatement(db, paged.items);
      return { items: paged.items.map((r) => statementView(r, totals.get(r.id) as Totals)), next: paged.next };
    },

    /**
     * D45: an operator's adjustment (+ owed to the merchant, − owed by it), into this statement
     * while it is OPEN, otherwise into the merchant's open one.
     */
    async adjust(statementId: string, input: { value: number; reason: string }): Promise<LineView> {
      if (typeof input.value !== 'number' || !Number.isFinite(input.value)) throw badRequest('value must be a number');
      const value = new Decimal(String(input.value));
      if (value.isZero()) throw badRequest('value must not be 0');
      if (value.decimalPlaces() > 2) throw badRequest('value has more than 2 decimal places');
      if (value.abs().greaterThan(MAX_ADJUSTMENT)) throw badRequest('value is too large');
      const reason = input.reason.trim();
      if (!reason) throw badRequest('reason must not be empty');
      const statement = await requireStatement(statementId);
      return db.transaction(async (tx) => {
        const at = clock.now();
        const locked = await repo.lockStatementAt(tx, statement.merchant_id, statement.period_start);
        const target =
          locked?.id === statement.id && locked.state === 'OPEN'
            ? locked.id
            : await openStatementFor(tx, statement.merchant_id, at);
        const line: repo.LineInput = {
          id: newId(),
          statementId: target,
          kind: 'ADJUSTMENT',
          value: value.toFixed(),
          orderId: null,
          detail: { reason, adjusts: statementId },
          occurredAt: at,
        };
        await repo.insertLines(tx, [line]);
        return lineView({
          position: '0',
          id: line.id,
          statement_id: target,
          kind: 'ADJUSTMENT',
          value: line.value,
          order_id: null,
          detail: line.detail,
          occurred_at: at,
        });
      });
    },

    /** D45: an operator marks a CLOSED statement PAID; 409 in any other state. */
    async markPaid(statementId: string, input: { paidAt: string; reference: string }): Promise<StatementView> {
      const paidAt = new Date(input.paidAt);
      if (Number.isNaN(paidAt.getTime())) throw badRequest('paidAt must be a date-time');
      const reference = input.reference.trim();
      if (!reference) throw badRequest('reference must not be empty');
      const row = await repo.markPaid(db, statementId, { paidAt, reference });
      if (!row) {
        const existing = await requireStatement(statementId);
        throw conflict(`Statement is ${existing.state}: only a CLOSED statement is marked PAID`);
      }
      return statementView(row, row.totals as Totals);
    },

    /**
     * One pass of the closing worker: every statement whose period ended by now is closed, a
     * batch per transaction (its totals, its state, its feed item together). Returns how many.
     */
    async closeDue(): Promise<number> {
      let closed = 0;
      for (;;) {
        const n = await db.transaction(async (tx) => {
          const now = clock.now();
          const due = await repo.lockDueStatements(tx, now, CLOSE_BATCH);
          if (due.length === 0) return 0;
          const sums = await repo.sumsByKind(
            tx,
            due.map((d) => d.id),
          );
          const byStatement = new Map<string, Partial<Record<repo.LineKind, string>>>();
          for (const s of sums)
            byStatement.set(s.statement_id, { ...byStatement.get(s.statement_id), [s.kind]: s.sum });
          const closing = due.map((d) => ({ ...d, totals: totalsOf(byStatement.get(d.id) ?? {}) }));
          await repo.closeStatements(tx, closing, now);
          await recordFeed(
            tx,
            closing.map((c) => ({
              kind: 'settlement',
              type: 'STATEMENT_CLOSED',
              merchantId: c.merchant_id,
              occurredAt: now,
              data: {
                statementId: c.id,
                totals: Object.fromEntries(Object.entries(c.totals).map(([k, v]) => [k, Number(v)])),
              },
            })),
          );
          return due.length;
        });
        closed += n;
        if (n < CLOSE_BATCH) return closed;
      }
    },
  };
}

export type StatementsService = ReturnType<typeof createStatementsService>;
export type { LineView, SettlementSettings, StatementView };
export { moneyText };
