// Pure: an Open Delivery `Merchant` (D29; shapes in opendelivery/merchant-schemas.ts) mapped into
// the MerchantPlan of a MERCHANT upload, so the same set-based apply and the same removal rules
// of spec 4.3 run whichever format the POS speaks. The body is read leniently: what the catalog
// uses is checked object by object and a malformed object is discarded with its id, position and
// reason (D17); what the catalog has no place for is listed in `notMapped` (moreInfo too) and
// does not make the sync FAIL. Rules, one row each in od-merchant-plan.test.ts:
//   menus       categories listed by any menu (a menu without categoryId lists all; no menus: all)
//   categories  id and name required; index only at creation (D19); itemOfferId absent = every offer
//   order       within a category, offers by ItemOffer.index, then by their place in itemOfferId
//   itemOffers  id, itemId and price.value required; price.currency, when given, must be BRL
//   items       id, name and unit required; unit KG or UN (L, OZ, LB, GAL have no place)
//   status      a product is UNAVAILABLE when its item or its offer is
//   images      `images` (MAIN first) when not empty, else `image`; one image per product
//   options     option groups and options are not held; items used only as options are no products
// Size: one file, one walk (items → offers → menus → categories → products), read top to bottom like
// planMerchantUpload; the field readers it shares with notifications are in od-entity-fields.ts.
import type { Static } from 'typebox';
import {
  type Availability,
  type Discarded,
  eachEntity,
  fieldProblem,
  has,
  isObject,
  isStatus,
  type MerchantPlan,
  type PlannedProduct,
  plannedProduct,
  readCategory,
  readId,
} from './catalog-upload-plan.js';
import { UploadItem, UploadItemOffer } from './catalog-upload-schema.js';
import { type OdItemFields, readOdItemFields, readOdPrice } from './od-entity-fields.js';

type Obj = Record<string, unknown>;

/** A MerchantPlan plus what the Open Delivery body held that the catalog does not (D29). */
export interface OdMerchantPlan {
  plan: MerchantPlan;
  notMapped: string[];
}

/** Units of an Open Delivery item that a product of this marketplace cannot be sold in. */
const FOREIGN_UNITS = new Set(['L', 'OZ', 'LB', 'GAL']);

/** An OD `Merchant` (GET /v1/merchant) as opposed to our MERCHANT upload body (D29). */
export function looksLikeOdMerchant(body: unknown): boolean {
  return (
    isObject(body) &&
    !has(body, 'entityType') &&
    ['basicInfo', 'menus', 'categories', 'itemOffers', 'items'].some((key) => has(body, key))
  );
}

const isIndex = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= 0;

function arrayOf(root: Obj, key: string): unknown[] | { fatal: string } {
  if (!has(root, key)) return [];
  const value = root[key];
  return Array.isArray(value) ? value : { fatal: `${key} must be an array: nothing was processed` };
}

function emptyPlan(status: Availability): MerchantPlan {
  return {
    entityType: 'MERCHANT',
    fatal: null,
    merchantPdvId: '',
    merchantStatus: status,
    categories: [],
    products: [],
    links: [],
    replace: false,
    removalSkipped: null,
    discarded: [],
  };
}

interface ReadItem extends OdItemFields {
  index: number;
  name: string;
  description: string;
  unit: 'KG' | 'UN';
}

interface ReadOffer {
  index: number;
  itemId: string;
  price: string;
  status: Availability | null;
  /** ItemOffer.index: display order within a category. */
  order: number | null;
}

/**
 * Maps an OD Merchant (or the UpdateMerchant of a MERCHANT notification) into a MerchantPlan.
 * `statusOverride` is a notification's own merchantStatus, which wins over the object's status.
 */
