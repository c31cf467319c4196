// D45: statements and lines as CSV for the bookkeeper's spreadsheet: a header row, comma
// separated, `.` as the decimal point, UTF-8, fields quoted as RFC 4180 says when they need it.
// Amounts are the exact stored decimals (D9), never a float's rendering.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Decimal } from '../../lib/money.js';
import type { LineView, StatementView } from './statement-views.js';
import { moneyText, TOTAL_FIELDS } from './totals.js';

const field = (value: string | number | null): string => {
  const text = value === null ? '' : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};
const row = (values: Array<string | number | null>) => `${values.map(field).join(',')}\r\n`;
const amount = (n: number) => moneyText(new Decimal(String(n)));

export const STATEMENT_CSV_HEADER = [
  'id',
  'merchantId',
  'periodStart',
  'periodEnd',
  'state',
  ...TOTAL_FIELDS,
  'currency',
  'closedAt',
  'paidAt',
  'paidReference',
];
export const LINE_CSV_HEADER = ['id', 'statementId', 'kind', 'value', 'netEffect', 'orderId', 'reason', 'occurredAt'];

export function statementsCsv(statements: StatementView[]): string {
  return (
    row(STATEMENT_CSV_HEADER) +
    statements
      .map((s) =>
        row([
          s.id,
          s.merchantId,
          s.periodStart,
          s.periodEnd,
          s.state,
          ...TOTAL_FIELDS.map((f) => amount(s.totals[f])),
          s.currency,
          s.closedAt,
          s.paidAt,
          s.paidReference,
        ]),
      )
      .join('')
  );
}

export function linesCsv(lines: LineView[]): string {
  return (
    row(LINE_CSV_HEADER) +
    lines
      .map((l) =>
        row([l.id, l.statementId, l.kind, amount(l.value), amount(l.netEffect), l.orderId, l.reason, l.occurredAt]),
      )
      .join('')
  );
}

/** Whether the caller asked for CSV (`Accept: text/csv`, preferred over JSON). */
export function wantsCsv(request: FastifyRequest): boolean {
  return request.headers.accept !== undefined && /(^|,)\s*text\/csv\b/i.test(request.headers.accept);
}

export function sendCsv(reply: FastifyReply, filename: string, csv: string) {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv as never);
}
