// D41, property on the pure functions: for any layout, price per kilogram and weight or price, a
// weighing by the label a scale prints gives the same order as a weighing by the kilograms it
// stands for (the line, the totals, the payments), the line keeping the label; a PRICE label's
// line costs exactly the printed price. And the rules a label breaks, each naming items[i].label.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedRuns } from '../../../test/support/generated-inputs.js';
import { arbLayout } from '../../../test/support/scale-labels.js';
import { AppError } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { ProductRow } from '../catalog/index.js';
import { buildLabel, type ScaleLabelLayout } from '../scale-labels/index.js';
import { buildOrder } from './order-intake.js';
import { weighOrder } from './order-weighing.js';
import type { LabelContext } from './weighing-labels.js';

const KG_ID = '00000000-0000-4000-8000-000000000001';
const UN_ID = '00000000-0000-4000-8000-000000000002';

const product = (id: string, unit: 'KG' | 'UN', price: string, scaleCode: string | null): ProductRow => ({
  id,
  merchant_id: 'm',
  pdv_external_id: null,
  name: unit === 'KG' ? 'Picanha' : 'Carvão',
  description: '',
  price,
  unit,
  status: 'AVAILABLE',
  stock: '0',
  external_code: '',
  ean: '',
  sku: '',
  scale_code: scaleCode,
  weight_min: null,
  weight_max: null,
  weight_step: null,
  lead_time_hours: null,
});

function order(pricePerKg: string, ordered: number, scaleCode: string, payment: 'PENDING' | 'PREPAID') {
  const products = [product(KG_ID, 'KG', pricePerKg, scaleCode), product(UN_ID, 'UN', '19.9', null)];
  const amount = new Decimal(pricePerKg).times(ordered).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).plus('24.9');
  let n = 0;
  const built = buildOrder(
    {
      type: 'DELIVERY',
      items: [
        { productId: KG_ID, quantity: ordered },
        { productId: UN_ID, quantity: 1 },
      ],
      otherFees: [{ name: 'Taxa', type: 'DELIVERY_FEE', price: 5 }],
      payments: {
        methods: [{ value: amount.toNumber(), type: payment, method: payment === 'PENDING' ? 'CASH' : 'CREDIT' }],
      },
    },
    {
      orderId: '99999999-9999-4999-8999-999999999999',
      now: new Date('2026-03-02T15:00:00Z'),
      appId: '88888888-8888-4888-8888-888888888888',
      merchant: { id: 'm', name: 'Açougue' },
      products,
      ordersCountOnMerchant: 0,
      newId: () => `77777777-7777-4777-8777-${String(n++).padStart(12, '0')}`,
      randomDigits: () => '1234',
    },
  );
  return { document: built.document, products };
}

const context = (layouts: ScaleLabelLayout[], products: ProductRow[]): LabelContext => ({
  layouts,
  products: new Map(products.map((p) => [p.id, { name: p.name, scaleCode: p.scale_code }])),
});

/** Any weight goes through (marked outside, never refused): the property is about the arithmetic. */
const ANY = { ask: true };

