// Readers of the fields an upload carries (spec 4.3, D9, D18): each returns the value the catalog
// keeps, or the reason the object is discarded. Shared by our uploads and Open Delivery's shapes.
import { Decimal } from '../../lib/money.js';
import type { Availability, Discarded, ItemExtras, PlannedProduct } from './catalog-plan-types.js';

export const MAX_ID = 255;
export const MAX_NAME = 500;
export const MAX_TEXT = 10_000;
export const MAX_URL = 2048;
const MAX_PRICE = new Decimal('9999999999.9999');
const PLAIN_PRICE = /^\d{1,10}(\.\d{1,4})?$/;

export type Obj = Record<string, unknown>;
export const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
/** Present and not null. */
export const has = (o: Obj, key: string) => Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
export const isStatus = (v: unknown): v is Availability => v === 'AVAILABLE' || v === 'UNAVAILABLE';

/** A usable POS id: a non-blank string (or a finite number, which POS systems do send) of sane length. */
export function readId(v: unknown): string | null {
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v !== 'string') return null;
  const id = v.trim();
  return id && id.length <= MAX_ID ? id : null;
}

/** Exact decimal text of a price (D9), or the reason it is unusable. */
export function readPrice(v: unknown, field: string): { value: string } | { reason: string } {
  if (typeof v !== 'number' || !Number.isFinite(v)) return { reason: `${field} must be a number` };
  // Fast path for the usual shape (String(v) is the shortest text that round-trips the double).
  const text = String(v);
  if (PLAIN_PRICE.test(text)) return { value: text };
  const d = new Decimal(text);
  if (d.isNegative()) return { reason: `${field} must not be negative` };
  if (d.greaterThan(MAX_PRICE)) return { reason: `${field} is too large` };
  if (d.decimalPlaces() > 4) return { reason: `${field} has more than 4 decimal places` };
  return { value: d.toFixed() };
}

/** Spec 4.3: `serving` is an integer; text (or anything else that is not one) becomes 0. */
export function readServing(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1_000_000 ? v : 0;
}

/** Optional string field: absent → null (keep), a string → trimmed value, anything else → a reason. */
export function optionalText(o: Obj, key: string, max: number): { value: string | null } | { reason: string } {
  if (!has(o, key)) return { value: null };
  const v = o[key];
  if (typeof v !== 'string') return { reason: `${key} must be a string` };
  if (v.length > max) return { reason: `${key} is longer than ${max} characters` };
  return { value: v };
}

export type { ItemExtras };

/** The product a plan writes for an item its offer reaches: the item's fields, the offer's price and status. */
export function plannedProduct(
  pdvId: string,
  item: Pick<PlannedProduct, 'name' | 'description' | 'unit'> & ItemExtras,
  price: string,
  status: Availability,
): PlannedProduct {
  const { name, description, unit, externalCode, ean, serving, nutritionalInfo, imageUrl } = item;
  return { pdvId, name, description, unit, price, status, externalCode, ean, serving, nutritionalInfo, imageUrl };
}

/** An item's codes and serving, read alike in our uploads and Open Delivery's. */
export function readItemCodes(o: Obj): Pick<ItemExtras, 'externalCode' | 'ean' | 'serving'> | { reason: string } {
  const externalCode = optionalText(o, 'externalCode', MAX_ID);
  if ('reason' in externalCode) return externalCode;
  const ean = optionalText(o, 'ean', MAX_ID);
  if ('reason' in ean) return ean;
  return {
    externalCode: externalCode.value,
    ean: ean.value,
    serving: has(o, 'serving') ? readServing(o.serving) : null,
  };
}

/** `nutritionalInfo`, kept as given (JSON text); absent → null. */
export function readNutritionalInfo(o: Obj): { value: string | null } | { reason: string } {
  if (!has(o, 'nutritionalInfo')) return { value: null };
  if (!isObject(o.nutritionalInfo)) return { reason: 'nutritionalInfo must be an object' };
  return { value: JSON.stringify(o.nutritionalInfo) };
}

/** Fields an item carries in both MERCHANT and ITEM uploads (D18). */
export function readItemExtras(o: Obj): ItemExtras | { reason: string } {
  const codes = readItemCodes(o);
  if ('reason' in codes) return codes;
  const nutritionalInfo = readNutritionalInfo(o);
  if ('reason' in nutritionalInfo) return nutritionalInfo;
  let imageUrl: string | null = null;
  if (has(o, 'image')) {
    const image = o.image;
    if (!isObject(image) || typeof image.url !== 'string' || !image.url.trim()) {
      return { reason: 'image.url must be a non-empty string' };
    }
    if (image.url.length > MAX_URL) return { reason: `image.url is longer than ${MAX_URL} characters` };
    imageUrl = image.url.trim();
  }
  return { ...codes, nutritionalInfo: nutritionalInfo.value, imageUrl };
}

export function readArray(o: Obj, key: string, discarded: Discarded[]): unknown[] {
  if (!has(o, key)) return [];
  if (Array.isArray(o[key])) return o[key] as unknown[];
  discarded.push({ kind: 'updatedObjects', id: null, index: 0, reason: `updatedObjects[0].${key} must be an array` });
  return [];
}
