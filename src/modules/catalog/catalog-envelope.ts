// Spec 4.3 envelope rules of our upload body, shared by the route (PUT /v1/merchantUpdate) and the
// pull (D20), whose answer did not come through the route's schema.
import { isStatus, type UploadEnvelope } from './catalog-upload-plan.js';

const ENTITY_TYPES = ['MERCHANT', 'ITEM', 'ITEM_OFFER'] as const;

/**
 * Spec 4.3 envelope rules, for bodies that did not come through the route's schema (a pulled
 * POS answer, D20). Returns the reason in the words the route's 400 titles use.
 */
export function checkEnvelope(body: unknown): { envelope: UploadEnvelope } | { reason: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { reason: 'body must be an object' };
  const b = body as Record<string, unknown>;
  if (b.entityType === undefined) return { reason: 'entityType is required' };
  if (!ENTITY_TYPES.includes(b.entityType as never)) {
    return { reason: 'entityType must be one of MERCHANT, ITEM, ITEM_OFFER' };
  }
  const reason = checkMerchantStatus(b.entityType as UploadEnvelope['entityType'], b.merchantStatus);
  if (reason) return { reason };
  if (b.onlyAddProducts !== undefined && typeof b.onlyAddProducts !== 'boolean') {
    return { reason: 'onlyAddProducts must be boolean' };
  }
  if (b.updatedObjects === undefined) return { reason: 'updatedObjects is required' };
  if (!Array.isArray(b.updatedObjects)) return { reason: 'updatedObjects must be array' };
  return {
    envelope: {
      entityType: b.entityType as UploadEnvelope['entityType'],
      merchantStatus: b.merchantStatus,
      onlyAddProducts: b.onlyAddProducts as boolean | undefined,
      updatedObjects: b.updatedObjects,
    },
  };
}

/** Spec 4.3: required and an enum value for MERCHANT; accepted and ignored for ITEM and ITEM_OFFER. */
export function checkMerchantStatus(entityType: UploadEnvelope['entityType'], value: unknown): string | null {
  if (entityType !== 'MERCHANT') return null;
  if (value === undefined || value === null) return 'merchantStatus is required when entityType is MERCHANT';
  if (!isStatus(value)) return 'merchantStatus must be one of AVAILABLE, UNAVAILABLE';
  return null;
}
