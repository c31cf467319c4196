// Pure part of catalog processing (spec 4.3, D17, D18, D19): reads an accepted upload, discards
// and reports what is malformed or unreachable, and produces the set of rows to write. No SQL
// here: the repository applies a plan with a fixed number of set-based statements. The parts:
// catalog-upload-schema.ts (the body's shapes, written once), upload-field-check.ts (a field
// against its shape), catalog-plan-types.ts (plan shapes), catalog-fields.ts (field readers),
// catalog-entities.ts (the walk of each list of entities), merchant-upload-plan.ts (MERCHANT),
// flat-upload-plan.ts (ITEM, ITEM_OFFER), sync-outcome.ts (D17 reports).
import type { EntityType, UploadEnvelope, UploadPlan } from './catalog-plan-types.js';
import { planItemUpload, planOfferUpload } from './flat-upload-plan.js';
import { planMerchantUpload } from './merchant-upload-plan.js';

export * from './catalog-entities.js';
export * from './catalog-fields.js';
export * from './catalog-plan-types.js';
export * from './flat-upload-plan.js';
export * from './merchant-upload-plan.js';
export * from './sync-outcome.js';

/** The planner of each entityType of our upload. */
const PLANNERS: { [E in EntityType]: (envelope: UploadEnvelope) => UploadPlan } = {
  MERCHANT: planMerchantUpload,
  ITEM: planItemUpload,
  ITEM_OFFER: planOfferUpload,
};

export const planUpload = (envelope: UploadEnvelope): UploadPlan => PLANNERS[envelope.entityType](envelope);
