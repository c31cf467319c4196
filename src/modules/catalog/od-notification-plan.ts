// Pure: Open Delivery's change notification, `POST /v1/merchantUpdate` (OD `menuUpdated`, D29).
// checkOdNotification sorts a body into OD's four uses (the route answers 400 naming the field
// otherwise); planOdNotification reads the `updatedObjects` of one entityType into the plans the
// catalog applies, leniently and object by object as the upload does (D17, D18). Rules, one row
// each in od-notification-plan.test.ts:
//   MERCHANT     updatedObjects[0] is a whole menu (od-merchant-plan.ts); the others are discarded
//   ITEM         existing products by id: externalCode, ean, serving, nutritionalInfo, image, status;
//                name, description and unit are set only at creation (spec 4.3) and stay
//   ITEM_OFFER   existing products by itemId: price.value (BRL) and/or status
//   CATEGORY     existing categories by id: name and status (D19); membership and order change
//                with the whole menu
//   BASIC_INFO, SERVICE, MENU, OPTION_GROUP, OPTION, AVAILABILITY: accepted, not applied, said so

import type { Static } from 'typebox';
import type { OdEntityType } from '../opendelivery/index.js';
import {
  type Availability,
  type Discarded,
  discardBeyondFirst,
  eachEntity,
  fieldProblem,
  type ItemPlan,
  type OfferPlan,
  planOffers,
} from './catalog-upload-plan.js';
import { UploadCategory } from './catalog-upload-schema.js';
import { readOdItemFields, readOdPrice } from './od-entity-fields.js';
import { type OdMerchantPlan, planOdMerchant } from './od-merchant-plan.js';

/** The body after the route's schema: each field typed, presence not cross-checked yet. */
export interface OdNotificationBody {
  merchantStatus?: Availability;
  entityType?: OdEntityType;
  updatedObjects?: unknown[];
}

export type OdNotificationUse =
  | { use: 'pull' }
  | { use: 'notify'; merchantStatus: Availability | null; entityType: OdEntityType | null; updatedObjects: unknown[] };

/** OD's four uses; anything else is a 400 whose title names the field. */
export function checkOdNotification(body: OdNotificationBody): OdNotificationUse | { reason: string } {
  const { merchantStatus, entityType, updatedObjects } = body;
  if (entityType === undefined && updatedObjects !== undefined) {
    return { reason: 'entityType is required when updatedObjects is given' };
  }
  if (entityType !== undefined && updatedObjects === undefined) {
    return { reason: 'updatedObjects is required when entityType is given' };
  }
  if (entityType !== undefined && updatedObjects?.length === 0) {
    return { reason: 'updatedObjects must not be empty when entityType is given' };
  }
  if (merchantStatus === undefined && entityType === undefined) return { use: 'pull' };
  return {
    use: 'notify',
    merchantStatus: merchantStatus ?? null,
    entityType: entityType ?? null,
    updatedObjects: updatedObjects ?? [],
  };
}

export interface CategoryUpdate {
  pdvId: string;
  index: number;
  name: string;
  status: Availability | null;
}

export type OdNotificationPlan =
  | { kind: 'merchant'; merchant: OdMerchantPlan }
  | { kind: 'items'; items: ItemPlan; statuses: OfferPlan; notMapped: string[] }
  | { kind: 'offers'; offers: OfferPlan; notMapped: string[] }
  | { kind: 'categories'; categories: CategoryUpdate[]; discarded: Discarded[]; notMapped: string[] }
  | { kind: 'not-applied'; notMapped: string[] };

/** Why each entity type the catalog has no place for is not applied (D29). */
const NOT_APPLIED: Partial<Record<OdEntityType, string>> = {
  BASIC_INFO: "the merchant's name, document, address and contacts are kept by the platform",
  SERVICE: 'service types, hours and delivery areas are kept by the platform',
  MENU: 'the catalog is one menu per merchant; categories change with CATEGORY or with the whole menu',
  OPTION_GROUP: 'the catalog holds no options',
  OPTION: 'the catalog holds no options',
  AVAILABILITY: 'time windows are not held; use the status of the item offer, item or category',
};

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

function planItems(objects: unknown[]): OdNotificationPlan {
  const discarded: Discarded[] = [];
  const items: ItemPlan = { entityType: 'ITEM', fatal: null, items: [], discarded };
  const statuses: OfferPlan = { entityType: 'ITEM_OFFER', fatal: null, offers: [], discarded: [] };
  let dropped = 0;
  eachEntity(objects, { kind: 'items', discarded }, (raw, id, index, drop) => {
    const fields = readOdItemFields(raw);
    if ('reason' in fields) return drop(fields.reason);
    dropped += fields.droppedImages;
    const { status: _status, droppedImages: _dropped, ...extras } = fields;
    items.items.push({ pdvId: id, index, ...extras });
    if (fields.status) statuses.offers.push({ pdvId: id, index, price: null, status: fields.status });
  });
  const notMapped = [
    'name, description and unit: kept as registered (spec 4.3 sets them only when a product is created)',
  ];
  if (dropped > 0)
    notMapped.push(`item images beyond the first (${dropped}): one image per product is kept (MAIN first)`);
  return { kind: 'items', items, statuses, notMapped };
}

function planOdOffers(objects: unknown[]): OdNotificationPlan {
  let withOptions = 0;
  const offers = planOffers(objects, readOdPrice, (raw) => {
    if (Array.isArray(raw.optionGroupsId) && raw.optionGroupsId.length > 0) withOptions += 1;
  });
  const notMapped: string[] = [];
  if (withOptions > 0)
    notMapped.push(`optionGroupsId (${withOptions} itemOffers): not held (the catalog has no options)`);
  return { kind: 'offers', offers, notMapped };
}

function planCategories(objects: unknown[]): OdNotificationPlan {
  const discarded: Discarded[] = [];
  const categories: CategoryUpdate[] = [];
  eachEntity(objects, { kind: 'categories', discarded }, (raw, id, index, drop) => {
    const problem = fieldProblem(UploadCategory, raw, ['name', 'status']);
    if (problem) return drop(problem);
    const category = raw as Static<typeof UploadCategory>;
    categories.push({ pdvId: id, index, name: category.name.trim(), status: category.status ?? null });
  });
  return {
    kind: 'categories',
    categories,
    discarded,
    notMapped: [
      'itemOfferId, index, image and description of a CATEGORY update: not applied (which products a category holds, and in what order, change with the whole menu: POST /v1/merchantUpdate with an empty body)',
    ],
  };
}

export function planOdNotification(
  entityType: OdEntityType,
  updatedObjects: unknown[],
  merchantStatus: Availability | null,
): OdNotificationPlan {
  switch (entityType) {
    case 'MERCHANT': {
      const merchant = planOdMerchant(updatedObjects[0], merchantStatus ?? undefined);
      discardBeyondFirst(updatedObjects, merchant.plan.discarded);
      if (updatedObjects.length > 1 && merchant.plan.replace) {
        merchant.plan.replace = false;
        merchant.plan.removalSkipped = 'the notification had discarded objects';
      }
      return { kind: 'merchant', merchant };
    }
    case 'ITEM':
      return planItems(updatedObjects);
    case 'ITEM_OFFER':
      return planOdOffers(updatedObjects);
    case 'CATEGORY':
      return planCategories(updatedObjects);
    default:
      return {
        kind: 'not-applied',
        notMapped: [
          `${entityType} (${plural(updatedObjects.length, 'object')}): accepted, not applied (${NOT_APPLIED[entityType]})`,
        ],
      };
  }
}
