// Pure part of catalog processing (spec 4.3, D17, D18, D19): reads an accepted upload, discards
// and reports what is malformed or unreachable, and produces the set of rows to write. No SQL
// here: the repository applies a plan with a fixed number of set-based statements.
import { Decimal } from '../../lib/money.js';

export type EntityType = 'MERCHANT' | 'ITEM' | 'ITEM_OFFER';
export type Availability = 'AVAILABLE' | 'UNAVAILABLE';

/** What an accepted upload holds (the route checked only this envelope). */
export interface UploadEnvelope {
  entityType: EntityType;
  merchantStatus?: unknown;
  onlyAddProducts?: boolean;
  updatedObjects: unknown[];
}

export type DiscardKind = 'updatedObjects' | 'categories' | 'itemOffers' | 'items' | 'links';

export interface Discarded {
  kind: DiscardKind;
  /** The object's POS id when it has a usable one. */
  id: string | null;
  /** Position in its array of the upload. */
  index: number;
  reason: string;
}

export interface PlannedCategory {
  pdvId: string;
  name: string;
  /** Used only when the category is created (D19). */
  index: number;
  status: Availability;
}

export interface PlannedProduct {
  pdvId: string;
  // creation only (spec 4.3)
  name: string;
  description: string;
  unit: 'KG' | 'UN';
  // from the offer, every upload
  price: string;
  status: Availability;
  // updated when given; kept when absent
  externalCode: string | null;
  ean: string | null;
  serving: number | null;
  nutritionalInfo: string | null;
  imageUrl: string | null;
}

export interface PlannedLink {
  categoryPdvId: string;
  productPdvId: string;
  position: number;
}

export interface MerchantPlan {
  entityType: 'MERCHANT';
  /** Set when nothing may be processed at all (spec 3.2: first entry without id). */
  fatal: string | null;
  merchantPdvId: string;
  merchantStatus: Availability;
  categories: PlannedCategory[];
  products: PlannedProduct[];
  links: PlannedLink[];
  /** onlyAddProducts false, nothing discarded and at least one valid category (spec 4.3 removal rules). */
  replace: boolean;
  /** Why removal did not happen, when onlyAddProducts was false. */
  removalSkipped: string | null;
  discarded: Discarded[];
}

export interface ItemUpdate {
  pdvId: string;
  index: number;
  externalCode: string | null;
  ean: string | null;
  serving: number | null;
  nutritionalInfo: string | null;
  imageUrl: string | null;
}

export interface ItemPlan {
  entityType: 'ITEM';
  fatal: string | null;
  items: ItemUpdate[];
  discarded: Discarded[];
}

export interface OfferUpdate {
  pdvId: string;
  index: number;
  price: string | null;
  status: Availability | null;
}

export interface OfferPlan {
  entityType: 'ITEM_OFFER';
  fatal: null;
  offers: OfferUpdate[];
  discarded: Discarded[];
}

export type UploadPlan = MerchantPlan | ItemPlan | OfferPlan;

const MAX_ID = 255;
const MAX_NAME = 500;
const MAX_TEXT = 10_000;
const MAX_URL = 2048;
const MAX_PRICE = new Decimal('9999999999.9999');
const PLAIN_PRICE = /^\d{1,10}(\.\d{1,4})?$/;

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, key: string) => Object.hasOwn(o, key) && o[key] !== undefined && o[key] !== null;
const isStatus = (v: unknown): v is Availability => v === 'AVAILABLE' || v === 'UNAVAILABLE';

/** A usable POS id: a non-blank string (or a finite number, which POS systems do send) of sane length. */
function readId(v: unknown): string | null {
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
function readServing(v: unknown): number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 1_000_000 ? v : 0;
}

/** Optional string field: absent → null (keep), a string → trimmed value, anything else → a reason. */
function optionalText(o: Obj, key: string, max: number): { value: string | null } | { reason: string } {
  if (!has(o, key)) return { value: null };
  const v = o[key];
  if (typeof v !== 'string') return { reason: `${key} must be a string` };
  if (v.length > max) return { reason: `${key} is longer than ${max} characters` };
  return { value: v };
}

