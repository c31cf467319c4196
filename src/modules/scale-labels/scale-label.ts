// D41: reading a counter scale's EAN-13 label with the merchant's layouts, and writing one (the
// sandbox's scale, the tests). Pure: a label is 13 digits whose last is the EAN-13 check digit;
// the first layout whose prefix begins it says where the product's code and the value are.
import { Decimal } from '../../lib/money.js';
import { LABEL_BODY_DIGITS, type ScaleLabelLayout } from './label-layout.js';

const LABEL = /^[0-9]{13}$/;

/** The EAN-13 check digit of 12 digits: weights 1 and 3 alternating from the left, to the next ten. */
export function ean13CheckDigit(body: string): number {
  let sum = 0;
  for (let i = 0; i < body.length; i++) sum += Number(body[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export interface LabelReading {
  label: string;
  layout: ScaleLabelLayout;
  /** The product's code as printed (with its leading zeros). */
  code: string;
  value: 'WEIGHT' | 'PRICE';
  /** Kilograms for a WEIGHT label, BRL for a PRICE label, exact. */
  amount: Decimal;
}

/** Why a label cannot be read, in words that follow "items[i].label …". */
export type LabelProblem = { problem: string };

/** The label read with the first layout whose prefix begins it, or the rule it breaks. */
export function readLabel(label: unknown, layouts: ScaleLabelLayout[]): LabelReading | LabelProblem {
  if (typeof label !== 'string' || !LABEL.test(label)) return { problem: 'must be 13 digits (an EAN-13 scale label)' };
  const check = ean13CheckDigit(label.slice(0, LABEL_BODY_DIGITS));
  if (Number(label[LABEL_BODY_DIGITS]) !== check) {
    return { problem: `has a wrong check digit: ${label[LABEL_BODY_DIGITS]}, where the other digits give ${check}` };
  }
  const layout = layouts.find((l) => label.startsWith(l.prefix));
  if (!layout) {
    return {
      problem:
        layouts.length === 0
          ? 'cannot be read: the merchant has no scale label layouts (PUT /v1/merchant/scaleLabelLayouts)'
          : `matches no scale label layout of the merchant (prefixes ${layouts.map((l) => l.prefix).join(', ')})`,
    };
  }
  const codeStart = layout.prefix.length;
  const valueStart = codeStart + layout.codeDigits;
  const code = label.slice(codeStart, valueStart);
  const digits = label.slice(valueStart, valueStart + layout.valueDigits);
  return { label, layout, code, value: layout.value, amount: new Decimal(digits).dividedBy(10 ** layout.decimals) };
}

/** Scale codes are numbers on the scale: `000002`, `02` and `2` name the same product. */
export function sameScaleCode(a: string, b: string): boolean {
  return a.replace(/^0+(?=.)/, '') === b.replace(/^0+(?=.)/, '');
}

/**
 * The label a scale prints for this code and value under `layout` (what a butcher's scale does),
 * or null when the code or the value does not fit in its digits.
 */
export function buildLabel(layout: ScaleLabelLayout, code: string, amount: Decimal | number | string): string | null {
  const units = new Decimal(amount).times(10 ** layout.decimals);
  if (!units.isInteger() || units.isNegative()) return null;
  const value = units.toFixed(0);
  const bare = code.replace(/^0+(?=.)/, '');
  if (!/^[0-9]+$/.test(bare) || bare.length > layout.codeDigits || value.length > layout.valueDigits) return null;
  const body = layout.prefix + bare.padStart(layout.codeDigits, '0') + value.padStart(layout.valueDigits, '0');
  return body + String(ean13CheckDigit(body));
}
