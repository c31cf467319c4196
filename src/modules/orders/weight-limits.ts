// D42: a KG product's limits on the ordered quantity, `weight: {min, max, step}`. The grid
// starts at min: with min 0.5 and step 0.25 a customer orders 0.5, 0.75, 1, … kg. A weighed
// quantity is never held to them (the cut weighs what it weighs).
import { badRequest } from '../../lib/errors.js';
import { Decimal } from '../../lib/money.js';
import type { ProductRow } from '../catalog/index.js';

type Limits = Pick<ProductRow, 'unit' | 'weight_min' | 'weight_max' | 'weight_step'>;

/** A 400 naming `field` when an ordered quantity breaks its product's limits, with the range or the step. */
export function checkWeightLimits(product: Limits, quantity: Decimal, field: string): void {
  if (product.unit !== 'KG' || product.weight_min === null || product.weight_max === null) return;
  const min = new Decimal(product.weight_min);
  const max = new Decimal(product.weight_max);
  if (quantity.lessThan(min) || quantity.greaterThan(max)) {
    throw badRequest(`${field} must be between ${min.toFixed()} and ${max.toFixed()} kg for this product`);
  }
  if (product.weight_step === null) return;
  const step = new Decimal(product.weight_step);
  if (!quantity.minus(min).modulo(step).isZero()) {
    const next = [min, min.plus(step), min.plus(step.times(2))].map((d) => d.toFixed()).join(', ');
    throw badRequest(
      `${field} must be ${min.toFixed()} kg plus a whole number of ${step.toFixed()} kg steps (${next}, …)`,
    );
  }
}