interface ItemExtras {
  externalCode: string | null;
  ean: string | null;
  serving: number | null;
  nutritionalInfo: string | null;
  imageUrl: string | null;
}

/** Fields an item carries in both MERCHANT and ITEM uploads (D18). */
function readItemExtras(o: Obj): ItemExtras | { reason: string } {
  const externalCode = optionalText(o, 'externalCode', MAX_ID);
  if ('reason' in externalCode) return externalCode;
  const ean = optionalText(o, 'ean', MAX_ID);
  if ('reason' in ean) return ean;
  let nutritionalInfo: string | null = null;
  if (has(o, 'nutritionalInfo')) {
    if (!isObject(o.nutritionalInfo)) return { reason: 'nutritionalInfo must be an object' };
    nutritionalInfo = JSON.stringify(o.nutritionalInfo);
  }
  let imageUrl: string | null = null;
  if (has(o, 'image')) {
    const image = o.image;
    if (!isObject(image) || typeof image.url !== 'string' || !image.url.trim()) {
      return { reason: 'image.url must be a non-empty string' };
    }
    if (image.url.length > MAX_URL) return { reason: `image.url is longer than ${MAX_URL} characters` };
    imageUrl = image.url.trim();
  }
  return {
    externalCode: externalCode.value,
    ean: ean.value,
    serving: has(o, 'serving') ? readServing(o.serving) : null,
    nutritionalInfo,
    imageUrl,
  };
}

function readArray(o: Obj, key: string, discarded: Discarded[]): unknown[] {
  if (!has(o, key)) return [];
  if (Array.isArray(o[key])) return o[key] as unknown[];
  discarded.push({ kind: 'updatedObjects', id: null, index: 0, reason: `updatedObjects[0].${key} must be an array` });
  return [];
}

