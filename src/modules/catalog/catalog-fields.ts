// Readers of the fields an upload carries (spec 4.3, D9, D18): each returns the value the catalog
// keeps, or the reason the object is discarded. Shared by our uploads and Open Delivery's shapes.
// Names, types and limits are those of catalog-upload-schema.ts; the plain ones are checked by
// fieldProblem, the ones with a reading of their own (ids, prices, serving, image) here.

import type { Static } from 'typebox';
import { Decimal } from '../../lib/money.js';
import type { Availability, Discarded, ItemExtras, PlannedCategory, PlannedProduct } from './catalog-plan-types.js';
import {
  FlatItem,
  MAX_ID,
  MAX_NAME,
  MAX_TEXT,
  MAX_URL,
  UploadCategory,
  UploadImage,
  UploadItem,
} from './catalog-upload-schema.js';
import { readTradeFields } from './product-trade-fields.js';
import { fieldProblem, has, isObject, keysBeyond, keysExcept, maxLengthOf, type Obj } from './upload-field-check.js';

export { fieldProblem, has, isObject, MAX_ID, MAX_NAME, MAX_TEXT, MAX_URL, type Obj };

const MAX_PRICE = new Decimal('9999999999.9999');
const PLAIN_PRICE = /^\d{1,10}(\.\d{1,4})?$/;
const MAX_IMAGE_URL = maxLengthOf(UploadImage.properties.url);

/** What an item carries beyond an ITEM update: name, description, unit (set at creation, spec 4.3). */
export const CREATION_FIELDS = keysBeyond(UploadItem, FlatItem);
/** An item's fields that its schema alone says how to check (externalCode, ean, nutritionalInfo). */
const PLAIN_ITEM_FIELDS = keysExcept(FlatItem, 'id', 'serving', 'image', 'scaleCode', 'weight', 'leadTimeHours');
/** A category's fields but its id (read by eachEntity), ours and Open Delivery's alike. */
export const CATEGORY_FIELDS = keysExcept(UploadCategory, 'id');

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

/** `price.value` of an offer (D9): the price object and its value must be there once `price` is. */
export function readOfferPrice(o: Obj): { value: string } | { reason: string } {
  if (!isObject(o.price) || !has(o.price, 'value')) return { reason: 'price.value is missing' };
  return readPrice(o.price.value, 'price.value');
}

/** Spec 4.3: `serving` is an integer; text (or anything else that is not one) becomes 0. */
export function readServing(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1_000_000 ? v : 0;
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
  const { scaleCode, weightMin, weightMax, weightStep, leadTimeHours } = item;
  return {
    pdvId,
    name,
    description,
    unit,
    price,
    status,
    externalCode,
    ean,
    serving,
    nutritionalInfo,
    imageUrl,
    scaleCode,
    weightMin,
    weightMax,
    weightStep,
    leadTimeHours,
  };
}

/** Text read as given (untrimmed), or null when absent: the caller checked it with fieldProblem. */
const textOrNull = (o: Obj, key: string): string | null => (has(o, key) ? (o[key] as string) : null);

/** An item's codes and serving, read alike in our uploads and Open Delivery's. */
export function readItemCodes(o: Obj): Pick<ItemExtras, 'externalCode' | 'ean' | 'serving'> | { reason: string } {
  const reason = fieldProblem(FlatItem, o, ['externalCode', 'ean']);
  if (reason) return { reason };
  return {
    externalCode: textOrNull(o, 'externalCode'),
    ean: textOrNull(o, 'ean'),
    serving: has(o, 'serving') ? readServing(o.serving) : null,
  };
}

/** `nutritionalInfo`, kept as given (JSON text); absent → null. */
export function readNutritionalInfo(o: Obj): { value: string | null } | { reason: string } {
  const reason = fieldProblem(FlatItem, o, ['nutritionalInfo']);
  if (reason) return { reason };
  return { value: has(o, 'nutritionalInfo') ? JSON.stringify(o.nutritionalInfo) : null };
}

/** Fields an item carries in both MERCHANT and ITEM uploads (D18). */
export function readItemExtras(o: Obj): ItemExtras | { reason: string } {
  const reason = fieldProblem(FlatItem, o, PLAIN_ITEM_FIELDS);
  if (reason) return { reason };
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
    if (image.url.length > MAX_IMAGE_URL) return { reason: `image.url is longer than ${MAX_IMAGE_URL} characters` };
    imageUrl = image.url.trim();
  }
  const trade = readTradeFields(o);
  if ('reason' in trade) return trade;
  return { ...codes, nutritionalInfo: nutritionalInfo.value, imageUrl, ...trade };
}

/**
 * A category of a whole catalog, ours or Open Delivery's (D19: index only at creation, its place
 * in the list when not given), with its itemOfferId (null when absent); or why it is discarded.
 */
export function readCategory(
  raw: Obj,
  pdvId: string,
  place: number,
): { category: PlannedCategory; itemOfferId: unknown[] | null } | { reason: string } {
  const reason = fieldProblem(UploadCategory, raw, CATEGORY_FIELDS);
  if (reason) return { reason };
  const read = raw as Partial<Static<typeof UploadCategory>>;
  return {
    category: {
      pdvId,
      name: (read.name ?? '').trim(),
      index: read.index ?? place,
      status: read.status ?? 'AVAILABLE',
    },
    itemOfferId: read.itemOfferId ?? null,
  };
}

export function readArray(o: Obj, key: string, discarded: Discarded[]): unknown[] {
  if (!has(o, key)) return [];
  if (Array.isArray(o[key])) return o[key] as unknown[];
  discarded.push({ kind: 'updatedObjects', id: null, index: 0, reason: `updatedObjects[0].${key} must be an array` });
  return [];
}
