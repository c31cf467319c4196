// Spec 4.3 for entityType MERCHANT, pure: the chain category → itemOffer → item, what is
// discarded and why, and whether removal may happen (the repository applies the plan).

import {
  has,
  type ItemExtras,
  isObject,
  isStatus,
  MAX_NAME,
  MAX_TEXT,
  optionalText,
  readArray,
  readId,
  readItemExtras,
  readPrice,
} from './catalog-fields.js';
import type { Availability, Discarded, MerchantPlan, PlannedProduct, UploadEnvelope } from './catalog-plan-types.js';

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