/** Spec 4.3 for entityType MERCHANT: the chain category → itemOffer → item, and the removal rules. */
export function planMerchantUpload(envelope: UploadEnvelope): MerchantPlan {
  const discarded: Discarded[] = [];
  const plan: MerchantPlan = {
    entityType: 'MERCHANT',
    fatal: null,
    merchantPdvId: '',
    merchantStatus: isStatus(envelope.merchantStatus) ? envelope.merchantStatus : 'AVAILABLE',
    categories: [],
    products: [],
    links: [],
    replace: false,
    removalSkipped: null,
    discarded,
  };
  const root = envelope.updatedObjects[0];
  const rootId = isObject(root) ? readId(root.id) : null;
  if (!isObject(root) || rootId === null) {
    // Spec 3.2: nothing at all is processed.
    plan.fatal = 'updatedObjects[0].id is missing: nothing was processed';
    return plan;
  }
  plan.merchantPdvId = rootId;
  for (let i = 1; i < envelope.updatedObjects.length; i++) {
    discarded.push({
      kind: 'updatedObjects',
      id: null,
      index: i,
      reason: 'only updatedObjects[0] is read when entityType is MERCHANT',
    });
  }

  // Items, by POS id.
  const items = new Map<string, { index: number; name: string; description: string; unit: 'KG' | 'UN' } & ItemExtras>();
  const discardedItems = new Set<string>();
  for (const [index, raw] of readArray(root, 'items', discarded).entries()) {
    const id = isObject(raw) ? readId(raw.id) : null;
    const drop = (reason: string) => {
      discarded.push({ kind: 'items', id, index, reason });
      if (id !== null && !items.has(id)) discardedItems.add(id);
    };
    if (!isObject(raw)) {
      drop('not an object');
      continue;
    }
    if (id === null) {
      drop('id is missing');
      continue;
    }
    if (items.has(id) || discardedItems.has(id)) {
      drop('duplicate id');
      continue;
    }
    if (typeof raw.name !== 'string' || !raw.name.trim()) {
      drop('name is missing');
      continue;
    }
    if (raw.name.length > MAX_NAME) {
      drop(`name is longer than ${MAX_NAME} characters`);
      continue;
    }
    const description = optionalText(raw, 'description', MAX_TEXT);
    if ('reason' in description) {
      drop(description.reason);
      continue;
    }
    if (has(raw, 'unit') && raw.unit !== 'KG' && raw.unit !== 'UN') {
      drop('unit must be KG or UN');
      continue;
    }
    const extras = readItemExtras(raw);
    if ('reason' in extras) {
      drop(extras.reason);
      continue;
    }
    items.set(id, {
      index,
      name: raw.name.trim(),
      description: description.value ?? '',
      unit: raw.unit === 'KG' ? 'KG' : 'UN',
      ...extras,
    });
  }

  // Offers, by id; an offer whose item is unusable is dropped with its reason.
  const offers = new Map<string, { index: number; itemId: string; price: string; status: Availability }>();
  const knownOfferIds = new Set<string>();
  for (const [index, raw] of readArray(root, 'itemOffers', discarded).entries()) {
    const id = isObject(raw) ? readId(raw.id) : null;
    const drop = (reason: string) => discarded.push({ kind: 'itemOffers', id, index, reason });
    if (!isObject(raw)) {
      drop('not an object');
      continue;
    }
    if (id === null) {
      drop('id is missing: no category can reach it');
      continue;
    }
    if (knownOfferIds.has(id)) {
      drop('duplicate id');
      continue;
    }
    knownOfferIds.add(id);
    const itemId = readId(raw.itemId);
    if (itemId === null) {
      drop('itemId is missing');
      continue;
    }
    if (!isObject(raw.price) || !has(raw.price, 'value')) {
      drop('price.value is missing');
      continue;
    }
    const price = readPrice(raw.price.value, 'price.value');
    if ('reason' in price) {
      drop(price.reason);
      continue;
    }
    if (has(raw, 'status') && !isStatus(raw.status)) {
      drop('status must be AVAILABLE or UNAVAILABLE');
      continue;
    }
    if (!items.has(itemId)) {
      drop(discardedItems.has(itemId) ? `item "${itemId}" was discarded` : `itemId "${itemId}" matches no item`);
      continue;
    }
    offers.set(id, { index, itemId, price: price.value, status: isStatus(raw.status) ? raw.status : 'AVAILABLE' });
  }

  // Categories and the chain.
  const categoryIds = new Set<string>();
  const reachedOffers = new Set<string>();
  const linkKeys = new Set<string>();
  for (const [index, raw] of readArray(root, 'categories', discarded).entries()) {
    const id = isObject(raw) ? readId(raw.id) : null;
    const drop = (reason: string) => discarded.push({ kind: 'categories', id, index, reason });
    if (!isObject(raw)) {
      drop('not an object');
      continue;
    }
    if (id === null) {
      drop('id is missing');
      continue;
    }
    if (categoryIds.has(id)) {
      drop('duplicate id');
      continue;
    }
    if (typeof raw.name !== 'string' || !raw.name.trim()) {
      drop('name is missing');
      continue;
    }
    if (raw.name.length > MAX_NAME) {
      drop(`name is longer than ${MAX_NAME} characters`);
      continue;
    }
    if (has(raw, 'status') && !isStatus(raw.status)) {
      drop('status must be AVAILABLE or UNAVAILABLE');
      continue;
    }
    if (has(raw, 'index') && !(Number.isInteger(raw.index) && (raw.index as number) >= 0)) {
      drop('index must be a whole number from 0');
      continue;
    }
    if (has(raw, 'itemOfferId') && !Array.isArray(raw.itemOfferId)) {
      drop('itemOfferId must be an array');
      continue;
    }
    categoryIds.add(id);
    plan.categories.push({
      pdvId: id,
      name: raw.name.trim(),
      index: has(raw, 'index') ? (raw.index as number) : index,
      status: isStatus(raw.status) ? raw.status : 'AVAILABLE',
    });
    const refs = (raw.itemOfferId as unknown[] | undefined) ?? [];
    refs.forEach((ref, position) => {
      const offerId = readId(ref);
      const offer = offerId === null ? undefined : offers.get(offerId);
      if (offerId !== null && offer) {
        reachedOffers.add(offerId);
        const key = `${id}\u0000${offer.itemId}`;
        if (!linkKeys.has(key)) {
          linkKeys.add(key);
          plan.links.push({ categoryPdvId: id, productPdvId: offer.itemId, position });
        }
      } else if (offerId === null || !knownOfferIds.has(offerId)) {
        // A reference to nothing at all; references to discarded offers were reported with the offer.
        discarded.push({
          kind: 'links',
          id,
          index,
          reason: `itemOfferId[${position}] ${offerId === null ? 'is not an id' : `"${offerId}" matches no itemOffer`}`,
        });
      }
    });
  }

  // Products: each reached item once; price and availability from its first reached offer.
  const planned = new Map<string, PlannedProduct>();
  for (const [offerId, offer] of offers) {
    if (!reachedOffers.has(offerId)) {
      discarded.push({ kind: 'itemOffers', id: offerId, index: offer.index, reason: 'no valid category reaches it' });
      continue;
    }
    if (planned.has(offer.itemId)) continue;
    const item = items.get(offer.itemId);
    if (!item) continue;
    planned.set(offer.itemId, {
      pdvId: offer.itemId,
      name: item.name,
      description: item.description,
      unit: item.unit,
      price: offer.price,
      status: offer.status,
      externalCode: item.externalCode,
      ean: item.ean,
      serving: item.serving,
      nutritionalInfo: item.nutritionalInfo,
      imageUrl: item.imageUrl,
    });
  }
  for (const [itemId, item] of items) {
    if (!planned.has(itemId)) {
      discarded.push({
        kind: 'items',
        id: itemId,
        index: item.index,
        reason: 'no itemOffer in a valid category reaches it',
      });
    }
  }
  plan.products = [...planned.values()];

  if (envelope.onlyAddProducts !== true) {
    if (discarded.length > 0) plan.removalSkipped = 'the upload had discarded objects';
    else if (plan.categories.length === 0) plan.removalSkipped = 'the upload had no valid category';
    else plan.replace = true;
  }
  return plan;
}