export function planOdMerchant(root: unknown, statusOverride?: Availability): OdMerchantPlan {
  const notMapped: string[] = [];
  const plan = emptyPlan(statusOverride ?? 'AVAILABLE');
  const discarded = plan.discarded;
  const fatal = (reason: string): OdMerchantPlan => {
    plan.fatal = `Open Delivery Merchant: ${reason}`;
    return { plan, notMapped };
  };
  if (!isObject(root)) return fatal('the body must be a JSON object: nothing was processed');
  const storeId = readId(root.id);
  if (storeId === null) return fatal('id is missing: nothing was processed');
  plan.merchantPdvId = storeId;
  if (!statusOverride) {
    if (!isStatus(root.status)) return fatal('status must be AVAILABLE or UNAVAILABLE: nothing was processed');
    plan.merchantStatus = root.status;
  }
  const listKeys = [
    'menus',
    'categories',
    'itemOffers',
    'items',
    'optionGroups',
    'availabilities',
    'services',
  ] as const;
  // Every key is set by the loop below, or the plan returned fatal before `lists` is read.
  const lists = {} as Record<(typeof listKeys)[number], unknown[]>;
  for (const key of listKeys) {
    const list = arrayOf(root, key);
    if ('fatal' in list) return fatal(list.fatal);
    lists[key] = list;
  }

  // What the catalog has no place for: said once each, with how much of it there was.
  if (has(root, 'basicInfo')) {
    notMapped.push(
      "basicInfo: not taken (the merchant's name, document, address and contacts are kept by the platform)",
    );
  }
  if (lists.services.length > 0) {
    notMapped.push(
      `services (${lists.services.length}): not taken (service types, hours and delivery areas are kept by the platform)`,
    );
  }
  if (lists.menus.length > 1)
    notMapped.push(`menus (${lists.menus.length}): merged into the one catalog of the merchant`);

  // Options: counted for the report; the items they name are not products.
  const optionItems = new Set<string>();
  let optionCount = 0;
  for (const group of lists.optionGroups) {
    if (!isObject(group) || !Array.isArray(group.options)) continue;
    for (const option of group.options) {
      optionCount += 1;
      const itemId = isObject(option) ? readId(option.itemId) : null;
      if (itemId !== null) optionItems.add(itemId);
    }
  }

  // Items, by POS id.
  const items = new Map<string, ReadItem>();
  let droppedImages = 0;
  const itemIds = eachEntity(lists.items, { kind: 'items', discarded }, (raw, id, index, drop) => {
    const named = fieldProblem(UploadItem, raw, ['name']);
    if (named) return drop(named);
    // OD: unit is required, and some of its units have no place here.
    if (!has(raw, 'unit')) return drop('unit is missing (KG for a price per kilogram, UN for a price per unit)');
    if (FOREIGN_UNITS.has(raw.unit as string)) {
      return drop(`unit ${raw.unit} cannot be sold here: only KG (price per kilogram) and UN (price per unit)`);
    }
    const problem = fieldProblem(UploadItem, raw, ['unit', 'description']);
    if (problem) return drop(problem);
    const fields = readOdItemFields(raw);
    if ('reason' in fields) return drop(fields.reason);
    droppedImages += fields.droppedImages;
    const item = raw as Static<typeof UploadItem> & { unit: 'KG' | 'UN' };
    items.set(id, { index, name: item.name.trim(), description: item.description ?? '', unit: item.unit, ...fields });
  });

  // Offers, by id.
  const offers = new Map<string, ReadOffer>();
  let discounted = 0;
  let withOptions = 0;
  let timed = 0;
  const offerList = { kind: 'itemOffers', discarded, missing: 'id is missing: no category can reach it' } as const;
  const offerIds = eachEntity(lists.itemOffers, offerList, (raw, id, index, drop) => {
    const itemId = readId(raw.itemId);
    const price = readOdPrice(raw);
    if (itemId === null) return drop('itemId is missing');
    if ('reason' in price) return drop(price.reason);
    const problem = fieldProblem(UploadItemOffer, raw, ['status']);
    if (problem) return drop(problem);
    if (has(raw, 'index') && !isIndex(raw.index)) return drop('index must be a whole number from 0');
    if (!items.has(itemId)) {
      // An id the items list had but discarded: that item's own reason is reported with it.
      return drop(itemIds.has(itemId) ? `item "${itemId}" was discarded` : `itemId "${itemId}" matches no item`);
    }
    if (price.discounted) discounted += 1;
    if (Array.isArray(raw.optionGroupsId) && raw.optionGroupsId.length > 0) withOptions += 1;
    if (Array.isArray(raw.availabilityId) && raw.availabilityId.length > 0) timed += 1;
    offers.set(id, {
      index,
      itemId,
      price: price.value,
      status: isStatus(raw.status) ? raw.status : null,
      order: isIndex(raw.index) ? raw.index : null,
    });
  });

  // Menus: which categories the catalog shows (all of them when no menu narrows it down).
  let listed: Set<string> | null = null;
  for (const [index, menu] of lists.menus.entries()) {
    const menuId = isObject(menu) ? readId(menu.id) : null;
    const drop = (reason: string, path = `menus[${index}]`) =>
      discarded.push({ kind: 'links', id: menuId, index, reason, path });
    if (!isObject(menu)) {
      drop('not an object');
      continue;
    }
    if (!has(menu, 'categoryId')) {
      listed = null;
      break; // OD: a menu without categoryId holds every category
    }
    if (!Array.isArray(menu.categoryId)) {
      drop('categoryId must be an array', `menus[${index}].categoryId`);
      continue;
    }
    listed ??= new Set();
    for (const ref of menu.categoryId) {
      const categoryId = readId(ref);
      if (categoryId !== null) listed.add(categoryId);
    }
  }

  // Categories and the chain category → offer → item.
  const reached = new Map<string, string>(); // offer id → first category reaching it
  const linkKeys = new Set<string>();
  let decorated = 0;
  const categoryList = { kind: 'categories', discarded, owner: 'kept' } as const;
  eachEntity(lists.categories, categoryList, (raw, id, index, drop) => {
    const read = readCategory(raw, id, index);
    if ('reason' in read) return drop(read.reason);
    if (listed !== null && !listed.has(id)) return drop('no menu lists it (menus[].categoryId)');
    if (has(raw, 'image') || has(raw, 'description')) decorated += 1;
    if (Array.isArray(raw.availabilityId) && raw.availabilityId.length > 0) timed += 1;
    plan.categories.push(read.category);
    // OD: a category without itemOfferId holds every offer.
    const refs = read.itemOfferId ?? [...offers.keys()];
    const inCategory: Array<{ offerId: string; offer: ReadOffer; place: number }> = [];
    refs.forEach((ref, place) => {
      const offerId = readId(ref);
      const offer = offerId === null ? undefined : offers.get(offerId);
      if (offerId !== null && offer) inCategory.push({ offerId, offer, place });
      else if (offerId === null || !offerIds.has(offerId)) {
        // A reference to nothing at all; references to discarded offers were reported with the offer.
        discarded.push({
          kind: 'links',
          id,
          index,
          path: `categories[${index}].itemOfferId[${place}]`,
          reason: offerId === null ? 'not an id' : `"${offerId}" matches no itemOffer`,
        });
      }
    });
    inCategory.sort((a, b) => (a.offer.order ?? Infinity) - (b.offer.order ?? Infinity) || a.place - b.place);
    let position = 0;
    for (const { offerId, offer } of inCategory) {
      if (!reached.has(offerId)) reached.set(offerId, id);
      const key = `${id}\u0000${offer.itemId}`;
      if (linkKeys.has(key)) continue;
      linkKeys.add(key);
      plan.links.push({ categoryPdvId: id, productPdvId: offer.itemId, position: position++ });
    }
  });

  // Products: each reached item once, priced by its first reached offer (offers in body order).
  const planned = new Map<string, PlannedProduct>();
  let repriced = 0;
  for (const [offerId, offer] of offers) {
    if (!reached.has(offerId)) {
      discarded.push({ kind: 'itemOffers', id: offerId, index: offer.index, reason: 'no listed category reaches it' });
      continue;
    }
    const item = items.get(offer.itemId) as ReadItem;
    const status: Availability =
      offer.status === 'UNAVAILABLE' || item.status === 'UNAVAILABLE' ? 'UNAVAILABLE' : 'AVAILABLE';
    const earlier = planned.get(offer.itemId);
    if (earlier) {
      if (earlier.price !== offer.price || earlier.status !== status) repriced += 1;
      continue;
    }
    planned.set(offer.itemId, plannedProduct(offer.itemId, item, offer.price, status));
  }
  let optionOnly = 0;
  for (const [itemId, item] of items) {
    if (planned.has(itemId)) continue;
    if (optionItems.has(itemId)) optionOnly += 1;
    else
      discarded.push({
        kind: 'items',
        id: itemId,
        index: item.index,
        reason: 'no itemOffer in a listed category reaches it',
      });
  }
  plan.products = [...planned.values()];
  discarded.sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.index - b.index);

  if (lists.optionGroups.length > 0 || withOptions > 0) {
    notMapped.push(
      `optionGroups (${lists.optionGroups.length}, ${optionCount} options, used by ${withOptions} itemOffers): not held (the catalog has no options; customers cannot choose them yet)`,
    );
  }
  if (optionOnly > 0) notMapped.push(`items used only as options (${optionOnly}): not products`);
  if (lists.availabilities.length > 0 || timed > 0) {
    notMapped.push(
      `availabilities (${lists.availabilities.length}, used by ${timed} categories and itemOffers): time windows are not held; status AVAILABLE/UNAVAILABLE is`,
    );
  }
  if (discounted > 0) {
    notMapped.push(
      `price.originalValue (${discounted} itemOffers with a discount): only price.value, the price charged, is kept`,
    );
  }
  if (repriced > 0) {
    notMapped.push(
      `itemOffers of an item another offer already priced (${repriced}, at another price or status): a product has one price; the first offer's is kept`,
    );
  }
  if (droppedImages > 0)
    notMapped.push(`item images beyond the first (${droppedImages}): one image per product is kept (MAIN first)`);
  if (decorated > 0) notMapped.push(`category images and descriptions (${decorated} categories): not held`);

  // Spec 4.3 removal rules: the menu is the whole catalog (onlyAddProducts false).
  if (discarded.length > 0) plan.removalSkipped = 'the menu had discarded objects';
  else if (plan.categories.length === 0) plan.removalSkipped = 'the menu had no valid category';
  else plan.replace = true;
  return { plan, notMapped };
}

const KIND_ORDER: Record<Discarded['kind'], number> = {
  updatedObjects: 0,
  links: 1,
  categories: 2,
  itemOffers: 3,
  items: 4,
};
