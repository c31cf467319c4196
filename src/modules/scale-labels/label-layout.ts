// D41: a merchant's scale label layouts. Brazil has no single layout for the EAN-13 labels a
// counter scale prints (restricted circulation, first digit 2), so each merchant declares how
// its scales lay out the twelve digits before the check digit: the prefix, the product's code,
// then the weight (kg) or the price (BRL).
import { type Static, Type } from 'typebox';
import { badRequest } from '../../lib/errors.js';

/** An EAN-13 holds 12 digits and its check digit. */
export const LABEL_BODY_DIGITS = 12;
/** How many decimals each kind of value has on a label: grams of a kilogram, centavos of a real. */
export const VALUE_DECIMALS = { WEIGHT: 3, PRICE: 2 } as const;
export const MAX_LAYOUTS = 10;

export const ScaleLabelLayout = Type.Object({
  prefix: Type.String({
    minLength: 1,
    maxLength: 2,
    description: 'The label’s first 1 or 2 digits, which pick this layout; the first is 2 (restricted circulation).',
  }),
  codeDigits: Type.Integer({ minimum: 4, maximum: 6, description: 'How many digits the product’s scale code takes.' }),
  value: Type.Enum(['WEIGHT', 'PRICE'], {
    description: 'What follows the code: WEIGHT (kilograms) or PRICE (BRL, the pack’s price).',
  }),
  valueDigits: Type.Integer({ minimum: 5, maximum: 7, description: 'How many digits the value takes.' }),
  decimals: Type.Integer({
    minimum: 2,
    maximum: 3,
    description: 'Decimal places of the value: 3 for a WEIGHT (grams), 2 for a PRICE (centavos).',
  }),
});
export type ScaleLabelLayout = Static<typeof ScaleLabelLayout>;

export const ScaleLabelLayouts = Type.Array(ScaleLabelLayout, {
  maxItems: MAX_LAYOUTS,
  description:
    'The merchant’s label layouts, tried in order: the first whose prefix begins the label reads it. Prefix, code ' +
    'and value digits add up to 12; the thirteenth digit is the EAN-13 check digit.',
});

/** The rules the schema alone cannot say (D41), each a 400 naming the field: `[1].valueDigits`. */
export function checkLayouts(layouts: ScaleLabelLayout[]): ScaleLabelLayout[] {
  layouts.forEach((l, i) => {
    const at = `[${i}]`;
    if (!/^2[0-9]?$/.test(l.prefix)) {
      throw badRequest(`${at}.prefix must be 1 or 2 digits beginning with 2 (labels of restricted circulation)`);
    }
    if (l.codeDigits < 4 || l.codeDigits > 6) throw badRequest(`${at}.codeDigits must be from 4 to 6`);
    if (l.valueDigits < 5 || l.valueDigits > 7) throw badRequest(`${at}.valueDigits must be from 5 to 7`);
    const sum = l.prefix.length + l.codeDigits + l.valueDigits;
    if (sum !== LABEL_BODY_DIGITS) {
      throw badRequest(
        `${at}.valueDigits: prefix (${l.prefix.length}), code (${l.codeDigits}) and value (${l.valueDigits}) digits ` +
          `add up to ${sum}, not ${LABEL_BODY_DIGITS} (the thirteenth is the check digit)`,
      );
    }
    const decimals = VALUE_DECIMALS[l.value];
    if (l.decimals !== decimals) {
      throw badRequest(
        `${at}.decimals must be ${decimals} for a ${l.value} label (${l.value === 'WEIGHT' ? 'kg' : 'BRL'})`,
      );
    }
  });
  return layouts.map(({ prefix, codeDigits, value, valueDigits, decimals }) => ({
    prefix,
    codeDigits,
    value,
    valueDigits,
    decimals,
  }));
}
