// A reference model of D38's arithmetic, written apart from src/modules/orders/order-weighing.ts
// and with another tool: integers (BigInt) in fixed units instead of decimal.js. Prices are in
// ten-thousandths of a real (numeric(14,4)), weights in grams (three decimals of a kilogram),
// tolerances in hundredths of a percent. The property tests compare the service with it.
import fc from 'fast-check';

export interface ModelLine {
  unit: 'KG' | 'UN';
  /** ten-thousandths of a real */
  price: bigint;
  /** grams for KG, units for UN */
  ordered: bigint;
}

export type PaymentMode = 'PENDING' | 'PREPAID' | 'MIXED';

export interface ModelOrder {
  lines: ModelLine[];
  /** cents */
  fee: bigint;
  /** cents, at most the fee (so that no weighing makes the amount negative) */
  discount: bigint;
  payment: PaymentMode;
  /** hundredths of a percent: 2000 = ±20 % */
  tolerance: bigint;
}

/** Half up to cents of price (1e-4) × quantity in thousandths (1e-3): units of 1e-7. */
export function lineCents(price: bigint, thousandths: bigint): bigint {
  return (price * thousandths + 50_000n) / 100_000n;
}

export const thousandthsOf = (line: ModelLine, quantity: bigint) => (line.unit === 'KG' ? quantity : quantity * 1000n);

/** The weights a KG line accepts, in grams: [ceil(lower), floor(upper)], never below 1 g. */
export function allowedGrams(ordered: bigint, tolerance: bigint): { min: bigint; max: bigint } {
  const lower = ordered * (10_000n - tolerance);
  const upper = ordered * (10_000n + tolerance);
  const ceil = (lower + 9_999n) / 10_000n;
  const min = ceil < 1n ? 1n : ceil;
  return { min, max: upper / 10_000n };
}

/** What the order should say once `weights` (line index → grams) are its last weighings. */
export function expected(order: ModelOrder, weights: Map<number, bigint>) {
  const totals = order.lines.map((l, i) => lineCents(l.price, thousandthsOf(l, weights.get(i) ?? l.ordered)));
  const itemsPrice = totals.reduce((s, x) => s + x, 0n);
  const orderAmount = itemsPrice + order.fee - order.discount;
  return { totals, itemsPrice, orderAmount };
}

/** The amount at intake, and how it was paid. */
export function intakePayments(order: ModelOrder): { prepaid: bigint; pending: bigint } {
  const amount = expected(order, new Map()).orderAmount;
  if (order.payment === 'PENDING') return { prepaid: 0n, pending: amount };
  if (order.payment === 'PREPAID') return { prepaid: amount, pending: 0n };
  const prepaid = amount / 2n;
  return { prepaid, pending: amount - prepaid };
}

/**
 * D38 after a weighing to `orderAmount`: the prepaid part stays; PENDING follows down to 0; what
 * is left is the platform's adjustment (present when anything was prepaid).
 */
export function expectedPayments(order: ModelOrder, orderAmount: bigint) {
  const { prepaid } = intakePayments(order);
  if (order.payment === 'PENDING') return { prepaid, pending: orderAmount, adjustment: undefined };
  if (order.payment === 'PREPAID') return { prepaid, pending: 0n, adjustment: orderAmount - prepaid };
  const pending = orderAmount - prepaid > 0n ? orderAmount - prepaid : 0n;
  return { prepaid, pending, adjustment: orderAmount - prepaid - pending };
}

/** A bigint of `scale` decimals as the JSON number the API shows. */
export const num = (units: bigint, scale: number) => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return Number(negative ? `-${text}` : text);
};
export const reais = (cents: bigint) => num(cents, 2);

// ---- generators ----------------------------------------------------------------------------

const arbLine: fc.Arbitrary<ModelLine> = fc.oneof(
  fc.record({
    unit: fc.constant<'KG'>('KG'),
    // up to 250.0000 a kilo, often round to the cent, sometimes with four decimals
    price: fc.oneof(
      fc.bigInt(1n, 25_000n).map((c) => c * 100n),
      fc.bigInt(1n, 2_500_000n),
    ),
    ordered: fc.oneof(fc.bigInt(1n, 5_000n), fc.constantFrom(250n, 500n, 1_000n, 1_250n, 2_000n)),
  }),
  fc.record({
    unit: fc.constant<'UN'>('UN'),
    price: fc.bigInt(1n, 50_000n).map((c) => c * 100n),
    ordered: fc.bigInt(1n, 6n),
  }),
);

export const arbOrder: fc.Arbitrary<ModelOrder> = fc
  .record({
    kg: arbLine.filter((l) => l.unit === 'KG'),
    others: fc.array(arbLine, { maxLength: 4 }),
    fee: fc.bigInt(0n, 2_000n),
    discountShare: fc.integer({ min: 0, max: 100 }),
    payment: fc.constantFrom<PaymentMode>('PENDING', 'PREPAID', 'MIXED'),
    tolerance: fc.constantFrom(0n, 500n, 1_250n, 2_000n, 3_333n, 5_000n, 10_000n),
    at: fc.nat(),
  })
  .map(({ kg, others, fee, discountShare, payment, tolerance, at }) => {
    const lines = [...others];
    lines.splice(at % (others.length + 1), 0, kg);
    return { lines, fee, discount: (fee * BigInt(discountShare)) / 100n, payment, tolerance };
  });

/** A weighing within tolerance: a non-empty set of KG lines, each with an allowed weight. */
export function arbWeighing(order: ModelOrder): fc.Arbitrary<Map<number, bigint>> {
  const kg = order.lines.flatMap((l, i) => (l.unit === 'KG' ? [i] : []));
  return fc
    .subarray(kg, { minLength: 1 })
    .chain((indexes) =>
      fc.tuple(
        ...indexes.map((i) => {
          const { min, max } = allowedGrams(order.lines[i].ordered, order.tolerance);
          return fc.bigInt(min, max).map((g) => [i, g] as const);
        }),
      ),
    )
    .map((pairs) => new Map(pairs));
}

/** One KG line weighed just outside its range (above it, or below it when that is above 0 g). */
export function arbOutside(order: ModelOrder): fc.Arbitrary<{ index: number; grams: bigint }> {
  const kg = order.lines.flatMap((l, i) => (l.unit === 'KG' ? [i] : []));
  return fc.tuple(fc.constantFrom(...kg), fc.boolean(), fc.bigInt(1n, 500n)).map(([index, above, by]) => {
    const { min, max } = allowedGrams(order.lines[index].ordered, order.tolerance);
    const grams = !above && min - by >= 1n ? min - by : max + by;
    return { index, grams };
  });
}
