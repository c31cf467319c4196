// The shapes of catalog processing (spec 4.3, D17, D18, D19): what an accepted upload holds, what
// is discarded and why, and the plans the repository applies set-based.

import type { Static } from 'typebox';
import type { ENTITY_TYPES, UploadEnvelope as UploadEnvelopeSchema } from './catalog-upload-schema.js';
import type { TradeFields } from './product-trade-fields.js';

export type EntityType = (typeof ENTITY_TYPES)[number];
export type Availability = 'AVAILABLE' | 'UNAVAILABLE';

/** What an accepted upload holds (the route checked only this envelope). */
export type UploadEnvelope = Static<typeof UploadEnvelopeSchema>;

export type DiscardKind = 'updatedObjects' | 'categories' | 'itemOffers' | 'items' | 'links';

export interface Discarded {
  kind: DiscardKind;
  /** The object's POS id when it has a usable one. */
  id: string | null;
  /** Position in its array of the upload. */
  index: number;
  reason: string;
  /** Where it is when not `<kind>[index]` (Open Delivery menus and references, e.g. `menus[0].categoryId[2]`). */
  path?: string;
}

export interface PlannedCategory {
  pdvId: string;
  name: string;
  /** Used only when the category is created (D19). */
  index: number;
  status: Availability;
}

/** An item's fields that every upload updates when given and keeps when absent (D18, D41, D42, D44). */
export interface ItemExtras extends TradeFields {
  externalCode: string | null;
  ean: string | null;
  serving: number | null;
  nutritionalInfo: string | null;
  imageUrl: string | null;
}

export interface PlannedProduct extends ItemExtras {
  pdvId: string;
  // creation only (spec 4.3)
  name: string;
  description: string;
  unit: 'KG' | 'UN';
  // from the offer, every upload
  price: string;
  status: Availability;
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

export interface ItemUpdate extends ItemExtras {
  pdvId: string;
  index: number;
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