/**
 * The flat shapes (D18) share one walk: entries that are not objects, lack their key or repeat
 * an earlier key are discarded with a reason; `take` sees the rest and may discard too.
 */
function walkFlatEntries(
  entries: unknown[],
  key: 'id' | 'itemId',
  kind: DiscardKind,
  discarded: Discarded[],
  take: (raw: Record<string, unknown>, id: string, index: number, drop: (reason: string) => void) => void,
): void {
  const seen = new Set<string>();
  for (const [index, raw] of entries.entries()) {
    const id = isObject(raw) ? readId(raw[key]) : null;
    const drop = (reason: string) => {
      discarded.push({ kind, id, index, reason });
    };
    if (!isObject(raw)) drop('not an object');
    else if (id === null) drop(`${key} is missing`);
    else if (seen.has(id)) drop(`duplicate ${key}`);
    else {
      seen.add(id);
      take(raw, id, index, drop);
    }
  }
}

/** D18: ITEM entries update existing products only; name, description and unit are ignored. */
export function planItemUpload(envelope: UploadEnvelope): ItemPlan {
  const discarded: Discarded[] = [];
  const plan: ItemPlan = { entityType: 'ITEM', fatal: null, items: [], discarded };
  const first = envelope.updatedObjects[0];
  if (first !== undefined && (!isObject(first) || readId(first.id) === null)) {
    plan.fatal = 'updatedObjects[0].id is missing: nothing was processed';
    return plan;
  }
  walkFlatEntries(envelope.updatedObjects, 'id', 'items', discarded, (raw, id, index, drop) => {
    const extras = readItemExtras(raw);
    if ('reason' in extras) return drop(extras.reason);
    plan.items.push({ pdvId: id, index, ...extras });
  });
  return plan;
}