describe('weighing by label (D41)', () => {
  it('gives the order a weighing by the kilograms it stands for gives; a PRICE label costs the printed price', () => {
    const arb = arbLayout.chain((l) =>
      fc.record({
        layout: fc.constant(l),
        code: fc.integer({ min: 0, max: 10 ** l.codeDigits - 1 }).map(String),
        // R$ 0.01 to R$ 999.99 per kilogram, in centavos.
        cents: fc.integer({ min: 1, max: 99_999 }),
        ordered: fc.integer({ min: 1, max: 20_000 }).map((g) => g / 1000),
        units: fc.integer({ min: 1, max: Math.min(10 ** l.valueDigits - 1, 9_999_999) }),
        payment: fc.constantFrom('PENDING' as const, 'PREPAID' as const),
      }),
    );
    fc.assert(
      fc.property(arb, ({ layout, code, cents, ordered, units, payment }) => {
        const pricePerKg = new Decimal(cents).dividedBy(100).toFixed();
        const { document, products } = order(pricePerKg, ordered, code, payment);
        const amount = new Decimal(units).dividedBy(10 ** layout.decimals);
        const label = buildLabel(layout, code, amount) as string;
        const labels = context([layout], products);
        const stands =
          layout.value === 'WEIGHT' ? amount : amount.dividedBy(pricePerKg).toDecimalPlaces(3, Decimal.ROUND_HALF_UP);
        fc.pre(stands.greaterThan(0));
        const byLabel = weighOrder(document, [{ index: 0, label }], 20, { ...ANY, labels });
        const byQuantity = weighOrder(document, [{ index: 0, quantity: stands.toNumber() }], 20, ANY);
        const line = byLabel.document.items[0] as (typeof byLabel.document.items)[number] & { scaleLabel?: string };
        expect(line.scaleLabel).toBe(label);
        expect(line.quantity).toBe(stands.toNumber());
        expect(byLabel.lines).toEqual([{ ...byQuantity.lines[0], scaleLabel: label }]);
        expect(byLabel.checked[0]?.outside).toBe(byQuantity.checked[0]?.outside);
        if (layout.value === 'WEIGHT') {
          const { scaleLabel: _label, ...rest } = line;
          expect(rest).toEqual(byQuantity.document.items[0]);
          expect(byLabel.document.total).toEqual(byQuantity.document.total);
          expect(byLabel.document.payments).toEqual(byQuantity.document.payments);
          expect(byLabel.weighingAdjustment).toEqual(byQuantity.weighingAdjustment);
        } else {
          // The printed price is the line's price; the totals follow from it as from any line total.
          expect(line.totalPrice.value).toBe(amount.toNumber());
          const itemsPrice = amount.plus(document.items[1].totalPrice.value);
          expect(byLabel.document.total.itemsPrice.value).toBe(itemsPrice.toNumber());
          expect(byLabel.document.total.orderAmount.value).toBe(itemsPrice.plus(5).toNumber());
        }
      }),
      { numRuns: generatedRuns(3_000, 100) },
    );
  });

  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      if (error instanceof AppError) return { status: error.status, title: error.title };
      throw error;
    }
    return null;
  };
  const weightLayout = { prefix: '2', codeDigits: 6, value: 'WEIGHT' as const, valueDigits: 5, decimals: 3 };

  it.each([
    [
      'a label of another product',
      [{ index: 0, label: '2000002001027' }],
      "items[0].label carries scale code 000002, not 10085 of line 0's product (Picanha): a label of another product",
    ],
    [
      'a wrong check digit',
      [{ index: 0, label: '2010085025040' }],
      'items[0].label has a wrong check digit: 0, where the other digits give 9',
    ],
    [
      'a UN line',
      [{ index: 1, label: '2010085025049' }],
      'items[0].label cannot be applied: line 1 is sold by UN (only KG lines are weighed)',
    ],
    [
      'both quantity and label',
      [{ index: 0, label: '2010085025049', quantity: 1 }],
      'items[0] gives both quantity and label: send one of them',
    ],
    ['neither', [{ index: 0 }], 'items[0].quantity or items[0].label is required'],
    [
      'a weight out of tolerance',
      [{ index: 0, label: '2010085025049' }],
      'items[0].label must be between 0.8 and 1.2 (±20 % of the 1 kg ordered): the label stands for 2.504 kg',
    ],
  ])('refuses %s, naming the field and the rule', (name, lines, title) => {
    const { document, products } = order('12.19', name === 'a weight out of tolerance' ? 1 : 2.5, '10085', 'PENDING');
    expect(refusal(() => weighOrder(document, lines, 20, { labels: context([weightLayout], products) }))).toEqual({
      status: 400,
      title,
    });
  });

  it('refuses a label for a product without a scaleCode', () => {
    const { document, products } = order('12.19', 2.5, '10085', 'PENDING');
    const labels = context([weightLayout], products);
    labels.products.set(KG_ID, { name: 'Picanha', scaleCode: null });
    expect(refusal(() => weighOrder(document, [{ index: 0, label: '2010085025049' }], 20, { labels }))).toEqual({
      status: 400,
      title: "items[0].label cannot be checked: line 0's product (Picanha) has no scaleCode in the catalog",
    });
  });

  it('2010085025049 on a line at R$ 12.19/kg is R$ 30.52', () => {
    const { document, products } = order('12.19', 2.5, '10085', 'PENDING');
    const labels = context([weightLayout], products);
    const out = weighOrder(document, [{ index: 0, label: '2010085025049' }], 20, { labels });
    expect(out.document.items[0]).toMatchObject({ quantity: 2.504, totalPrice: { value: 30.52 } });
  });
});
