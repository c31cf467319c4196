// D45's arithmetic, exact (D9): a statement's totals are the sums of its lines per kind, and
// net = gross + weighingAdjustments − cancellations − commission − collectedByMerchant + adjustments.
import { Decimal } from '../../lib/money.js';
import type { LineKind } from './statements-repository.js';

export const TOTAL_FIELDS = [
  'gross',
  'weighingAdjustments',
  'cancellations',
  'commission',
  'collectedByMerchant',
  'adjustments',
  'net',
] as const;
export type TotalField = (typeof TOTAL_FIELDS)[number];
/** Decimal text per field. */
export type Totals = Record<TotalField, string>;

/** Which total each kind of line adds to. */
export const FIELD_OF_KIND: Record<LineKind, Exclude<TotalField, 'net'>> = {
  ORDER: 'gross',
  WEIGHING_ADJUSTMENT: 'weighingAdjustments',
  CANCELLATION: 'cancellations',
  COMMISSION: 'commission',
  COLLECTED_BY_MERCHANT: 'collectedByMerchant',
  ADJUSTMENT: 'adjustments',
};

/** How a line of each kind moves net: what the platform owes the merchant. */
export const NET_SIGN: Record<LineKind, 1 | -1> = {
  ORDER: 1,
  WEIGHING_ADJUSTMENT: 1,
  CANCELLATION: -1,
  COMMISSION: -1,
  COLLECTED_BY_MERCHANT: -1,
  ADJUSTMENT: 1,
};

/** Money as text: at least the cents ("12.00"), more only where a value really has them. */
export function moneyText(d: Decimal): string {
  return d.decimalPlaces() <= 2 ? d.toFixed(2) : d.toFixed();
}

/** The totals of a statement whose lines sum to `sums` per kind (kinds without lines: 0). */
export function totalsOf(sums: Partial<Record<LineKind, string>>): Totals {
  const field = (kind: LineKind) => new Decimal(sums[kind] ?? 0);
  let net = new Decimal(0);
  for (const kind of Object.keys(FIELD_OF_KIND) as LineKind[]) {
    net = net.plus(field(kind).times(NET_SIGN[kind]));
  }
  return {
    gross: moneyText(field('ORDER')),
    weighingAdjustments: moneyText(field('WEIGHING_ADJUSTMENT')),
    cancellations: moneyText(field('CANCELLATION')),
    commission: moneyText(field('COMMISSION')),
    collectedByMerchant: moneyText(field('COLLECTED_BY_MERCHANT')),
    adjustments: moneyText(field('ADJUSTMENT')),
    net: moneyText(net),
  };
}

/** D45/D9: the platform's commission on `amount`, half up to the cent. */
export function commissionOn(amount: Decimal, percent: Decimal): Decimal {
  return amount.times(percent).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
}
