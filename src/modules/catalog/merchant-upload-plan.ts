// Spec 4.3 for entityType MERCHANT, pure: the chain category → itemOffer → item, what is
// discarded and why, and whether removal may happen (the repository applies the plan).

import type { Static } from 'typebox';
import { discardBeyondFirst, eachEntity } from './catalog-entities.js';
import {
  CREATION_FIELDS,
  fieldProblem,
  type ItemExtras,
  isObject,
  isStatus,
  plannedProduct,
  readArray,
  readCategory,
  readId,
  readItemExtras,
  readOfferPrice,
} from './catalog-fields.js';
import type { Availability, Discarded, MerchantPlan, PlannedProduct, UploadEnvelope } from './catalog-plan-types.js';
import { UploadItem, UploadItemOffer } from './catalog-upload-schema.js';

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
  discardBeyondFirst(envelope.updatedObjects, discarded);

  // Items, by POS id.
  const items = new Map<string, { index: number; name: string; description: string; unit: 'KG' | 'UN' } & ItemExtras>();
  const itemIds = eachEntity(
    readArray(root, 'items', discarded),
    { kind: 'items', discarded },
    (raw, id, index, drop) => {
      const problem = fieldProblem(UploadItem, raw, CREATION_FIELDS);
      if (problem) return drop(problem);
      const extras = readItemExtras(raw);
      if ('reason' in extras) return drop(extras.reason);
      const item = raw as Partial<Static<typeof UploadItem>>;
      items.set(id, {
        index,
        name: (item.name ?? '').trim(),
        description: item.description ?? '',
        unit: item.unit === 'KG' ? 'KG' : 'UN',
        ...extras,
      });
    },
  );

  // Offers, by id; an offer whose item is unusable is dropped with its reason.
  const offers = new Map<string, { index: number; itemId: string; price: string; status: Availability }>();
  const offerList = { kind: 'itemOffers', discarded, missing: 'id is missing: no category can reach it' } as const;
  const offerIds = eachEntity(readArray(root, 'itemOffers', discarded), offerList, (raw, id, index, drop) => {
    const itemId = readId(raw.itemId);
    if (itemId === null) return drop('itemId is missing');
    const price = readOfferPrice(raw);
    if ('reason' in price) return drop(price.reason);
    const problem = fieldProblem(UploadItemOffer, raw, ['status']);
    if (problem) return drop(problem);
    if (!items.has(itemId)) {
      // An id the items list had but discarded: that item's own reason is reported with it.
      return drop(itemIds.has(itemId) ? `item "${itemId}" was discarded` : `itemId "${itemId}" matches no item`);
    }
    offers.set(id, { index, itemId, price: price.value, status: isStatus(raw.status) ? raw.status : 'AVAILABLE' });
  });

  // Categories and the chain.
  const reachedOffers = new Set<string>();
  const linkKeys = new Set<string>();
  const categoryList = { kind: 'categories', discarded, owner: 'kept' } as const;
  eachEntity(readArray(root, 'categories', discarded), categoryList, (raw, id, index, drop) => {
    const read = readCategory(raw, id, index);
    if ('reason' in read) return drop(read.reason);
    plan.categories.push(read.category);
    const refs = read.itemOfferId ?? [];
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
      } else if (offerId === null || !offerIds.has(offerId)) {
        // A reference to nothing at all; references to discarded offers were reported with the offer.
        discarded.push({
          kind: 'links',
          id,
          index,
          reason: `itemOfferId[${position}] ${offerId === null ? 'is not an id' : `"${offerId}" matches no itemOffer`}`,
        });
      }
    });
  });

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
    planned.set(offer.itemId, plannedProduct(offer.itemId, item, offer.price, offer.status));
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
