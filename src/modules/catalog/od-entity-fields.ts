// Pure readers of Open Delivery entity fields (D29) that both a whole menu (od-merchant-plan.ts)
// and an ITEM or ITEM_OFFER notification (od-notification-plan.ts) use: each returns the value
// the catalog keeps, or the reason the object is discarded, in the object's own field names.
import {
  type Availability,
  has,
  type ItemExtras,
  isObject,
  isStatus,
  MAX_URL,
  readItemCodes,
  readNutritionalInfo,
  readPrice,
} from './catalog-upload-plan.js';
import { readTradeFields } from './product-trade-fields.js';

type Obj = Record<string, unknown>;

const ABSOLUTE_HTTP = /^https?:\/\/[^\s/?#@]+(?:[/?#]\S*)?$/i;

/** Fields of an OD item that ITEM notifications update too (everything but the creation-only ones). */
export interface OdItemFields extends ItemExtras {
  status: Availability | null;
  /** Images beyond the one kept (THUMB, or a second MAIN). */
  droppedImages: number;
}

function readImageUrl(v: unknown, field: string): { value: string } | { reason: string } {
  if (!isObject(v)) return { reason: `${field} must be an object with URL` };
  // The standard spells it URL; a lower-case url (our upload's spelling) is taken too.
  const url = has(v, 'URL') ? v.URL : v.url;
  if (typeof url !== 'string' || !url.trim()) return { reason: `${field}.URL must be a non-empty string` };
  if (url.length > MAX_URL) return { reason: `${field}.URL is longer than ${MAX_URL} characters` };
  // A scheme and a host is what a browser needs to fetch it; a full URL parse per item is not.
  if (!ABSOLUTE_HTTP.test(url.trim())) return { reason: `${field}.URL must be an absolute http(s) URL` };
  return { value: url.trim() };
}

/** OD Item fields that are not creation-only (shared by the Merchant and ITEM notifications). */
export function readOdItemFields(o: Obj): OdItemFields | { reason: string } {
  const codes = readItemCodes(o);
  if ('reason' in codes) return codes;
  if (has(o, 'status') && !isStatus(o.status)) return { reason: 'status must be AVAILABLE or UNAVAILABLE' };
  const nutritionalInfo = readNutritionalInfo(o);
  if ('reason' in nutritionalInfo) return nutritionalInfo;
  // OD: `images` wins when it holds anything; `image` is read only when it is empty.
  let imageUrl: string | null = null;
  let droppedImages = 0;
  if (has(o, 'images') && !Array.isArray(o.images)) return { reason: 'images must be an array' };
  const images = (o.images as unknown[] | undefined) ?? [];
  if (images.length > 0) {
    const main = images.findIndex((i) => isObject(i) && i.type === 'MAIN');
    const chosen = Math.max(main, 0);
    const read = readImageUrl(images[chosen], `images[${chosen}]`);
    if ('reason' in read) return read;
    imageUrl = read.value;
    droppedImages = images.length - 1;
  } else if (has(o, 'image')) {
    const read = readImageUrl(o.image, 'image');
    if ('reason' in read) return read;
    imageUrl = read.value;
  }
  // Our extension of the Item (D41, D42, D44): extra fields that other Open Delivery software ignores.
  const trade = readTradeFields(o);
  if ('reason' in trade) return trade;
  return {
    ...codes,
    ...trade,
    nutritionalInfo: nutritionalInfo.value,
    imageUrl,
    status: isStatus(o.status) ? o.status : null,
    droppedImages,
  };
}

/** `price` of an offer or option: value exact (D9), currency BRL when given. */
export function readOdPrice(o: Obj): { value: string; discounted: boolean } | { reason: string } {
  if (!has(o, 'price')) return { reason: 'price is missing' };
  const price = o.price;
  if (!isObject(price)) return { reason: 'price must be an object' };
  if (!has(price, 'value')) return { reason: 'price.value is missing' };
  const read = readPrice(price.value, 'price.value');
  if ('reason' in read) return read;
  if (has(price, 'currency') && price.currency !== 'BRL') {
    return {
      reason: `price.currency must be BRL (prices are in Brazilian reais), not ${JSON.stringify(price.currency)}`,
    };
  }
  // Numbers as parsed: an originalValue other than the value is a discount shown to customers.
  return {
    value: read.value,
    discounted: typeof price.originalValue === 'number' && price.originalValue !== price.value,
  };
}
