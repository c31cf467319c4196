// D38: what a weighing does to an order's document. Pure: the stored document, the request's
// lines and the merchant's tolerance in; the new document, its totals and what the platform feed
// says of it out. Every amount is exact decimal arithmetic (D9): a line's total is its unit price
// times the weighed kilograms rounded half up to cents, plus its options; the order's totals and
// payments follow. A request that breaks a rule changes nothing: the first broken rule is thrown
// before anything is computed.
import type { Queryable } from '../../db/db.js';
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { OrderDocument, StoredOrderItem } from './order-intake.js';
import { type LabelContext, readLineLabel } from './weighing-labels.js';

/** D38 "at most 3 decimals": grams. */
export const WEIGHT_DECIMALS = 3;
/** D38: the tolerance when the merchant has not set one (±20 %). */
export const DEFAULT_WEIGHING_TOLERANCE_PERCENT = 20;

const CURRENCY = 'BRL';

/** D38, D41: a line weighed by its kilograms, or by the scale's label. */
export interface WeighingLineInput {
  index: number;
  quantity?: number;
  label?: string;
}

/** One weighed line as the platform feed and the timeline show it (D38); `scaleLabel` when weighed by label (D41). */
export interface WeighedLine {
  index: number;
  orderedQuantity: number;
  quantity: number;
  scaleLabel?: string;
}

/** A request line once checked: the kilograms it stands for, and a PRICE label's printed price (D41). */
export interface CheckedLine {
  index: number;
  orderedQuantity: number;
  quantity: Decimal;
  scaleLabel?: string;
  labelPrice?: Decimal;
  /** Outside the tolerance (only under the ASK policy, D42; otherwise a 400). */
  outside: boolean;
}

export interface Price {
  value: number;
  currency: string;
}

export interface WeighingOutcome {
  document: OrderDocument;
  /** numeric text for the order's columns (D9). */
  totals: { itemsPrice: string; orderAmount: string };
  lines: WeighedLine[];
  itemsPriceBefore: Price;
  itemsPriceAfter: Price;
  /** Present when part of the order is prepaid: what the platform charges (+) or refunds (−). */
  weighingAdjustment: Price | null;
  /** The request's lines as checked (D42 keeps them while the weighing waits for approval). */
  checked: CheckedLine[];
}

/** What a weighing may do beyond D38's kilograms: read labels (D41), and let lines out of tolerance through (D42 ASK). */
export interface WeighingOptions {
  labels?: LabelContext;
  /** ASK: a line out of tolerance is marked `outside` instead of refused. */
  ask?: boolean;
}

/**
 * What a weighing hands to its listeners, inside the transaction that applies it (an outbox, as
 * order events reach `eventListeners`): the platform feed's `order WEIGHED` item (D36, D38).
 */
export interface OrderWeighed {
  /** The weighing's own id (its timeline entry). */
  id: string;
  merchantId: string;
  orderId: string;
  occurredAt: Date;
  /** The integration key that weighed. */
  keyId: string | null;
  data: {
    lines: WeighedLine[];
    itemsPriceBefore: Price;
    itemsPriceAfter: Price;
    weighingAdjustment: Price | null;
  };
}

export type WeighingListener = (tx: Queryable, weighed: OrderWeighed) => Promise<void>;

const dec = (n: number) => new Decimal(String(n));
const price = (d: Decimal): Price => ({ value: d.toNumber(), currency: CURRENCY });
/** D9: charged in centavos, half up. */
export const cents = (d: Decimal) => d.toDecimalPlaces(2, Decimal.ROUND_HALF_UP);

/**
 * The weights a line accepts, [lower, upper] kilograms inclusive, and the same range as the
 * weights a request can actually send (three decimals, above 0) for the error's title.
 */
export function toleranceRange(ordered: Decimal, tolerancePercent: Decimal) {
  const share = tolerancePercent.dividedBy(100);
  const lower = ordered.times(new Decimal(1).minus(share));
  const upper = ordered.times(new Decimal(1).plus(share));
  const smallest = new Decimal(1).dividedBy(10 ** WEIGHT_DECIMALS);
  const shownLower = Decimal.max(lower.toDecimalPlaces(WEIGHT_DECIMALS, Decimal.ROUND_UP), smallest);
  const shownUpper = upper.toDecimalPlaces(WEIGHT_DECIMALS, Decimal.ROUND_DOWN);
  return { lower, upper, shownLower, shownUpper };
}

