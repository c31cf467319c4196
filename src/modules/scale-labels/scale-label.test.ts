// D41: the label reader with the decision's test vectors, the layout rules, and the property that
// a label built from a weight or a price under any valid layout reads back to it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedRuns } from '../../../test/support/generated-inputs.js';
import { arbLayout } from '../../../test/support/scale-labels.js';
import { AppError } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import { checkLayouts, type ScaleLabelLayout } from './label-layout.js';
import { buildLabel, ean13CheckDigit, readLabel, sameScaleCode } from './scale-label.js';

const layout = (prefix: string, codeDigits: number, value: 'WEIGHT' | 'PRICE', valueDigits: number) => ({
  prefix,
  codeDigits,
  value,
  valueDigits,
  decimals: value === 'WEIGHT' ? 3 : 2,
});

/** The vectors of D41, each with the layout that reads it. */
const D41_VECTORS = [
  { label: '2000002001027', layout: layout('2', 6, 'WEIGHT', 5), code: '000002', value: 'WEIGHT', amount: '0.102' },
  { label: '2010085025049', layout: layout('2', 6, 'WEIGHT', 5), code: '010085', value: 'WEIGHT', amount: '2.504' },
  { label: '2014900002840', layout: layout('2', 4, 'PRICE', 7), code: '0149', value: 'PRICE', amount: '2.84' },
  { label: '2000001007600', layout: layout('2', 6, 'PRICE', 5), code: '000001', value: 'PRICE', amount: '7.6' },
] as const;

describe('scale labels: the D41 vectors', () => {
  it.each(D41_VECTORS)('$label reads as code $code, $value $amount, and is rebuilt as it is', (v) => {
    const read = readLabel(v.label, [v.layout]);
    expect(read).toMatchObject({ code: v.code, value: v.value });
    if ('problem' in read) throw new Error(read.problem);
    expect(read.amount.toFixed()).toBe(v.amount);
    expect(buildLabel(v.layout, v.code, v.amount)).toBe(v.label);
    expect(ean13CheckDigit(v.label.slice(0, 12))).toBe(Number(v.label[12]));
  });

  it('2010085025049 at R$ 12.19/kg is R$ 30.52', () => {
    const read = readLabel('2010085025049', [D41_VECTORS[1].layout]);
    if ('problem' in read) throw new Error(read.problem);
    expect(read.amount.times('12.19').toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2)).toBe('30.52');
  });

  it.each([
    ['12 digits', '201008502504', 'must be 13 digits (an EAN-13 scale label)'],
    ['letters', '20100850250A9', 'must be 13 digits (an EAN-13 scale label)'],
    ['a number', 2010085025049, 'must be 13 digits (an EAN-13 scale label)'],
    ['a wrong check digit', '2010085025048', 'has a wrong check digit: 8, where the other digits give 9'],
    ['no layout for its prefix', '2010085025049', 'matches no scale label layout of the merchant (prefixes 21)'],
  ])('refuses %s, saying which rule', (_name, label, problem) => {
    expect(readLabel(label, [layout('21', 5, 'WEIGHT', 5)])).toEqual({ problem });
  });

  it('says so when the merchant has no layouts', () => {
    expect(readLabel('2010085025049', [])).toEqual({
      problem: 'cannot be read: the merchant has no scale label layouts (PUT /v1/merchant/scaleLabelLayouts)',
    });
  });

  it('tries the layouts in order: the first whose prefix begins the label reads it', () => {
    const read = readLabel('2010085025049', [layout('20', 5, 'PRICE', 5), layout('2', 6, 'WEIGHT', 5)]);
    expect(read).toMatchObject({ code: '10085', value: 'PRICE' });
  });

  it('scale codes are numbers: leading zeros do not count', () => {
    expect(sameScaleCode('010085', '10085')).toBe(true);
    expect(sameScaleCode('000000', '0')).toBe(true);
    expect(sameScaleCode('010085', '10086')).toBe(false);
  });
});

describe('scale label layouts (D41)', () => {
  const refusal = (layouts: ScaleLabelLayout[]) => {
    try {
      checkLayouts(layouts);
    } catch (error) {
      if (error instanceof AppError) return { status: error.status, title: error.title };
      throw error;
    }
    return null;
  };
  it.each([
    [
      'a prefix not beginning with 2',
      [layout('1', 6, 'WEIGHT', 5)],
      '[0].prefix must be 1 or 2 digits beginning with 2 (labels of restricted circulation)',
    ],
    [
      'a prefix of letters',
      [layout('2a', 5, 'WEIGHT', 5)],
      '[0].prefix must be 1 or 2 digits beginning with 2 (labels of restricted circulation)',
    ],
    ['3 code digits', [layout('2', 3, 'WEIGHT', 7)], '[0].codeDigits must be from 4 to 6'],
    ['8 value digits', [layout('2', 4, 'WEIGHT', 8)], '[0].valueDigits must be from 5 to 7'],
    [
      'digits adding up to 13',
      [layout('2', 6, 'WEIGHT', 5), layout('21', 6, 'PRICE', 5)],
      '[1].valueDigits: prefix (2), code (6) and value (5) digits add up to 13, not 12 (the thirteenth is the check digit)',
    ],
    [
      '2 decimals for a weight',
      [{ ...layout('2', 6, 'WEIGHT', 5), decimals: 2 }],
      '[0].decimals must be 3 for a WEIGHT label (kg)',
    ],
    [
      '3 decimals for a price',
      [{ ...layout('2', 6, 'PRICE', 5), decimals: 3 }],
      '[0].decimals must be 2 for a PRICE label (BRL)',
    ],
  ])('refuses %s with a 400 naming the field', (_name, layouts, title) => {
    expect(refusal(layouts as ScaleLabelLayout[])).toEqual({ status: 400, title });
  });

  it('takes every valid layout', () => {
    expect(refusal(D41_VECTORS.map((v) => v.layout))).toBeNull();
  });
});

describe('scale labels: property (D41)', () => {
  it('a label built from any code and weight or price under any layout reads back to them', () => {
    const arb = arbLayout.chain((l) =>
      fc.tuple(
        fc.constant(l),
        fc.integer({ min: 0, max: 10 ** l.codeDigits - 1 }),
        fc.integer({ min: 1, max: 10 ** l.valueDigits - 1 }),
      ),
    );
    fc.assert(
      fc.property(arb, ([l, code, units]) => {
        const amount = new Decimal(units).dividedBy(10 ** l.decimals);
        const label = buildLabel(l, String(code), amount);
        expect(label).toMatch(/^[0-9]{13}$/);
        const read = readLabel(label, [l]);
        if ('problem' in read) throw new Error(read.problem);
        expect(sameScaleCode(read.code, String(code))).toBe(true);
        expect(read.amount.equals(amount)).toBe(true);
        expect(read.value).toBe(l.value);
        // Any other last digit is a wrong check digit.
        const wrong = `${(label as string).slice(0, 12)}${(Number((label as string)[12]) + 1) % 10}`;
        expect(readLabel(wrong, [l])).toHaveProperty('problem');
      }),
      { numRuns: generatedRuns(5_000, 200) },
    );
  });
});
