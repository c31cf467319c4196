// D18, pure: the flat ITEM and ITEM_OFFER uploads, which update existing products only.

import { eachEntity } from './catalog-entities.js';
import { has, isObject, isStatus, readId, readItemExtras, readPrice } from './catalog-fields.js';
import type { Discarded, ItemPlan, OfferPlan, UploadEnvelope } from './catalog-plan-types.js';

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

/** D18: ITEM_OFFER entries set price and/or availability of existing products, matched by itemId. */
export function planOfferUpload(envelope: UploadEnvelope): OfferPlan {
  const discarded: Discarded[] = [];
  const plan: OfferPlan = { entityType: 'ITEM_OFFER', fatal: null, offers: [], discarded };
  eachEntity(envelope.updatedObjects, { kind: 'itemOffers', discarded, key: 'itemId' }, (raw, id, index, drop) => {
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
