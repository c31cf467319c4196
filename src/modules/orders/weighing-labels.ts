// D41: a weighing line given as the scale's label. The label must be an EAN-13 with a correct
// check digit, match one of the merchant's layouts and carry the line's product's scaleCode; a
// WEIGHT label gives the kilograms, a PRICE label the line's price (the pack's legal statement)
// and the kilograms it stands for (price ÷ unit price, half up to the gram). Any broken rule is a
// 400 naming `items[i].label` and saying which.
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import { readLabel, type ScaleLabelLayout, sameScaleCode } from '../scale-labels/index.js';
import type { StoredOrderItem } from './order-intake.js';

/** What reading labels needs: the merchant's layouts and the order's products' scale codes. */
export interface LabelContext {
  layouts: ScaleLabelLayout[];
  /** By product id: its name and scaleCode (null when it has none). */
  products: Map<string, { name: string; scaleCode: string | null }>;
}

export interface LineLabel {
  quantity: Decimal;
  scaleLabel: string;
  labelPrice?: Decimal;
}

export function readLineLabel(
  label: unknown,
  item: Pick<StoredOrderItem, 'productId' | 'name' | 'unitPrice'>,
  lineIndex: number,
  field: string,
  ctx: LabelContext | undefined,
): LineLabel {
  const read = readLabel(label, ctx?.layouts ?? []);
  if ('problem' in read) throw badRequest(`${field} ${read.problem}`);
  const product = item.productId ? ctx?.products.get(item.productId) : undefined;
  const scaleCode = product?.scaleCode ?? null;
  if (scaleCode === null) {
    throw badRequest(
      `${field} cannot be checked: line ${lineIndex}'s product (${item.name}) has no scaleCode in the catalog`,
    );
  }
  if (!sameScaleCode(read.code, scaleCode)) {
    throw badRequest(
      `${field} carries scale code ${read.code}, not ${scaleCode} of line ${lineIndex}'s product (${item.name}): ` +
        'a label of another product',
    );
  }
  if (read.amount.isZero()) {
    throw badRequest(`${field} carries a ${read.value === 'WEIGHT' ? 'weight' : 'price'} of 0`);
  }
  if (read.value === 'WEIGHT') return { quantity: read.amount, scaleLabel: read.label };
  const unitPrice = new Decimal(String(item.unitPrice.value));
  if (unitPrice.isZero()) throw badRequest(`${field} is a PRICE label, and line ${lineIndex} has a unit price of 0`);
  const quantity = read.amount.dividedBy(unitPrice).toDecimalPlaces(3, Decimal.ROUND_HALF_UP);
  if (quantity.isZero()) {
    throw badRequest(`${field} carries a price of ${read.amount.toFixed(2)}, less than a gram at this unit price`);
  }
  return { quantity, scaleLabel: read.label, labelPrice: read.amount };
}
