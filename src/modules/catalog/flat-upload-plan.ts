// D18, pure: the flat ITEM and ITEM_OFFER uploads, which update existing products only.

import type { Static } from 'typebox';
import { eachEntity } from './catalog-entities.js';
import { fieldProblem, has, isObject, type Obj, readId, readItemExtras, readOfferPrice } from './catalog-fields.js';
import type { Discarded, ItemPlan, OfferPlan, UploadEnvelope } from './catalog-plan-types.js';
import { FlatItemOffer } from './catalog-upload-schema.js';

/** D18: ITEM entries update existing products only; name, description and unit are ignored. */
export function planItemUpload(envelope: UploadEnvelope): ItemPlan {
  const discarded: Discarded[] = [];
  const plan: ItemPlan = { entityType: 'ITEM', fatal: null, items: [], discarded };
  const first = envelope.updatedObjects[0];
  if (first !== undefined && (!isObject(first) || readId(first.id) === null)) {
    plan.fatal = 'updatedObjects[0].id is missing: nothing was processed';
    return plan;
  }
  eachEntity(envelope.updatedObjects, { kind: 'items', discarded }, (raw, id, index, drop) => {
    const extras = readItemExtras(raw);
    if ('reason' in extras) return drop(extras.reason);
    plan.items.push({ pdvId: id, index, ...extras });
  });
  return plan;
}

/**
 * D18: ITEM_OFFER entries set price and/or availability of existing products, matched by itemId.
 * `priceOf` reads a given price (ours, or Open Delivery's with its currency, D29); `each` sees
 * every kept entry.
 */
export function planOffers(
  objects: unknown[],
  priceOf: (raw: Obj) => { value: string } | { reason: string } = readOfferPrice,
  each?: (raw: Obj) => void,
): OfferPlan {
  const plan: OfferPlan = { entityType: 'ITEM_OFFER', fatal: null, offers: [], discarded: [] };
  const list = { kind: 'itemOffers', discarded: plan.discarded, key: 'itemId' } as const;
  eachEntity(objects, list, (raw, id, index, drop) => {
    let price: string | null = null;
    if (has(raw, 'price')) {
      const read = priceOf(raw);
      if ('reason' in read) return drop(read.reason);
      price = read.value;
    }
    const problem = fieldProblem(FlatItemOffer, raw, ['status']);
    if (problem) return drop(problem);
    const status = (raw as Static<typeof FlatItemOffer>).status ?? null;
    if (price === null && status === null) return drop('neither price.value nor status is given');
    each?.(raw);
    plan.offers.push({ pdvId: id, index, price, status });
  });
  return plan;
}

export const planOfferUpload = (envelope: UploadEnvelope): OfferPlan => planOffers(envelope.updatedObjects);