/** The line total of D38: unit price × kilograms rounded half up to cents, plus the options' totals. */
export function lineTotal(item: Pick<StoredOrderItem, 'unitPrice' | 'options'>, quantity: Decimal): Decimal {
  const options = item.options.reduce((sum, o) => sum.plus(dec(o.totalPrice.value)), new Decimal(0));
  return cents(dec(item.unitPrice.value).times(quantity)).plus(options);
}

/** Checks the whole request first: the first broken rule is a 400 naming the request's field. */
function checkLines(
  items: StoredOrderItem[],
  input: WeighingLineInput[],
  tolerancePercent: Decimal,
  options: WeighingOptions,
): CheckedLine[] {
  const seen = new Map<number, number>();
  return input.map((line, i) => {
    const byLabel = line.label !== undefined;
    if (byLabel && line.quantity !== undefined) {
      throw badRequest(`items[${i}] gives both quantity and label: send one of them`);
    }
    const field = `items[${i}].${byLabel ? 'label' : 'quantity'}`;
    const item = Number.isInteger(line.index) ? items[line.index] : undefined;
    if (item === undefined) {
      throw badRequest(
        `${field} cannot be applied: index ${line.index} is not a line of the order (its lines are 0 to ${items.length - 1})`,
      );
    }
    const earlier = seen.get(line.index);
    if (earlier !== undefined) {
      throw badRequest(`items[${i}].index names line ${line.index} again (already weighed by items[${earlier}])`);
    }
    seen.set(line.index, i);
    if (item.unit !== 'KG') {
      throw badRequest(`${field} cannot be applied: line ${line.index} is sold by UN (only KG lines are weighed)`);
    }
    let q: Decimal;
    let label: { scaleLabel: string; labelPrice?: Decimal } | undefined;
    if (byLabel) {
      const read = readLineLabel(line.label, item, line.index, field, options.labels);
      q = read.quantity;
      label = { scaleLabel: read.scaleLabel, ...(read.labelPrice ? { labelPrice: read.labelPrice } : {}) };
    } else {
      if (line.quantity === undefined) throw badRequest(`items[${i}].quantity or items[${i}].label is required`);
      if (!Number.isFinite(line.quantity)) throw badRequest(`${field} must be a number`);
      q = dec(line.quantity);
      if (q.lessThanOrEqualTo(0)) throw badRequest(`${field} must be greater than 0`);
      if (q.decimalPlaces() > WEIGHT_DECIMALS)
        throw badRequest(`${field} has more than ${WEIGHT_DECIMALS} decimal places`);
    }
    const orderedQuantity = item.orderedQuantity ?? item.quantity;
    const ordered = dec(orderedQuantity);
    const range = toleranceRange(ordered, tolerancePercent);
    const outside = q.lessThan(range.lower) || q.greaterThan(range.upper);
    if (outside && !options.ask) {
      throw badRequest(
        `${field} must be between ${range.shownLower.toFixed()} and ${range.shownUpper.toFixed()} ` +
          `(±${tolerancePercent.toFixed()} % of the ${ordered.toFixed()} kg ordered)` +
          (label ? `: the label stands for ${q.toFixed()} kg` : ''),
      );
    }
    return { index: line.index, orderedQuantity, quantity: q, ...label, outside };
  });
}

/**
 * D38: a PENDING method's value follows the new amount (the last PENDING method takes the
 * difference; going down, the methods are emptied from the last one back, never below 0); what
 * no PENDING method can take is the platform's to settle, `weighingAdjustment`.
 */
function settle(payments: OrderDocument['payments'], orderAmount: Decimal, hadAdjustment: boolean) {
  const methods = payments.methods.map((m) => ({ ...m }));
  const prepaid = methods.filter((m) => m.type === 'PREPAID').reduce((s, m) => s.plus(dec(m.value)), new Decimal(0));
  const pending = methods.filter((m) => m.type === 'PENDING'); // the copies above, edited in place
  const last = pending.at(-1);
  let target = new Decimal(0);
  if (last !== undefined) {
    target = Decimal.max(orderAmount.minus(prepaid), 0);
    const current = pending.reduce((s, m) => s.plus(dec(m.value)), new Decimal(0));
    let diff = target.minus(current);
    if (diff.greaterThanOrEqualTo(0)) {
      last.value = dec(last.value).plus(diff).toNumber();
    } else {
      for (const m of [...pending].reverse()) {
        if (diff.isZero()) break;
        const value = dec(m.value);
        const taken = Decimal.min(value, diff.negated());
        m.value = value.minus(taken).toNumber();
        diff = diff.plus(taken);
      }
    }
    // Cash: the customer hands over at least the amount (changeFor ≥ value, as at intake).
    for (const m of pending) {
      if (m.changeFor !== undefined && m.changeFor < m.value) m.changeFor = m.value;
    }
  }
  const adjustment = orderAmount.minus(prepaid).minus(target);
  // Shown on every order with a PREPAID part (0 when there is nothing to settle), never on one
  // paid entirely on delivery (whose PENDING payment always takes the whole difference).
  const showAdjustment = methods.some((m) => m.type === 'PREPAID') || hadAdjustment || !adjustment.isZero();
  return {
    payments: { prepaid: payments.prepaid, pending: target.toNumber(), methods },
    weighingAdjustment: showAdjustment ? price(adjustment) : null,
  };
}

