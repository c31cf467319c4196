import { Decimal } from 'decimal.js';
import { badRequest } from './errors.js';

// D9: BRL amounts are decimal numbers in the API and `numeric` in the database; arithmetic on
// them never goes through binary floating point.

export { Decimal };

/** Largest amount the numeric(14,4) columns hold. */
const MAX = new Decimal('9999999999.9999');

/** A JSON number from a request as an exact decimal string, or 400 naming the field. */
export function toDecimalString(value: number, field: string): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw badRequest(`${field} must be a number`);
  // String(value) is the shortest text that round-trips the double: 12.9 → "12.9", not 12.9000000000000003.
  const d = new Decimal(String(value));
  if (d.isNegative()) throw badRequest(`${field} must not be negative`);
  if (d.greaterThan(MAX)) throw badRequest(`${field} is too large`);
  if (d.decimalPlaces() > 4) throw badRequest(`${field} has more than 4 decimal places`);
  return d.toFixed();
}

/** A stored numeric (text) as a JSON number for responses. */
export const toNumber = (value: string | number): number => Number(value);