/** D18: ITEM_OFFER entries set price and/or availability of existing products, matched by itemId. */
export function planOfferUpload(envelope: UploadEnvelope): OfferPlan {
  const discarded: Discarded[] = [];
  const plan: OfferPlan = { entityType: 'ITEM_OFFER', fatal: null, offers: [], discarded };
  walkFlatEntries(envelope.updatedObjects, 'itemId', 'itemOffers', discarded, (raw, id, index, drop) => {
    let price: string | null = null;
    if (has(raw, 'price')) {
      if (!isObject(raw.price) || !has(raw.price, 'value')) return drop('price.value is missing');
      const read = readPrice(raw.price.value, 'price.value');
      if ('reason' in read) return drop(read.reason);
      price = read.value;
    }
    if (has(raw, 'status') && !isStatus(raw.status)) return drop('status must be AVAILABLE or UNAVAILABLE');
    const status = isStatus(raw.status) ? raw.status : null;
    if (price === null && status === null) return drop('neither price.value nor status is given');
    plan.offers.push({ pdvId: id, index, price, status });
  });
  return plan;
}

export function planUpload(envelope: UploadEnvelope): UploadPlan {
  switch (envelope.entityType) {
    case 'MERCHANT':
      return planMerchantUpload(envelope);
    case 'ITEM':
      return planItemUpload(envelope);
    case 'ITEM_OFFER':
      return planOfferUpload(envelope);
  }
}

// ---- Outcome (D17) ----

export interface KindCounts {
  created: number;
  updated: number;
  removed: number;
}

export interface SyncOutcome {
  status: 'SUCCESS' | 'FAIL';
  moreInfo: string;
  details: {
    entityType: EntityType | null;
    counts: { categories: KindCounts; products: KindCounts; discarded: Record<DiscardKind, number> };
    discarded: Discarded[];
    removalSkipped: string | null;
    problem: string | null;
  };
}

export const emptyCounts = (): KindCounts => ({ created: 0, updated: 0, removed: 0 });

/** How many discarded objects moreInfo lists one by one; the structured details keep them all. */
const LISTED = 200;
const KIND_LABEL: Record<DiscardKind, string> = {
  updatedObjects: 'updatedObjects',
  categories: 'category',
  itemOffers: 'itemOffer',
  items: 'item',
  links: 'category link',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** D17: SUCCESS only when nothing was discarded; moreInfo is for a person to read. */
export function describeOutcome(
  entityType: EntityType | null,
  counts: { categories: KindCounts; products: KindCounts },
  discarded: Discarded[],
  removalSkipped: string | null,
  problem: string | null = null,
): SyncOutcome {
  const byKind: Record<DiscardKind, number> = { updatedObjects: 0, categories: 0, itemOffers: 0, items: 0, links: 0 };
  for (const d of discarded) byKind[d.kind] += 1;
  const parts: string[] = [];
  if (problem) parts.push(problem);
  else {
    const c = counts.categories;
    const p = counts.products;
    if (entityType === 'MERCHANT') {
      parts.push(`Categories: ${c.created} created, ${c.updated} updated, ${c.removed} removed.`);
    }
    parts.push(`Products: ${p.created} created, ${p.updated} updated, ${p.removed} removed.`);
    if (discarded.length === 0) parts.push('Discarded: none.');
    else {
      const kinds = (Object.keys(byKind) as DiscardKind[]).filter((k) => byKind[k] > 0);
      parts.push(`Discarded: ${discarded.length} (${kinds.map((k) => `${k} ${byKind[k]}`).join(', ')}).`);
      const listed = discarded.slice(0, LISTED).map((d) => {
        const name = d.id !== null ? `${KIND_LABEL[d.kind]} "${d.id}"` : KIND_LABEL[d.kind];
        const where =
          d.kind === 'updatedObjects'
            ? `updatedObjects[${d.index}]`
            : `${d.kind === 'links' ? 'categories' : d.kind}[${d.index}]`;
        return `${name} (${where}): ${d.reason}`;
      });
      parts.push(
        `${listed.join('; ')}${discarded.length > LISTED ? `; … and ${plural(discarded.length - LISTED, 'more')}` : ''}.`,
      );
    }
    if (removalSkipped) parts.push(`Nothing was removed: ${removalSkipped}.`);
  }
  return {
    status: problem || discarded.length > 0 ? 'FAIL' : 'SUCCESS',
    moreInfo: parts.join(' '),
    details: { entityType, counts: { ...counts, discarded: byKind }, discarded, removalSkipped, problem },
  };
}