/** D38: the order after this weighing, or a 400 naming the first field that breaks a rule. */
export function weighOrder(
  document: OrderDocument,
  input: WeighingLineInput[],
  tolerancePercent: string | number,
  options: WeighingOptions = {},
): WeighingOutcome {
  const tolerance = new Decimal(String(tolerancePercent));
  return applyLines(document, checkLines(document.items, input, tolerance, options));
}

/**
 * The order with these checked lines weighed and the `removed` lines taken out (D42
 * REMOVE_LINES), totals and payments recomputed as D38 says. A line weighed by quantity drops
 * the label an earlier weighing left on it; a PRICE label's line costs the printed price (D41).
 */
export function applyLines(
  document: OrderDocument,
  checked: CheckedLine[],
  removed: ReadonlySet<number> = new Set(),
): WeighingOutcome {
  const weighed = new Map(checked.map((line) => [line.index, line]));
  const items = document.items.flatMap((item, index) => {
    if (removed.has(index)) return [];
    const line = weighed.get(index);
    if (line === undefined) return [item];
    const orderedQuantity = item.orderedQuantity ?? item.quantity;
    const { scaleLabel: _earlier, ...rest } = item as StoredOrderItem & { scaleLabel?: string };
    const total = line.labelPrice ? labelLineTotal(item, line.labelPrice) : lineTotal(item, line.quantity);
    return [
      {
        ...rest,
        quantity: line.quantity.toNumber(),
        orderedQuantity,
        totalPrice: price(total),
        ...(line.scaleLabel ? { scaleLabel: line.scaleLabel } : {}),
      },
    ];
  });
  const itemsPriceBefore = dec(document.total.itemsPrice.value);
  const itemsPrice = items.reduce((sum, item) => sum.plus(dec(item.totalPrice.value)), new Decimal(0));
  const otherFees = dec(document.total.otherFees.value);
  const discount = dec(document.total.discount.value);
  const orderAmount = itemsPrice.plus(otherFees).minus(discount);
  if (orderAmount.isNegative()) {
    throw badRequest(`the order's discounts (${discount.toFixed(2)}) would exceed the value of the weighed order`);
  }
  const { payments, weighingAdjustment } = settle(
    document.payments,
    orderAmount,
    document.weighingAdjustment !== undefined,
  );
  return {
    document: {
      ...document,
      items,
      total: { ...document.total, itemsPrice: price(itemsPrice), orderAmount: price(orderAmount) },
      payments,
      ...(weighingAdjustment ? { weighingAdjustment } : {}),
    },
    totals: { itemsPrice: itemsPrice.toFixed(), orderAmount: orderAmount.toFixed() },
    lines: checked.filter((line) => !removed.has(line.index)).map(weighedLine),
    itemsPriceBefore: price(itemsPriceBefore),
    itemsPriceAfter: price(itemsPrice),
    weighingAdjustment,
    checked,
  };
}

/** A checked line as the feed and the timeline show it. */
export const weighedLine = (line: CheckedLine): WeighedLine => ({
  index: line.index,
  orderedQuantity: line.orderedQuantity,
  quantity: line.quantity.toNumber(),
  ...(line.scaleLabel ? { scaleLabel: line.scaleLabel } : {}),
});

/** D41: a PRICE label's line costs exactly the printed price, plus its options (a cut's are 0). */
function labelLineTotal(item: Pick<StoredOrderItem, 'options'>, printed: Decimal): Decimal {
  return item.options.reduce((sum, o) => sum.plus(dec(o.totalPrice.value)), cents(printed));
}
