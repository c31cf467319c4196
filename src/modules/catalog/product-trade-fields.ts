// The butcher's fields of an uploaded item (D41 scaleCode, D42 weight, D44 leadTimeHours), read
// alike from our uploads and Open Delivery's (where they are extra fields of the Item). Each
// returns the value the catalog keeps, or the reason the item is discarded, naming the field.
// Decimals are read exactly (D9): a weight of 0.3 is "0.3", never 0.29999….
import { Decimal } from '../../lib/money.js';
import { MAX_KG, MAX_LEAD_TIME_HOURS } from './catalog-upload-schema.js';
import { has, isObject, type Obj } from './upload-field-check.js';

const SCALE_CODE = /^[0-9]{1,6}$/;

/** What an item says of its trade fields; null: not given (the stored value is kept). */
export interface TradeFields {
  scaleCode: string | null;
  /** weight.min, weight.max and weight.step: the three together or none. */
  weightMin: string | null;
  weightMax: string | null;
  weightStep: string | null;
  leadTimeHours: string | null;
}

export const NO_TRADE_FIELDS: TradeFields = {
  scaleCode: null,
  weightMin: null,
  weightMax: null,
  weightStep: null,
  leadTimeHours: null,
};

/** An exact decimal within (0 or more, at most `max`) with at most `places` decimals, or why not. */
function readDecimal(
  v: unknown,
  field: string,
  rule: { positive: boolean; max: number; places: number; unit: string },
): { value: Decimal } | { reason: string } {
  if (typeof v !== 'number' || !Number.isFinite(v)) return { reason: `${field} must be a number of ${rule.unit}` };
  const d = new Decimal(String(v));
  if (rule.positive ? d.lte(0) : d.isNegative()) {
    return { reason: `${field} must be ${rule.positive ? 'more than 0' : '0 or more'}` };
  }
  if (d.gt(rule.max)) return { reason: `${field} must be at most ${rule.max}` };
  if (d.decimalPlaces() > rule.places) return { reason: `${field} has more than ${rule.places} decimal places` };
  return { value: d };
}

const KG = { positive: true, max: MAX_KG, places: 3, unit: 'kilograms' };

/** `weight: {min, max, step}` (D42): all three, in kg, min ≤ max. */
function readWeight(v: unknown): Pick<TradeFields, 'weightMin' | 'weightMax' | 'weightStep'> | { reason: string } {
  if (!isObject(v)) return { reason: 'weight must be an object {min, max, step}' };
  const read: Decimal[] = [];
  for (const key of ['min', 'max', 'step'] as const) {
    if (!has(v, key)) return { reason: `weight.${key} is missing` };
    const d = readDecimal(v[key], `weight.${key}`, KG);
    if ('reason' in d) return d;
    read.push(d.value);
  }
  const [min, max, step] = read as [Decimal, Decimal, Decimal];
  if (max.lt(min)) return { reason: 'weight.max must be at least weight.min' };
  return { weightMin: min.toFixed(), weightMax: max.toFixed(), weightStep: step.toFixed() };
}

/** The trade fields of an item (absent or null: not given), or the first reason to discard it. */
export function readTradeFields(o: Obj): TradeFields | { reason: string } {
  const fields = { ...NO_TRADE_FIELDS };
  if (has(o, 'scaleCode')) {
    if (typeof o.scaleCode !== 'string' || !SCALE_CODE.test(o.scaleCode)) {
      return { reason: 'scaleCode must be a string of 1 to 6 digits' };
    }
    fields.scaleCode = o.scaleCode;
  }
  if (has(o, 'weight')) {
    const weight = readWeight(o.weight);
    if ('reason' in weight) return weight;
    Object.assign(fields, weight);
  }
  if (has(o, 'leadTimeHours')) {
    const hours = readDecimal(o.leadTimeHours, 'leadTimeHours', {
      positive: false,
      max: MAX_LEAD_TIME_HOURS,
      places: 2,
      unit: 'hours',
    });
    if ('reason' in hours) return hours;
    fields.leadTimeHours = hours.value.toFixed();
  }
  return fields;
}
