// The statements' shapes (D45) as TypeBox schemas: the POS's and the operators' answers, the
// operator's bodies and queries.
import { Type } from 'typebox';
import { DateTime, described, Uuid } from '../../lib/schemas.js';
import { LINE_KINDS, STATEMENT_STATES } from './statements-repository.js';

const money = (description: string) => Type.Number({ description });

export const StatementTotals = Type.Object(
  {
    gross: money('Concluded orders: their final amount (items as weighed, fees, less discounts)'),
    weighingAdjustments: money('Weighings that changed an amount already counted'),
    cancellations: money('What was counted for orders cancelled afterwards'),
    commission: money("The platform's commission on the orders"),
    collectedByMerchant: money('Paid on delivery (cash, card at the door): the shop holds it already'),
    adjustments: money("Operators' adjustments (+ owed to the shop, − owed by it)"),
    net: money(
      'What the platform owes the shop: gross + weighingAdjustments − cancellations − commission − ' +
        'collectedByMerchant + adjustments (negative: what the shop owes)',
    ),
  },
  { description: 'BRL; the sums of the lines per kind (D45)' },
);

export const Statement = Type.Object({
  id: Uuid({ description: "The statement's id" }),
  merchantId: Uuid({ description: 'The merchant' }),
  periodStart: DateTime({ description: 'The first instant of the period (a day or a Monday, America/Sao_Paulo)' }),
  periodEnd: DateTime({ description: 'The first instant after the period' }),
  state: Type.Enum(STATEMENT_STATES, {
    description: 'OPEN (lines still arrive), CLOSED (its period ended: never changes), PAID',
  }),
  totals: StatementTotals,
  currency: Type.Literal('BRL', { description: 'Always BRL' }),
  closedAt: Type.Union([DateTime(), Type.Null()], { description: 'When it closed, or null' }),
  paidAt: Type.Union([DateTime(), Type.Null()], { description: 'When the platform paid it, or null' }),
  paidReference: Type.Union([Type.String(), Type.Null()], { description: "The payment's reference, or null" }),
});

export const StatementLine = Type.Object({
  id: Uuid({ description: "The line's id" }),
  statementId: Uuid({ description: 'The statement it is counted in' }),
  kind: Type.Enum(LINE_KINDS, { description: 'What it counts (D45)' }),
  value: Type.Number({
    description: 'BRL. ADJUSTMENT carries its sign; every other kind is an amount its total adds up',
  }),
  netEffect: Type.Number({ description: 'What the line does to net: the value with the sign its kind gives it' }),
  orderId: Type.Union([Uuid(), Type.Null()], { description: 'The order it counts, or null (ADJUSTMENT)' }),
  reason: Type.Union([Type.String(), Type.Null()], { description: "An adjustment's reason, or null" }),
  occurredAt: DateTime({ description: 'When it was counted' }),
});

export const StatementWithLines = Type.Object({
  statement: described(Statement, 'The statement, with its totals'),
  lines: Type.Array(StatementLine, { description: 'Oldest first' }),
});

export const StatementIdParams = Type.Object({ statementId: Uuid({ description: "The statement's id" }) });

const listFilters = {
  state: Type.Optional(Type.Enum(STATEMENT_STATES, { description: 'Only statements in this state' })),
  from: Type.Optional(DateTime({ description: 'Only periods that end after this instant' })),
  to: Type.Optional(DateTime({ description: 'Only periods that start before this instant' })),
  cursor: Type.Optional(Type.String({ description: "The next page's cursor (the Link header)", maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, description: 'At most this many (default 100)' })),
};

export const PosStatementQuery = Type.Object(listFilters);
export const OperatorStatementQuery = Type.Object({
  merchantId: Type.Optional(Uuid({ description: "Only this merchant's statements" })),
  ...listFilters,
});

export const MarkPaidBody = Type.Object({
  paidAt: DateTime({ description: 'When the platform paid the shop' }),
  reference: Type.String({ minLength: 1, maxLength: 200, description: "The payment's reference (a transfer id)" }),
});

export const AdjustmentBody = Type.Object({
  value: Type.Number({ description: 'BRL, at most 2 decimals: + owed to the shop, − owed by it; not 0' }),
  reason: Type.String({ minLength: 1, maxLength: 1000, description: 'Why, for the bookkeeper' }),
});

/** A 200 answered as JSON, or as CSV for `Accept: text/csv` (D45). */
export function jsonOrCsv(schema: object, description: string) {
  return {
    description,
    content: {
      'application/json': { schema },
      'text/csv': { schema: { type: 'string', description: 'CSV: a header row, `.` decimal point, UTF-8' } },
    },
  };
}
